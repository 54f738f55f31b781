# Warnings and sanitizers shared by every proofline target.

add_library(proofline_build_flags INTERFACE)
target_compile_options(proofline_build_flags INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wno-missing-field-initializers>)
# GCC's SLP vectorizer spends a third to a half of the compile time of the field and curve arithmetic (long
# carry chains it does not vectorize) and buys nothing measurable at run time (perf/results/compile-slp-*):
# off for GCC's host code. The loop vectorizer stays.
target_compile_options(proofline_build_flags INTERFACE
  $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CXX_COMPILER_ID:GNU>>:-fno-tree-slp-vectorize>)

set(PROOFLINE_SANITIZE_FLAGS "")
if(PROOFLINE_SANITIZE STREQUAL "address")
  set(PROOFLINE_SANITIZE_FLAGS
      -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
elseif(PROOFLINE_SANITIZE STREQUAL "thread")
  set(PROOFLINE_SANITIZE_FLAGS -fsanitize=thread -fno-omit-frame-pointer)
elseif(NOT PROOFLINE_SANITIZE STREQUAL "")
  message(FATAL_ERROR "PROOFLINE_SANITIZE must be '', 'address' or 'thread', not '${PROOFLINE_SANITIZE}'")
endif()
# (PROOFLINE_SANITIZE_FLAGS is read by the tests too: a project built against the installed, instrumented
# libraries needs the same flags.)
if(PROOFLINE_SANITIZE_FLAGS)
  # Host code only: nvcc does not take -fsanitize; device code is checked with compute-sanitizer instead.
  target_compile_options(proofline_build_flags INTERFACE $<$<COMPILE_LANGUAGE:CXX>:${PROOFLINE_SANITIZE_FLAGS}>)
  target_link_options(proofline_build_flags INTERFACE ${PROOFLINE_SANITIZE_FLAGS})
  # Instrumented builds look for bugs, not speed: inline hints instead of forced inlining of the arithmetic keep
  # their compile time sane (see arith/config.hpp).
  target_compile_definitions(proofline_build_flags INTERFACE PROOFLINE_ARITH_INLINE_HINTS)
endif()

# Adds a static library of one proofline module with the shared include root and flags.
function(proofline_add_module name)
  cmake_parse_arguments(ARG "" "" "SOURCES;PUBLIC_DEPS;PRIVATE_DEPS" ${ARGN})
  add_library(${name} STATIC ${ARG_SOURCES})
  add_library(proofline::${name} ALIAS ${name})
  target_include_directories(${name} PUBLIC
    $<BUILD_INTERFACE:${PROOFLINE_INCLUDE_ROOT}>
    $<INSTALL_INTERFACE:include>)
  target_link_libraries(${name} PUBLIC ${ARG_PUBLIC_DEPS} PRIVATE ${ARG_PRIVATE_DEPS} $<BUILD_INTERFACE:proofline_build_flags>)
  set_property(GLOBAL APPEND PROPERTY PROOFLINE_MODULES ${name})
endfunction()
