#!/usr/bin/env bash
# Call 2: the committed change ("new": table levels, chunk rule's thread floor 2^14) against the experimental
# build of call 1 without its variables ("base": main's rule and table order), alternating, two rounds, at
# 2^12, 2^14 and 2^16 rows (BLS12-381, and BN254 at 2^16); then 2^24 x48 on the new build (its automatic
# table level), then the GPU suite's pipeline and MSM cases on the new build. Writes $OUT/call.tgz.
set -u
out=${1:?OUT}
limit=${2:-580}
R=$(mktemp -d)
start=$SECONDS
tar xJf stage_exp34/bins.txz -C /tmp  # /tmp/exp34/stage (base) and /tmp/new34/stage (new)
cp /tmp/exp34/stage/COMMIT "$R/COMMIT_base"
cp /tmp/new34/stage/COMMIT "$R/COMMIT_new"
cp /tmp/new34/stage/uncommitted.patch "$R/new.patch"
nvidia-smi >"$R/gpu.txt" 2>&1
finish() { tar czf "$out/call.tgz" -C "$R" .; }
trap finish EXIT
prove() {  # name, build (exp34 | new34), then batch_prove's arguments
  local name=$1 build=$2
  shift 2
  [ $((SECONDS - start)) -lt $((limit - 150)) ] || { echo "skip $name"; return; }
  timeout 90 env LD_LIBRARY_PATH=/tmp/$build/stage/lib /tmp/$build/stage/bin/batch_prove --verify --no-progress \
    --log-level info --mode pinned:pre --report "$R/$name.json" "$@" >"$R/$name.log" 2>&1
  echo "$name rc=$? $(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' "$R/$name.log") t=$((SECONDS - start))"
}
for round in 1 2; do
  for b in "base exp34" "new new34"; do
    set -- $b
    prove "bls12_${1}_$round" $2 --synthetic 12 --count 4000
    prove "bls14_${1}_$round" $2 --synthetic 14 --count 3000
    prove "bls16_${1}_$round" $2 --synthetic 16 --count 2000
    prove "bn16_${1}_$round" $2 --curve bn254 --synthetic 16 --count 2000
  done
done
prove b24_new new34 --synthetic 24 --count 48
grep -h "MSM tables" "$R/b24_new.log"
left=$((limit - (SECONDS - start) - 10))
timeout $left env LD_LIBRARY_PATH=/tmp/new34/stage/lib /tmp/new34/stage/bin/proofline_gpu_tests \
  -tc='pipeline/*,gpu/msm*,gpu/bn254/msm*' >"$R/gpu_tests.log" 2>&1
echo "gpu tests rc=$? $(tail -3 "$R/gpu_tests.log" | head -2 | tr '\n' ' ') t=$((SECONDS - start))"
