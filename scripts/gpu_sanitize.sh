#!/usr/bin/env bash
# Runs GPU suite cases under NVIDIA compute-sanitizer (memcheck, racecheck, synccheck, initcheck) and prints one
# line per tool and case: clean, or the error count with the log to read. Run it on a machine with a GPU:
#
#   scripts/gpu_sanitize.sh STAGE_DIR OUT_DIR [TOOL ...]    # default: memcheck racecheck synccheck initcheck
#
# STAGE_DIR is perf/gpu_stage.sh's folder (bin/proofline_gpu_tests, lib/). CASES (environment) overrides the
# doctest filters, ';'-separated (doctest splits a filter at commas: write '?' for one); PER_CASE_SECONDS
# bounds each run (default 240), PRINT_LIMIT the errors printed per run (default 20). Set
# PROOFLINE_GPU_TEST_MAX_LOG=12 to keep the NTT and H cases small. Exit status 1 when any run reports an error
# or does not finish.
set -uo pipefail
stage=${1:?stage folder}
out=${2:?output folder}
shift 2
tools=("$@")
[ ${#tools[@]} -gt 0 ] || tools=(memcheck racecheck synccheck initcheck)
sanitizer=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -n 1)
[ -n "$sanitizer" ] || { echo "gpu_sanitize: compute-sanitizer not found" >&2; exit 2; }
export LD_LIBRARY_PATH=$stage/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# Small sizes of every kernel family and one pipeline case: the sanitizers slow kernels down 10-100x.
default_cases="gpu/arith/*;gpu/bn254/Fr and Fp*;gpu/bn254/Fp2*;gpu/msm/G1 small*;gpu/msm/G2 small*;gpu/msm/edge*;gpu/bn254/MSM edge*;gpu/msm_shared/*;gpu/msm_table/BLS12-381*;gpu/msm_table/BN254*;gpu/fixed_base/*;gpu/key_check/*;gpu/msm_stream/G1 and G2*;gpu/ntt/Fr device*;gpu/ntt/H equals*;pipeline/gpu/the CUDA backend*;pipeline/gpu/a fault*;pipeline/gpu/bn254/keys of 2^2*;pipeline/gpu/evaluate/a witness*;pipeline/gpu/evaluate/a? b? c made*"
IFS=';' read -r -a cases <<<"${CASES:-$default_cases}"
mkdir -p "$out"
"$sanitizer" --version | tail -n 1
status=0
for tool in "${tools[@]}"; do
  for case_filter in "${cases[@]}"; do
    log="$out/${tool}-$(echo "$case_filter" | tr -c 'A-Za-z0-9' '_').log"
    start=$(date +%s)
    timeout "${PER_CASE_SECONDS:-240}" "$sanitizer" --tool "$tool" --error-exitcode 86 \
      --print-limit "${PRINT_LIMIT:-20}" "$stage/bin/proofline_gpu_tests" -tc="$case_filter" >"$log" 2>&1
    rc=$?
    summary=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$log" | tail -n 1 | sed 's/^=* *//')
    cases_run=$(grep -o "test cases: *[0-9]* | *[0-9]* passed | *[0-9]* failed" "$log" | tail -n 1)
    printf '%-10s %-40s rc=%-3s %4ss %s; %s\n' "$tool" "$case_filter" "$rc" "$(( $(date +%s) - start ))" \
      "${summary:-no summary}" "${cases_run:-no doctest summary}"
    [ "$rc" -eq 0 ] || status=1
  done
done
exit $status
