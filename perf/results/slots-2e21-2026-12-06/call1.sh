#!/usr/bin/env bash
# Call 1: 2^21-row jobs, presynthesized, every proof verified: the device slots the pipeline picks by itself
# against 4 and 8 forced, alternating, two rounds; then 2^20 x256 automatic as a reference for the card.
# Writes $OUT/call.tgz.
set -u
out=${1:?OUT}
limit=${2:-560}
R=$(mktemp -d)
start=$SECONDS
tar xJf stage_s33/bins.txz -C /tmp  # /tmp/s33/stage
cp /tmp/s33/stage/COMMIT "$R/COMMIT"
nvidia-smi >"$R/gpu.txt" 2>&1
finish() { tar czf "$out/call.tgz" -C "$R" .; }
trap finish EXIT
prove() {  # name, then batch_prove's arguments
  local name=$1
  shift
  [ $((SECONDS - start)) -lt $((limit - 60)) ] || { echo "skip $name"; return; }
  timeout 90 env LD_LIBRARY_PATH=/tmp/s33/stage/lib /tmp/s33/stage/bin/batch_prove --verify --no-progress \
    --log-level info --mode pinned:pre --report "$R/$name.json" "$@" >"$R/$name.log" 2>&1
  echo "$name rc=$? $(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' "$R/$name.log") $(grep -o '[0-9]* device slots[^,]*' "$R/$name.log" | head -1) t=$((SECONDS - start))"
}
for round in 1 2; do
  prove "b21_auto_$round" --synthetic 21 --count 160
  for slots in 4 8; do prove "b21_s${slots}_$round" --synthetic 21 --count 160 --device-slots $slots; done
done
prove b20_auto --synthetic 20 --count 256
