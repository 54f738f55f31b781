#!/usr/bin/env bash
# Call 6, the new build alone: 2^20 x256 presynthesized with 8 device slots and MSM tables of 16, 17 (the
# model's) and 18-bit windows; 2^22 x48 with 4 (automatic) and 8 device slots. Alternating, two rounds.
# Writes $OUT/call.tgz.
set -u
out=${1:?OUT}
limit=${2:-300}
R=$(mktemp -d)
start=$SECONDS
tar xJf stage_both/bins.txz -C /tmp  # main/stage and new/stage
cp /tmp/new/stage/COMMIT "$R/COMMIT_new"
nvidia-smi >"$R/gpu.txt" 2>&1
finish() { tar czf "$out/call.tgz" -C "$R" .; }
trap finish EXIT
prove() {  # name, then batch_prove's arguments
  local name=$1
  shift
  [ $((SECONDS - start)) -lt $((limit - 30)) ] || { echo "skip $name"; return; }
  timeout 40 env LD_LIBRARY_PATH=/tmp/new/stage/lib /tmp/new/stage/bin/batch_prove --verify --no-progress \
    --log-level info --mode pinned:pre --report "$R/$name.json" "$@" >"$R/$name.log" 2>&1
  echo "$name rc=$? $(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' "$R/$name.log") t=$((SECONDS - start))"
}
for round in 1 2; do
  for bits in 16 17 18; do prove "b20_c${bits}_$round" --synthetic 20 --count 256 --msm-table-bits $bits; done
  for slots in 4 8; do prove "b22_s${slots}_$round" --synthetic 22 --count 48 --device-slots $slots; done
done
