#!/usr/bin/env bash
# H's interpolation ends and its coset evaluation starts in one launch (a pass pair over the same tiles).
# old: main before the change; new: with it. GPU NTT/H cases and the pipeline's GPU cases on new, then
# bench_gpu's H rows and BN254 section (2^20-2^26, top diagonals on, the pipeline's default) old, new, old, new.
set -u
out=${1:?OUT}
start=$SECONDS
mkdir -p /tmp/x && tar xJf stage/bins.txz -C /tmp/x
export LD_LIBRARY_PATH=/tmp/x/st/lib
bin=/tmp/x/st
mkdir -p "$out/c2"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$out/c2/gpu.txt"
timeout 200 $bin/new/proofline_gpu_tests -tc='gpu/ntt*,gpu/bn254/H*,gpu/bn254/an NTT*,pipeline/gpu/*' \
  > "$out/c2/gpu_tests_new.log" 2>&1
echo "gpu tests new rc=$? $(grep -E '^\[doctest\] (test cases|assertions)' "$out/c2/gpu_tests_new.log" | tr '\n' ' ') t=$((SECONDS - start))"
for run in old:1 new:1 old:2 new:2; do
  v=${run%%:*}; i=${run##*:}
  timeout 120 $bin/$v/bench_gpu --sections h,bn254 --sizes 20,22,24,26 --top-diagonals \
    --json "$out/c2/h_${v}_$i.json" > "$out/c2/h_${v}_$i.txt" 2>&1
  echo "bench $run rc=$? t=$((SECONDS - start))"
  grep -E "^(h|bn254) " "$out/c2/h_${v}_$i.txt" | awk '{print "  ", $0}'
done
