#!/usr/bin/env bash
# Second call: the runs of call.sh that reported something, again, one at a time, every log kept (in a tar:
# the device tool brings back a limited number of files). Usage: call2.sh OUT.
set -uo pipefail
out=${1:?out}
[ -d /tmp/x/stage ] || { mkdir -p /tmp/x && tar xJf stage/bins.txz -C /tmp/x; }
stage=/tmp/x/stage
export PROOFLINE_GPU_TEST_MAX_LOG=12
logs=$(mktemp -d)
run() {  # tool cases
  CASES="$2" PER_CASE_SECONDS=150 bash scripts/gpu_sanitize.sh "$stage" "$logs/$1" "$1" 2>&1 | tee -a "$logs/summary.txt"
}
"$stage/bin/proofline_gpu_tests" -tc="pipeline/gpu/the CUDA backend*" >"$logs/plain-cuda-backend.log" 2>&1
echo "plain run rc=$?" | tee -a "$logs/summary.txt"
run memcheck "pipeline/gpu/the CUDA backend*;pipeline/gpu/evaluate/a? b? c made*"
export PRINT_LIMIT=400
run initcheck "pipeline/gpu/evaluate/a witness*;pipeline/gpu/bn254/keys of 2^2*;pipeline/gpu/evaluate/a? b? c made*"
tar czf "$out/logs.tgz" -C "$logs" .
