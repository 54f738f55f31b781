# Builds one of capi/examples against an installed tree and runs it on a snarkjs fixture:
#   cmake -DLANGUAGE=c|rust|go|python -DPREFIX=... -DSOURCE_DIR=... -DWORK_DIR=... -DFIXTURE=DIR
#         [-DTOOL=compiler or interpreter] [-DRUN_ENV=VAR=value|...] -P run_capi_example.cmake
# RUN_ENV is the environment the example's program runs in (its compiler does not get it).
# A missing toolchain prints "SKIPPED: ..." (ctest reports the test as skipped); everything else that goes
# wrong fails the test with the step's output.
foreach(var LANGUAGE PREFIX SOURCE_DIR WORK_DIR FIXTURE)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_capi_example.cmake: -D${var}=... is missing")
  endif()
endforeach()
if(NOT TOOL OR NOT EXISTS "${TOOL}")
  message("SKIPPED: no ${LANGUAGE} toolchain (${TOOL})")
  return()
endif()
if(NOT LIBDIR)
  set(LIBDIR lib)
endif()
if(NOT EXISTS "${PREFIX}/include/proofline.h" OR NOT EXISTS "${PREFIX}/${LIBDIR}/libproofline.so.1")
  message(FATAL_ERROR "capi example: ${PREFIX} holds no installed proofline.h and ${LIBDIR}/libproofline.so.1")
endif()
set(examples "${SOURCE_DIR}/capi/examples")
set(work "${WORK_DIR}/${LANGUAGE}")
file(REMOVE_RECURSE "${work}")
file(MAKE_DIRECTORY "${work}")
set(lib "${PREFIX}/${LIBDIR}")
set(arguments "${FIXTURE}/circuit_final.zkey" "${FIXTURE}/witness.wtns" "${FIXTURE}/verification_key.json")
string(REPLACE "|" ";" run_env "${RUN_ENV}")
set(run "")  # the prefix of a command that runs an example's program
if(run_env)
  set(run ${CMAKE_COMMAND} -E env ${run_env})
endif()

set(step_dir "${work}")  # where each step runs
function(step)
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY "${step_dir}" RESULT_VARIABLE result OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "capi example (${LANGUAGE}): '${ARGN}' failed (${result}):\n${out}\n${err}")
  endif()
  set(step_output "${out}" PARENT_SCOPE)
  set(step_errors "${err}" PARENT_SCOPE)
endfunction()

# The Rust, Go and Python examples route the library's log lines (pl_set_log_sink) to their own logger, which
# writes "proofline LEVEL: message" to stderr: the key's line must arrive there, through the sink.
function(check_log_sink)
  if(NOT step_errors MATCHES "proofline INFO: add_key: key 'circuit_final'")
    message(FATAL_ERROR "capi example (${LANGUAGE}): the library's log lines did not reach the program's log "
                        "sink:\n${step_errors}")
  endif()
endfunction()

# The error path an embedder's prover takes first: a proof that does not verify (here under a verifying key of
# the other curve) while the rest of the batch is still in flight. The program must end with status 1 and
# the library's message, after its pipeline is destroyed: its completion callbacks must not outlive what
# they use (a Go handle deleted, a Rust box dropped, a C program's memory after exit()) or crash on the way
# out.
set(mismatched_vk "${FIXTURE}/../bn128/chain_16/verification_key.json")
function(failing_step)
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY "${step_dir}" RESULT_VARIABLE result OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT result EQUAL 1 OR NOT err MATCHES "pl_verify[^\n]*PL_ERR_" OR err MATCHES "panic|Segmentation|Aborted")
    message(FATAL_ERROR "capi example (${LANGUAGE}): '${ARGN}' should fail with status 1 and the library's "
                        "message, not (${result}):\n${out}\n${err}")
  endif()
  set(failing_errors "${err}" PARENT_SCOPE)
endfunction()

if(LANGUAGE STREQUAL "c")
  # The header as the requirement states it: C99, pedantic, every warning an error.
  step("${TOOL}" -std=c99 -Wall -Wextra -pedantic -Werror -O2 "-I${PREFIX}/include" "${examples}/c/prove_batch.c"
       -o "${work}/prove_batch" "-L${lib}" -lproofline "-Wl,-rpath,${lib}")
  step(${run} "${work}/prove_batch" ${arguments} 6)
  set(bls_output "${step_output}")
  # The same program on a bn128 (BN254) key: it asks the key for its curve.
  set(bn_fixture "${FIXTURE}/../bn128/chain_16")
  step(${run} "${work}/prove_batch" "${bn_fixture}/circuit_final.zkey" "${bn_fixture}/witness.wtns"
       "${bn_fixture}/verification_key.json" 6)
  if(NOT step_output MATCHES "bn128 key: 6 proofs, 6 verified")
    message(FATAL_ERROR "capi example (c): the bn128 key's batch did not verify:\n${step_output}")
  endif()
  string(PREPEND step_output "${bls_output}")
  # Stopping on the first proof that does not verify, with the rest of the batch in flight: the program
  # cancels the queued jobs and destroys its pipeline, whose destroy returns once every job's completion
  # callback has run, before it exits (never exit() with jobs still calling back into it).
  failing_step(${run} "${work}/prove_batch" "${FIXTURE}/circuit_final.zkey" "${FIXTURE}/witness.wtns"
               "${mismatched_vk}" 64)
  set(waited FALSE)
  if(failing_errors MATCHES "stopped early: ([0-9]+) jobs submitted, ([0-9]+) completion callbacks, pipeline")
    if(CMAKE_MATCH_1 EQUAL CMAKE_MATCH_2)
      set(waited TRUE)
    endif()
  endif()
  if(NOT waited)
    message(FATAL_ERROR "capi example (c): it did not wait for every job it submitted before it stopped:\n"
                        "${failing_errors}")
  endif()
elseif(LANGUAGE STREQUAL "rust")
  step("${TOOL}" -O --edition 2021 "${examples}/rust/prove_batch.rs" -o "${work}/prove_batch" "-Lnative=${lib}"
       "-Clink-args=-Wl,-rpath,${lib}")
  step(${run} "${work}/prove_batch" ${arguments} 4)
  check_log_sink()
  failing_step(${run} "${work}/prove_batch" "${FIXTURE}/circuit_final.zkey" "${FIXTURE}/witness.wtns"
               "${mismatched_vk}" 64)
elseif(LANGUAGE STREQUAL "go")
  # A private GOPATH, cache and HOME: nothing outside the work folder is read or written, nothing downloaded.
  file(COPY "${examples}/go/main.go" "${examples}/go/go.mod" DESTINATION "${work}/src")
  set(step_dir "${work}/src")
  step(${CMAKE_COMMAND} -E env "HOME=${work}" "GOPATH=${work}/gopath" "GOCACHE=${work}/gocache" GOFLAGS=
       GOPROXY=off GOTOOLCHAIN=local CGO_ENABLED=1 "CGO_CFLAGS=-I${PREFIX}/include"
       "CGO_LDFLAGS=-L${lib} -Wl,-rpath,${lib}" "${TOOL}" build -o "${work}/prove_batch" .)
  set(step_dir "${work}")
  step(${run} "${work}/prove_batch" ${arguments} 4)
  check_log_sink()
  failing_step(${run} "${work}/prove_batch" "${FIXTURE}/circuit_final.zkey" "${FIXTURE}/witness.wtns"
               "${mismatched_vk}" 64)
elseif(LANGUAGE STREQUAL "python")
  step(${CMAKE_COMMAND} -E env ${run_env} "PROOFLINE_LIBRARY=${lib}/libproofline.so.1" "${TOOL}"
       "${examples}/python/prove_batch.py" ${arguments} 4)
  check_log_sink()
  failing_step(${CMAKE_COMMAND} -E env ${run_env} "PROOFLINE_LIBRARY=${lib}/libproofline.so.1" "${TOOL}"
               "${examples}/python/prove_batch.py" "${FIXTURE}/circuit_final.zkey" "${FIXTURE}/witness.wtns"
               "${mismatched_vk}" 64)
else()
  message(FATAL_ERROR "capi example: unknown LANGUAGE ${LANGUAGE}")
endif()
if(NOT step_output MATCHES "bad key: PL_ERR_BAD_INPUT: [^\n]+zkey")
  message(FATAL_ERROR "capi example (${LANGUAGE}): the bad key did not come back as PL_ERR_BAD_INPUT with a "
                      "message:\n${step_output}")
endif()
message("${step_output}")
file(REMOVE_RECURSE "${work}")
