#!/usr/bin/env bash
# Call 4: the automatic slot plan with a 12th of the budget for small jobs. The GPU suite's automatic-slot
# cases; batch_prove 2^20 x256 presynthesized with main's build (4 automatic slots here) and the new one
# (8), alternating, two rounds; 2^22 x48 with each once. Writes $OUT/call.tgz.
set -u
out=${1:?OUT}
limit=${2:-400}
R=$(mktemp -d)
start=$SECONDS
tar xJf stage_both/bins.txz -C /tmp  # main/stage and new/stage
for build in main new; do cp "/tmp/$build/stage/COMMIT" "$R/COMMIT_$build"; done
nvidia-smi >"$R/gpu.txt" 2>&1
run() {  # build, seconds, then the binary and its arguments
  local build=$1 seconds=$2 bin=$3
  shift 3
  timeout "$seconds" env LD_LIBRARY_PATH="/tmp/$build/stage/lib" "/tmp/$build/stage/bin/$bin" "$@"
}
finish() { tar czf "$out/call.tgz" -C "$R" .; }
trap finish EXIT
run new 150 proofline_gpu_tests -tc='pipeline/gpu/automatic device slots*' >"$R/gpu_tests_slots.log" 2>&1
echo "gpu tests (slots) rc=$? $(tail -3 "$R/gpu_tests_slots.log" | head -2 | tr '\n' ' ') t=$((SECONDS - start))"
for job in 20:256:1 20:256:2 22:48:1; do
  IFS=: read -r size count round <<<"$job"
  for build in main new; do
    [ $((SECONDS - start)) -lt $((limit - 45)) ] || { echo "skip $build $size $round"; continue; }
    run $build 45 batch_prove --verify --no-progress --log-level info --mode pinned:pre \
      --synthetic "$size" --count "$count" --report "$R/b${size}_${build}_$round.json" >"$R/b${size}_${build}_$round.log" 2>&1
    echo "b$size $build round $round rc=$? $(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' "$R/b${size}_${build}_$round.log") $(grep -o '[0-9]* device slots' "$R/b${size}_${build}_$round.log" | head -1) t=$((SECONDS - start))"
  done
done
