#!/usr/bin/env bash
# Runs GPU suite cases under NVIDIA compute-sanitizer (memcheck, racecheck, synccheck, initcheck) and prints one
# line per tool and case: clean, or the error count with the log to read. Run it on a machine with a GPU:
#
#   scripts/gpu_sanitize.sh STAGE_DIR OUT_DIR [TOOL ...]    # default tools: memcheck racecheck synccheck
#
# STAGE_DIR is perf/gpu_stage.sh's folder (bin/proofline_gpu_tests, lib/). CASES (environment) overrides the
# doctest filters, ';'-separated; PER_CASE_SECONDS bounds each run (default 240). Exit status 1 when any run
# reports an error or does not finish.
set -uo pipefail
stage=${1:?stage folder}
out=${2:?output folder}
shift 2
tools=("$@")
[ ${#tools[@]} -gt 0 ] || tools=(memcheck racecheck synccheck)
sanitizer=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -n 1)
[ -n "$sanitizer" ] || { echo "gpu_sanitize: compute-sanitizer not found" >&2; exit 2; }
export LD_LIBRARY_PATH=$stage/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# Small sizes of every kernel family and one pipeline case: the sanitizers slow kernels down 10-100x.
default_cases="gpu/arith/*;gpu/msm/G1 small*;gpu/msm/G2 small*;gpu/msm/edge*;gpu/fixed_base/*;gpu/msm_stream/G1 and G2*;gpu/ntt/Fr device*;gpu/ntt/H equals*;gpu/ntt/an engine*;pipeline/gpu/the CUDA backend*;pipeline/gpu/a fault*"
IFS=';' read -r -a cases <<<"${CASES:-$default_cases}"
mkdir -p "$out"
"$sanitizer" --version | tail -n 1
status=0
for tool in "${tools[@]}"; do
  for case_filter in "${cases[@]}"; do
    log="$out/${tool}-$(echo "$case_filter" | tr -c 'A-Za-z0-9' '_').log"
    start=$(date +%s)
    timeout "${PER_CASE_SECONDS:-240}" "$sanitizer" --tool "$tool" --error-exitcode 86 --print-limit 20 \
      "$stage/bin/proofline_gpu_tests" -tc="$case_filter" >"$log" 2>&1
    rc=$?
    summary=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$log" | tail -n 1 | sed 's/^=* *//')
    cases_run=$(grep -o "test cases: *[0-9]* | *[0-9]* passed | *[0-9]* failed" "$log" | tail -n 1)
    printf '%-10s %-40s rc=%-3s %4ss %s; %s\n' "$tool" "$case_filter" "$rc" "$(( $(date +%s) - start ))" \
      "${summary:-no summary}" "${cases_run:-no doctest summary}"
    [ "$rc" -eq 0 ] || status=1
  done
done
exit $status
