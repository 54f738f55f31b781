#!/usr/bin/env bash
# Call 5: whether 2^20-row jobs want more than eight device slots on this H100. batch_prove 2^20 x256
# presynthesized with the new build at 8, 12 and 16 slots, alternating, two rounds. Writes $OUT/call.tgz.
set -u
out=${1:?OUT}
limit=${2:-200}
R=$(mktemp -d)
start=$SECONDS
tar xJf stage_both/bins.txz -C /tmp  # main/stage and new/stage
cp /tmp/new/stage/COMMIT "$R/COMMIT_new"
nvidia-smi >"$R/gpu.txt" 2>&1
finish() { tar czf "$out/call.tgz" -C "$R" .; }
trap finish EXIT
for round in 1 2; do
  for slots in 8 12 16; do
    [ $((SECONDS - start)) -lt $((limit - 30)) ] || { echo "skip $slots $round"; continue; }
    timeout 40 env LD_LIBRARY_PATH=/tmp/new/stage/lib /tmp/new/stage/bin/batch_prove --verify --no-progress \
      --log-level info --mode pinned:pre --device-slots $slots --synthetic 20 --count 256 \
      --report "$R/b20_s${slots}_$round.json" >"$R/b20_s${slots}_$round.log" 2>&1
    echo "b20 slots=$slots round $round rc=$? $(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' "$R/b20_s${slots}_$round.log") t=$((SECONDS - start))"
  done
done
