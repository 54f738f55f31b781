#!/usr/bin/env bash
# Call 4: main (main/stage in stage_both/bins.txz: the direct sort everywhere) against the candidate (new/stage:
# the direct sort for plain MSMs, the shared-memory tile partition for precomputed ones). bench_gpu_msm's table
# section at 2^24, the two alternating, two rounds; batch_prove 2^22 x48 and 2^20 x256 presynthesized with
# each; then the candidate's whole GPU suite in the time left. Writes $OUT/call.tgz.
set -u
out=${1:?OUT}
limit=${2:-540}
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
for round in 1 2; do
  for build in main new; do
    [ $((SECONDS - start)) -lt $((limit * 30 / 100)) ] || { echo "skip bench $build $round"; continue; }
    run $build 60 bench_gpu_msm --sections table --sizes 24 --seed 7 \
      --json "$R/msm_${build}_$round.json" >"$R/msm_${build}_$round.txt" 2>&1
    echo "bench $build round $round rc=$? t=$((SECONDS - start))"
  done
done
for size_count in 22:48 20:256; do
  size=${size_count%:*} count=${size_count#*:}
  for build in main new; do
    [ $((SECONDS - start)) -lt $((limit * 50 / 100)) ] || { echo "skip batch $build $size"; continue; }
    run $build 90 batch_prove --verify --no-progress --log-level info --mode pinned:pre \
      --synthetic "$size" --count "$count" --report "$R/b${size}_$build.json" >"$R/b${size}_$build.log" 2>&1
    echo "b$size $build rc=$? $(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' "$R/b${size}_$build.log") t=$((SECONDS - start))"
  done
done
left=$((limit - 15 - (SECONDS - start)))
run new $left proofline_gpu_tests >"$R/gpu_tests.log" 2>&1
echo "gpu tests (new) rc=$? $(tail -3 "$R/gpu_tests.log" | head -2 | tr '\n' ' ') t=$((SECONDS - start))"
tar czf "$out/call.tgz" -C "$R" .
