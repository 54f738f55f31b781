#!/usr/bin/env bash
# Call 3: accumulate chunks planned for about 2^18 (v18) or 2^17 (v17) threads against main's rule (base):
# the MSM rows at 2^20 and 2^24 (every row checked), then batch_prove 2^20 x 192 presynthesized, verified.
set -u
out=${1:?OUT}
start=$SECONDS
export LD_LIBRARY_PATH=$PWD/stage/lib
mkdir -p /tmp/b "$out/c3" && tar xJf stage/bins.txz -C /tmp/b
for v in base v18 v17; do
  [ $((SECONDS - start)) -lt 420 ] || { echo "skip bench $v"; continue; }
  /tmp/b/bench_gpu_msm_$v --sections table,shared --sizes 20,24 --runs 5 --seed 7 \
    --json "$out/c3/msm_$v.json" > "$out/c3/msm_$v.txt" 2>&1
  echo "bench $v rc=$? t=$((SECONDS - start))"
done
for run in base:4 v18:4 v17:4 v18:8 base:8; do
  v=${run%%:*}; slots=${run##*:}
  [ $((SECONDS - start)) -lt 540 ] || { echo "skip batch $run"; continue; }
  /tmp/b/batch_prove_$v --synthetic 20 --count 192 --presynthesize --verify --device-slots $slots \
    --report "$out/c3/rows20_${v}_slots$slots.json" > "$out/c3/rows20_${v}_slots$slots.log" 2>&1
  echo "batch $run rc=$? $(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' "$out/c3/rows20_${v}_slots$slots.log")"
done
cd "$out" && tar czf c3.tgz c3 && rm -rf c3
