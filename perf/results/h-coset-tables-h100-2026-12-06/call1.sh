#!/usr/bin/env bash
# Call 1: H's coset scales from full tables (new/stage) against two multiplications an element. bench_gpu's H
# rows at 2^20-2^26, top diagonals on, --h-coset-tables off and on alternating, two rounds; the GPU suite's NTT,
# BN254 and full-table pipeline cases; batch_prove 2^20 x256 presynthesized with main's build (main/stage)
# and the new one; then 2^24 x32 the same way if time is left. Writes $OUT/call.tgz.
set -u
out=${1:?OUT}
limit=${2:-560}
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
for round in 1 2; do
  for tables in off on; do
    flag=()
    [ $tables = on ] && flag=(--h-coset-tables)
    run new 90 bench_gpu --sections h --sizes 20,22,24,26 --top-diagonals "${flag[@]}" \
      --json "$R/h_${tables}_$round.json" >"$R/h_${tables}_$round.txt" 2>&1
    echo "bench h tables=$tables round $round rc=$? t=$((SECONDS - start))"
  done
done
run new 200 proofline_gpu_tests -tc='gpu/ntt*,gpu/bn254*,pipeline/gpu/the NTT*,pipeline/gpu/evaluate/automatic*' \
  >"$R/gpu_tests_ntt.log" 2>&1
echo "gpu tests (ntt, pipeline tables) rc=$? $(tail -3 "$R/gpu_tests_ntt.log" | head -2 | tr '\n' ' ') t=$((SECONDS - start))"
for size_count in 20:256 24:32; do
  size=${size_count%:*} count=${size_count#*:}
  for build in main new; do
    [ $((SECONDS - start)) -lt $((limit - 100)) ] || { echo "skip batch $build $size"; continue; }
    run $build 95 batch_prove --verify --no-progress --log-level info --mode pinned:pre \
      --synthetic "$size" --count "$count" --report "$R/b${size}_$build.json" >"$R/b${size}_$build.log" 2>&1
    echo "b$size $build rc=$? $(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' "$R/b${size}_$build.log") t=$((SECONDS - start))"
  done
done
