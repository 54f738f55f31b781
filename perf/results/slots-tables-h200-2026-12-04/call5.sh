#!/usr/bin/env bash
# Call 5: BLS12-381 G2's ones kernel (the Groth16 +-1 entries' sums) with each thread's sum in the block
# tree's shared buffer, as the accumulate kernel keeps its sums (sh), against main (base). The GPU MSM tests
# on sh, then bench_gpu_msm's shared section (A + B1 + B2 over the 20/50/30 mix) at 2^20 and 2^24, alternating.
set -u
out=${1:?OUT}
start=$SECONDS
export LD_LIBRARY_PATH=$PWD/stage/lib
mkdir -p "$out/c5"
for v in base sh; do mkdir -p /tmp/$v && tar xJf stage/bins-$v.txz -C /tmp/$v; done
timeout 90 /tmp/sh/bin/proofline_gpu_tests -tc='gpu/msm/G2*,gpu/msm/Groth16*,gpu/msm_shared*' > "$out/c5/gpu_tests_msm_sh.log" 2>&1
echo "gpu tests sh rc=$? $(grep -E '^\[doctest\] (test cases|assertions)' "$out/c5/gpu_tests_msm_sh.log" | tr '\n' ' ') t=$((SECONDS - start))"
for v in base sh base sh; do
  [ $((SECONDS - start)) -lt 150 ] || { echo "skip $v"; continue; }
  /tmp/$v/bin/bench_gpu_msm --sections shared --sizes 20,24 --runs 5 --seed 7 \
    --json "$out/c5/msm_$v.$SECONDS.json" > "$out/c5/msm_$v.$SECONDS.txt" 2>&1
  echo "bench $v rc=$? t=$((SECONDS - start))"
  grep -h "^shared" "$out"/c5/msm_$v.*.txt | tail -8 | awk '{printf "  %s\n", $0}' | cut -c1-130
done
cd "$out" && tar czf c5.tgz c5 && rm -rf c5
