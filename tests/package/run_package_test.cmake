# The package test: installs the build tree into a temporary prefix, configures and builds the consumer
# project against it with find_package(proofline), and runs its program (the README's embedding example);
# then a C-only project (c_consumer) builds and runs the C ABI's C example through proofline::capi.
#   cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK_DIR=... -DCXX=... [-DGENERATOR=Ninja]
#         [-DSANITIZE_FLAGS="-fsanitize=..."] -P run_package_test.cmake
# SANITIZE_FLAGS: the flags a sanitized build's libraries were built with, which the consumers need as well.
# Needs a complete build (cmake --install installs every module and batch_prove).
foreach(var BUILD_DIR SOURCE_DIR WORK_DIR CXX)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_package_test.cmake: -D${var}=... is missing")
  endif()
endforeach()
if(NOT DEFINED GENERATOR)
  set(GENERATOR Ninja)
endif()
file(REMOVE_RECURSE "${WORK_DIR}")
set(prefix "${WORK_DIR}/prefix")
set(consumer_flags "")
if(SANITIZE_FLAGS)
  set(consumer_flags "-DCMAKE_CXX_FLAGS=${SANITIZE_FLAGS}" "-DCMAKE_C_FLAGS=${SANITIZE_FLAGS}"
                     "-DCMAKE_EXE_LINKER_FLAGS=${SANITIZE_FLAGS}")
endif()

function(step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "package test: '${ARGN}' failed (${result}):\n${out}\n${err}")
  endif()
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

step(${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${prefix}")
if(NOT EXISTS "${prefix}/include/proofline/graph/pipeline.hpp")
  message(FATAL_ERROR "package test: the installed tree has no proofline/graph/pipeline.hpp")
endif()
# The installed headers are the public ones alone: compiled by the host compiler, none of them reaches CUDA,
# spdlog or Boost (the .cuh files the arithmetic includes under __CUDACC__ are for nvcc alone).
file(GLOB_RECURSE installed_headers "${prefix}/include/proofline/*")
set(all_headers "")
foreach(header ${installed_headers})
  if(header MATCHES "/arith/detail/[a-z0-9_]+\\.cuh$")
    continue()
  endif()
  if(NOT header MATCHES "\\.hpp$")
    message(FATAL_ERROR "package test: ${header} is installed but is not a public .hpp header")
  endif()
  string(APPEND all_headers "#include \"${header}\"\n")
endforeach()
file(WRITE "${WORK_DIR}/all_headers.cpp" "${all_headers}")
step(${CXX} -std=c++20 -M -I${prefix}/include "${WORK_DIR}/all_headers.cpp")
if(step_output MATCHES "(cuda_runtime|/cuda/|spdlog|boost|/fmt/)[^ ]*")
  message(FATAL_ERROR "package test: the public headers reach a private dependency: ${CMAKE_MATCH_0}")
endif()
# A consumer's .cu file uses the field and curve types in a kernel of its own (nvcc, where there is one).
find_program(NVCC nvcc PATHS /usr/local/cuda/bin)
if(NVCC)
  file(WRITE "${WORK_DIR}/device_user.cu" [=[
#include <proofline/arith/fp2.hpp>
#include <proofline/arith/fr.hpp>
#include <proofline/arith/g1.hpp>

__global__ void square(proofline::Fr* x) { x[threadIdx.x] = x[threadIdx.x] * x[threadIdx.x]; }
]=])
  step(${NVCC} -std=c++20 -arch=sm_90 -c "${WORK_DIR}/device_user.cu" "-I${prefix}/include"
       -o "${WORK_DIR}/device_user.o")
endif()
step(${CMAKE_COMMAND} -S "${SOURCE_DIR}/tests/package/consumer" -B "${WORK_DIR}/consumer" -G "${GENERATOR}"
     -DCMAKE_BUILD_TYPE=Release "-DCMAKE_PREFIX_PATH=${prefix}" "-DREADME=${SOURCE_DIR}/README.md" ${consumer_flags})
step(${CMAKE_COMMAND} --build "${WORK_DIR}/consumer")
step("${WORK_DIR}/consumer/embedding_example")
if(NOT step_output MATCHES "verified: yes")
  message(FATAL_ERROR "package test: the example did not verify its proof:\n${step_output}")
endif()
set(example_output "${step_output}")
step("${WORK_DIR}/consumer/quiet_logs")
step("${WORK_DIR}/consumer/metrics_page")
set(fixture "${SOURCE_DIR}/tests/fixtures/snarkjs/chain_16")
step(${CMAKE_COMMAND} -S "${SOURCE_DIR}/tests/package/c_consumer" -B "${WORK_DIR}/c_consumer" -G "${GENERATOR}"
     -DCMAKE_BUILD_TYPE=Release "-DCMAKE_PREFIX_PATH=${prefix}"
     "-DEXAMPLE=${SOURCE_DIR}/capi/examples/c/prove_batch.c" ${consumer_flags})
step(${CMAKE_COMMAND} --build "${WORK_DIR}/c_consumer")
step("${WORK_DIR}/c_consumer/prove_c" "${fixture}/circuit_final.zkey" "${fixture}/witness.wtns"
     "${fixture}/verification_key.json")
if(NOT step_output MATCHES "6 proofs, 6 verified")
  message(FATAL_ERROR "package test: the C project's example did not verify its proofs:\n${step_output}")
endif()
message(STATUS "package test: installed, built against the install and ran: ${example_output}")
file(REMOVE_RECURSE "${WORK_DIR}")
