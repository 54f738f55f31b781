#!/usr/bin/env bash
# Call 2: the new build's whole bench_gpu table (probe, NTT, H, BN254; top diagonals and H coset tables on,
# every row up to 2^22 checked against the CPU), its BN254 rows without the coset tables, the whole GPU suite,
# then batch_prove 2^20 x256 presynthesized with main's build and the new one again. Writes $OUT/call.tgz.
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
run new 150 bench_gpu --sizes 20,22,24,26 --top-diagonals --h-coset-tables --json "$R/all_on.json" >"$R/all_on.txt" 2>&1
echo "bench all, tables on rc=$? fails=$(grep -c FAIL "$R/all_on.txt") t=$((SECONDS - start))"
run new 60 bench_gpu --sections bn254 --sizes 20,22,24,26 --top-diagonals --json "$R/bn254_off.json" \
  >"$R/bn254_off.txt" 2>&1
echo "bench bn254, coset tables off rc=$? fails=$(grep -c FAIL "$R/bn254_off.txt") t=$((SECONDS - start))"
left=$((limit - 130 - (SECONDS - start)))
run new $left proofline_gpu_tests >"$R/gpu_tests.log" 2>&1
echo "gpu tests (new) rc=$? $(tail -3 "$R/gpu_tests.log" | head -2 | tr '\n' ' ') t=$((SECONDS - start))"
for build in main new; do
  [ $((SECONDS - start)) -lt $((limit - 45)) ] || { echo "skip batch $build"; continue; }
  run $build 45 batch_prove --verify --no-progress --log-level info --mode pinned:pre \
    --synthetic 20 --count 256 --report "$R/b20_$build.json" >"$R/b20_$build.log" 2>&1
  echo "b20 $build rc=$? $(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' "$R/b20_$build.log") t=$((SECONDS - start))"
done
