#!/usr/bin/env bash
# Call 3: how many device slots 2^20-row jobs want on an 80 GB card. The automatic plan takes 8 slots for small
# jobs only where they fit in a 16th of the VRAM budget, so this H100 (74.7 GiB) gets 4. batch_prove 2^20 x256
# presynthesized with the new build: automatic (4), 6 and 8 slots, alternating, two rounds. Writes $OUT/call.tgz.
set -u
out=${1:?OUT}
limit=${2:-300}
R=$(mktemp -d)
start=$SECONDS
tar xJf stage_both/bins.txz -C /tmp  # main/stage and new/stage
cp /tmp/new/stage/COMMIT "$R/COMMIT_new"
nvidia-smi >"$R/gpu.txt" 2>&1
run() {  # seconds, then the binary and its arguments
  local seconds=$1 bin=$2
  shift 2
  timeout "$seconds" env LD_LIBRARY_PATH=/tmp/new/stage/lib "/tmp/new/stage/bin/$bin" "$@"
}
finish() { tar czf "$out/call.tgz" -C "$R" .; }
trap finish EXIT
for round in 1 2; do
  for slots in 0 6 8; do
    [ $((SECONDS - start)) -lt $((limit - 40)) ] || { echo "skip $slots $round"; continue; }
    run 40 batch_prove --verify --no-progress --log-level info --mode pinned:pre --device-slots $slots \
      --synthetic 20 --count 256 --report "$R/b20_s${slots}_$round.json" >"$R/b20_s${slots}_$round.log" 2>&1
    echo "b20 slots=$slots round $round rc=$? $(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' "$R/b20_s${slots}_$round.log") t=$((SECONDS - start))"
  done
done
