#!/usr/bin/env bash
# Call 5: the bucket accumulation asks L2 for the next entry's point while it adds the current one
# (prefetch.global.L2). new: that build; old: main before it. The GPU MSM cases on new, then bench_gpu_msm
# (tables and the shared sort, 2^20 and 2^24, 5 runs, seed 7) old, new, old, new while time allows, then
# batch_prove 2^20 x768 presynthesized for each.
set -u
out=${1:?OUT}
start=$SECONDS
mkdir -p /tmp/st && tar xJf stage/bins.txz -C /tmp/st
export LD_LIBRARY_PATH=/tmp/st/lib
mkdir -p "$out/c5" /tmp/kc
timeout 150 /tmp/st/new/proofline_gpu_tests -tc='gpu/msm*,gpu/bn254/*MSM*' > "$out/c5/gpu_tests_new.log" 2>&1
echo "gpu tests new rc=$? $(grep -E '^\[doctest\] (test cases|assertions)' "$out/c5/gpu_tests_new.log" | tr '\n' ' ') t=$((SECONDS - start))"
for run in old:1 new:1 old:2 new:2; do
  v=${run%%:*}; i=${run##*:}
  [ $((SECONDS - start)) -lt 270 ] || { echo "skip bench $run"; continue; }
  timeout 120 /tmp/st/$v/bench_gpu_msm --sections table,shared --sizes 20,24 --runs 5 --seed 7 \
    --json "$out/c5/msm_${v}_$i.json" > "$out/c5/msm_${v}_$i.txt" 2>&1
  echo "bench $run rc=$? t=$((SECONDS - start))"
done
for v in old new; do
  [ $((SECONDS - start)) -lt 330 ] || { echo "skip batch $v"; continue; }
  timeout 60 /tmp/st/$v/batch_prove --synthetic 20 --count 768 --mode pinned:pre --verify --no-progress \
    --key-cache /tmp/kc --report "$out/c5/rows20_$v.json" > "$out/c5/rows20_$v.log" 2>&1
  echo "batch $v rc=$? $(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' "$out/c5/rows20_$v.log") t=$((SECONDS - start))"
done
cd "$out" && tar czf c5.tgz c5 && rm -rf c5
