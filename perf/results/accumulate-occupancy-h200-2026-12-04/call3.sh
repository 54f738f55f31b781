#!/usr/bin/env bash
# Call 3: G2's bucket sums in shared memory (sh: the accumulate kernel of both curves' G2 keeps each thread's
# XYZZ sum in shared memory, so the out-of-line Fp2 products take it by load instead of holding it in registers
# across the calls) against main (base). Same call: the GPU MSM tests on sh, bench_gpu_msm at 2^20 and 2^24,
# batch_prove 2^20 x768 presynthesized alternating, then 2^24 x16 while time is left.
set -u
out=${1:?OUT}
start=$SECONDS
export LD_LIBRARY_PATH=$PWD/stage/lib
mkdir -p "$out/c3" /tmp/kc
for v in base sh; do mkdir -p /tmp/$v && tar xJf stage/bins-$v.txz -C /tmp/$v; done
timeout 200 /tmp/sh/bin/proofline_gpu_tests -tc='gpu/msm*,gpu/bn254/*MSM*' > "$out/c3/gpu_tests_msm_sh.log" 2>&1
echo "gpu tests sh rc=$? $(tail -3 "$out/c3/gpu_tests_msm_sh.log" | head -2 | tr '\n' ' ') t=$((SECONDS - start))"
for v in base sh; do
  /tmp/$v/bin/bench_gpu_msm --sections table,shared --sizes 20,24 --runs 5 --seed 7 \
    --json "$out/c3/msm_$v.json" > "$out/c3/msm_$v.txt" 2>&1
  echo "bench $v rc=$? t=$((SECONDS - start))"
done
for v in base sh base sh; do
  /tmp/$v/bin/batch_prove --synthetic 20 --count 768 --mode pinned:pre --verify --no-progress \
    --key-cache /tmp/kc --report "$out/c3/rows20_$v.json" >> "$out/c3/rows20_$v.log" 2>&1
  echo "batch $v rc=$? $(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' "$out/c3/rows20_$v.log" | tail -1) t=$((SECONDS - start))"
done
for v in base sh; do
  [ $((SECONDS - start)) -lt 430 ] || { echo "skip 2^24 $v"; continue; }
  /tmp/$v/bin/batch_prove --synthetic 24 --count 16 --mode pinned:pre --verify --no-progress \
    --key-cache /tmp/kc --report "$out/c3/rows24_$v.json" > "$out/c3/rows24_$v.log" 2>&1
  echo "batch 2^24 $v rc=$? $(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' "$out/c3/rows24_$v.log") t=$((SECONDS - start))"
done
cd "$out" && tar czf c3.tgz c3 && rm -rf c3
