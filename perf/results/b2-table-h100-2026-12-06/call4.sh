#!/usr/bin/env bash
# Call 4: the chunk rule with half a deep bucket's entries ("new", main plus call4/new.patch) against main's
# rule (the build of call 1 without its variables, "base"), alternating, two rounds, at 2^13 and 2^14 rows
# (the only sizes whose synthetic jobs it plans differently), BLS12-381 and BN254; then the GPU suite's MSM
# cases on the new build while time is left. Writes $OUT/call.tgz.
set -u
out=${1:?OUT}
limit=${2:-380}
R=$(mktemp -d)
start=$SECONDS
tar xJf stage_exp34/bins.txz -C /tmp  # /tmp/exp34/stage (base) and /tmp/new34b/stage (new)
cp /tmp/new34b/stage/COMMIT "$R/COMMIT_new"
cp /tmp/new34b/stage/uncommitted.patch "$R/new.patch"
nvidia-smi >"$R/gpu.txt" 2>&1
finish() { tar czf "$out/call.tgz" -C "$R" .; }
trap finish EXIT
prove() {  # name, build (exp34 | new34b), then batch_prove's arguments
  local name=$1 build=$2
  shift 2
  [ $((SECONDS - start)) -lt $((limit - 60)) ] || { echo "skip $name"; return; }
  timeout 60 env LD_LIBRARY_PATH=/tmp/$build/stage/lib /tmp/$build/stage/bin/batch_prove --verify --no-progress \
    --log-level info --mode pinned:pre --report "$R/$name.json" "$@" >"$R/$name.log" 2>&1
  echo "$name rc=$? $(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' "$R/$name.log") t=$((SECONDS - start))"
}
for round in 1 2; do
  for b in "base exp34" "new new34b"; do
    set -- $b
    prove "bls13_${1}_$round" $2 --synthetic 13 --count 3000
    prove "bls14_${1}_$round" $2 --synthetic 14 --count 3000
    prove "bn14_${1}_$round" $2 --curve bn254 --synthetic 14 --count 3000
  done
done
left=$((limit - (SECONDS - start) - 10))
timeout $left env LD_LIBRARY_PATH=/tmp/new34b/stage/lib /tmp/new34b/stage/bin/proofline_gpu_tests \
  -tc='gpu/msm*,gpu/bn254/*MSM*' >"$R/gpu_tests.log" 2>&1
echo "gpu tests rc=$? $(tail -3 "$R/gpu_tests.log" | head -2 | tr '\n' ' ') t=$((SECONDS - start))"
