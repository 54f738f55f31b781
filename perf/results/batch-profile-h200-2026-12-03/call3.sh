#!/usr/bin/env bash
# Call 3: accumulate chunks over whole waves ("wave") against the reduction-tail build before it ("tail"),
# same call: the GPU MSM tests on the wave build, bench_gpu_msm rows at 2^20-2^24, batch_prove 2^20
# presynthesized (automatic slots, and one device slot), then 2^24 x 16 presynthesized while time is left.
set -u
out=${1:?OUT}
start=$SECONDS
export LD_LIBRARY_PATH=$PWD/stage/lib
mkdir -p /tmp/tail /tmp/wave "$out/c3" /tmp/kc
tar xJf stage/bins-tail.txz -C /tmp/tail && tar xJf stage/bins-wave.txz -C /tmp/wave
timeout 200 /tmp/wave/bin/proofline_gpu_tests -tc='gpu/msm*,gpu/bn254/*MSM*' > "$out/c3/gpu_tests_msm.log" 2>&1
echo "gpu tests rc=$? $(tail -3 "$out/c3/gpu_tests_msm.log" | head -2 | tr '\n' ' ') t=$((SECONDS - start))"
for v in tail wave; do
  /tmp/$v/bin/bench_gpu_msm --sections table,shared --sizes 20,22,24 --runs 5 --seed 7 \
    --json "$out/c3/msm_$v.json" > "$out/c3/msm_$v.txt" 2>&1
  echo "bench $v rc=$? t=$((SECONDS - start))"
done
for run in tail:0 wave:0 tail:1 wave:1; do
  v=${run%%:*}; slots=${run##*:}; opt=(); [ "$slots" = 0 ] || opt=(--device-slots "$slots")
  count=768; [ "$slots" = 0 ] || count=96
  /tmp/$v/bin/batch_prove --synthetic 20 --count $count --mode pinned:pre --verify --no-progress \
    --key-cache /tmp/kc "${opt[@]}" --report "$out/c3/rows20_${v}_slots$slots.json" > "$out/c3/rows20_${v}_slots$slots.log" 2>&1
  echo "batch $run rc=$? $(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' "$out/c3/rows20_${v}_slots$slots.log") t=$((SECONDS - start))"
done
for v in tail wave; do
  [ $((SECONDS - start)) -lt 450 ] || { echo "skip 2^24 $v"; continue; }
  /tmp/$v/bin/batch_prove --synthetic 24 --count 16 --mode pinned:pre --verify --no-progress \
    --key-cache /tmp/kc --report "$out/c3/rows24_$v.json" > "$out/c3/rows24_$v.log" 2>&1
  echo "batch 2^24 $v rc=$? $(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' "$out/c3/rows24_$v.log") t=$((SECONDS - start))"
done
cd "$out" && tar czf c3.tgz c3 && rm -rf c3
