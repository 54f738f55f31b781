#!/usr/bin/env bash
# Call 4: the final tree (accumulate chunks over 2^17 threads, at most 256 entries; up to 8 automatic device
# slots for small jobs): the GPU suite's MSM cases; MSM rows at 2^22 against main (base; 2^20 and 2^24 were
# measured in call 3, where the new chunks equal v17's and main's); batch_prove 2^20 x 192 presynthesized.
set -u
out=${1:?OUT}
start=$SECONDS
export LD_LIBRARY_PATH=$PWD/stage/lib
mkdir -p /tmp/b "$out/c4" && tar xJf stage/bins.txz -C /tmp/b
timeout 150 /tmp/b/proofline_gpu_tests -tc="gpu/msm*,gpu/bn254/*MSM*" > "$out/c4/gpu_msm_tests.log" 2>&1
echo "gpu tests rc=$? $(grep -E 'test cases|assertions' "$out/c4/gpu_msm_tests.log" | tr '\n' ' ') t=$((SECONDS - start))"
for v in base new; do
  /tmp/b/bench_gpu_msm_$v --sections table,shared --sizes 22 --runs 5 --seed 7 \
    --json "$out/c4/msm22_$v.json" > "$out/c4/msm22_$v.txt" 2>&1
  echo "bench $v rc=$? t=$((SECONDS - start))"
done
/tmp/b/batch_prove_new --synthetic 20 --count 192 --presynthesize --verify --log-level info \
  --report "$out/c4/rows20_new.json" > "$out/c4/rows20_new.log" 2>&1
echo "batch new rc=$? $(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' "$out/c4/rows20_new.log") $(grep -o '[0-9]* device slots' "$out/c4/rows20_new.log" | head -1) t=$((SECONDS - start))"
cd "$out" && tar czf c4.tgz c4 && rm -rf c4
