#!/usr/bin/env bash
# Third call, after the results copy was cut to what the job wrote: initcheck over the pipeline cases again,
# and the case that failed under six concurrent sanitizer processes run three times at once under memcheck
# (every log kept, in a tar). Usage: call3.sh OUT.
set -uo pipefail
out=${1:?out}
rm -rf /tmp/x && mkdir -p /tmp/x && tar xJf stage/bins.txz -C /tmp/x
stage=/tmp/x/stage
export PROOFLINE_GPU_TEST_MAX_LOG=12
logs=$(mktemp -d)
export PRINT_LIMIT=400
CASES="pipeline/gpu/evaluate/a witness*;pipeline/gpu/bn254/keys of 2^2*;pipeline/gpu/evaluate/a? b? c made*;pipeline/gpu/the CUDA backend*;pipeline/gpu/a fault*" \
  bash scripts/gpu_sanitize.sh "$stage" "$logs/initcheck" initcheck >"$logs/initcheck.txt" 2>&1 &
for i in 1 2 3; do
  CASES="pipeline/gpu/the CUDA backend*" bash scripts/gpu_sanitize.sh "$stage" "$logs/memcheck$i" memcheck \
    >"$logs/memcheck$i.txt" 2>&1 &
done
wait
cat "$logs"/*.txt
grep -h -B3 -A8 "ERROR: CHECK\|ERROR: REQUIRE\|FAILED" "$logs"/memcheck*/*.log | head -60
tar czf "$out/logs.tgz" -C "$logs" .
