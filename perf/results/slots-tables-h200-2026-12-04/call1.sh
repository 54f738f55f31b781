#!/usr/bin/env bash
# Call 1: at 2^24 rows a device slot holds 6.6 GiB of VRAM (its vectors and MSM scratch), as much as a sixth of
# B2's precomputed-window table, which the VRAM budget drops first. Do fewer slots with every table prove
# faster than the automatic four with B2's table dropped? batch_prove 2^24 x32, live and presynthesized, every
# proof verified, with --device-slots 4 (the automatic count), 3 and 2, keys from one cache.
set -u
out=${1:?OUT}
start=$SECONDS
export LD_LIBRARY_PATH=$PWD/stage-final/lib
bin=$PWD/stage-final/bin
mkdir -p "$out/c1" /tmp/kc
nvidia-smi --query-gpu=name,memory.total,memory.used --format=csv > "$out/c1/gpu.txt" 2>&1
for slots in 4 2 3; do
  "$bin/batch_prove" --synthetic 24 --count 32 --mode pinned,pinned:pre --verify --no-progress \
    --device-slots $slots --key-cache /tmp/kc --report "$out/c1/rows24_s$slots.json" > "$out/c1/rows24_s$slots.log" 2>&1
  echo "slots $slots rc=$? $(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' "$out/c1/rows24_s$slots.log" | tr '\n' ' ')" \
    "$(grep -o 'holds MSM tables for [0-9] of' "$out/c1/rows24_s$slots.log" | head -1) t=$((SECONDS - start))"
done
for slots in 4 2; do
  [ $((SECONDS - start)) -lt 450 ] || { echo "skip repeat $slots"; continue; }
  "$bin/batch_prove" --synthetic 24 --count 32 --mode pinned --verify --no-progress \
    --device-slots $slots --key-cache /tmp/kc --report "$out/c1/rows24_s${slots}_again.json" \
    > "$out/c1/rows24_s${slots}_again.log" 2>&1
  echo "again slots $slots rc=$? $(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' "$out/c1/rows24_s${slots}_again.log")" \
    "t=$((SECONDS - start))"
done
cd "$out" && tar czf c1.tgz c1 && rm -rf c1
