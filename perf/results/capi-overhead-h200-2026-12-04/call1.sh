#!/usr/bin/env bash
# Call 1: where the C ABI's cost against the C++ API comes from, on the build at the session's start (the
# parallel scalar check included). bench_capi 2^20, C ABI vs C++ in one process, alternating, medians:
# witnesses in memory (C: canonical scalars checked and converted in synthesis; C++: Montgomery values
# copied) at 128 and 384 jobs (a fixed cost at the batch's start or end stays, a per-job one grows), paced
# at 16 unfinished, and from the same .wtns files on both sides (both convert: what is left is the ABI).
set -u
out=${1:?OUT}
start=$SECONDS
mkdir -p "$out/c1" /tmp/kc
bench() {  # name, options
  local name=$1; shift
  LD_LIBRARY_PATH=stage/lib timeout 200 stage/bin/bench_capi --log-n 20 --reps 3 --warmup 8 \
    --backend cuda --key-cache /tmp/kc --json "$out/c1/$name.json" "$@" > "$out/c1/$name.log" 2>&1
  echo "$name rc=$? $(grep -E 'overhead' "$out/c1/$name.log") t=$((SECONDS - start))"
}
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv > "$out/c1/gpu.txt" 2>&1
bench mem128 --count 128
bench mem384 --count 384
bench paced128 --count 128 --outstanding 16
bench wtns128 --count 128 --witness wtns
