#!/usr/bin/env bash
# Call 2: the reduction's bit-sum tail ("tail") against main before it ("base"), same call: the GPU MSM tests
# on the tail build, bench_gpu_msm rows at 2^20-2^24, batch_prove 2^20 presynthesized (throughput with the
# automatic slots, and one device slot: a job at a time), then the srs_loads_in_batch report on a cached key.
set -u
out=${1:?OUT}
start=$SECONDS
export LD_LIBRARY_PATH=$PWD/stage/lib
mkdir -p /tmp/base /tmp/tail "$out/c2" /tmp/kc
tar xJf stage/bins.txz -C /tmp/base && tar xJf stage/bins-tail.txz -C /tmp/tail
timeout 200 /tmp/tail/bin/proofline_gpu_tests -tc='gpu/msm*,gpu/bn254/*MSM*' > "$out/c2/gpu_tests_msm.log" 2>&1
echo "gpu tests rc=$? $(tail -3 "$out/c2/gpu_tests_msm.log" | head -2 | tr '\n' ' ') t=$((SECONDS - start))"
for v in base tail; do
  /tmp/$v/bin/bench_gpu_msm --sections table,shared --sizes 20,22,24 --runs 5 --seed 7 \
    --json "$out/c2/msm_$v.json" > "$out/c2/msm_$v.txt" 2>&1
  echo "bench $v rc=$? t=$((SECONDS - start))"
done
for run in base:0 tail:0 base:1 tail:1 base:0 tail:0; do
  v=${run%%:*}; slots=${run##*:}; opt=(); [ "$slots" = 0 ] || opt=(--device-slots "$slots")
  count=768; [ "$slots" = 0 ] || count=96
  [ $((SECONDS - start)) -lt 520 ] || { echo "skip batch $run"; continue; }
  /tmp/$v/bin/batch_prove --synthetic 20 --count $count --mode pinned:pre --verify --no-progress \
    --key-cache /tmp/kc "${opt[@]}" --report "$out/c2/rows20_${v}_slots$slots.json" >> "$out/c2/rows20_${v}_slots$slots.log" 2>&1
  echo "batch $run rc=$? $(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' "$out/c2/rows20_${v}_slots$slots.log" | tail -1) t=$((SECONDS - start))"
done
for i in 1 2; do
  /tmp/tail/bin/batch_prove --synthetic 16 --count 8 --mode pinned,pinned:pre --key-cache /tmp/kc16 \
    --no-progress --log-level info > "$out/c2/srs-loads-$i.log" 2>&1
  echo "srs loads run $i rc=$? $(grep -o 'keys [a-z]* in\|srs_loads_in_batch [0-9.e+]*' "$out/c2/srs-loads-$i.log" | tr '\n' ' ')"
done
cd "$out" && tar czf c2.tgz c2 && rm -rf c2
