# The package test: installs the build tree into a temporary prefix, configures and builds the consumer
# project against it with find_package(proofline), and runs its program (the README's embedding example).
#   cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK_DIR=... [-DGENERATOR=Ninja] -P run_package_test.cmake
# Needs a complete build (cmake --install installs every module and batch_prove).
foreach(var BUILD_DIR SOURCE_DIR WORK_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_package_test.cmake: -D${var}=... is missing")
  endif()
endforeach()
if(NOT DEFINED GENERATOR)
  set(GENERATOR Ninja)
endif()
file(REMOVE_RECURSE "${WORK_DIR}")
set(prefix "${WORK_DIR}/prefix")

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
step(${CMAKE_COMMAND} -S "${SOURCE_DIR}/tests/package/consumer" -B "${WORK_DIR}/consumer" -G "${GENERATOR}"
     -DCMAKE_BUILD_TYPE=Release "-DCMAKE_PREFIX_PATH=${prefix}" "-DREADME=${SOURCE_DIR}/README.md")
step(${CMAKE_COMMAND} --build "${WORK_DIR}/consumer")
step("${WORK_DIR}/consumer/embedding_example")
if(NOT step_output MATCHES "verified: yes")
  message(FATAL_ERROR "package test: the example did not verify its proof:\n${step_output}")
endif()
message(STATUS "package test: installed, built against the install and ran: ${step_output}")
file(REMOVE_RECURSE "${WORK_DIR}")
