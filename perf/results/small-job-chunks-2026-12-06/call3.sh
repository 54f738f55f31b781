#!/usr/bin/env bash
# Call 3: the rule as committed ("new": at least 32 entries a thread while 2^15 threads remain) against the
# experimental build of calls 1-2 without its variables ("base", the rule before), alternating, then the GPU
# suite's MSM cases on the new build. Writes $OUT/call.tgz.
set -u
out=${1:?OUT}
limit=${2:-560}
R=$(mktemp -d)
start=$SECONDS
tar xJf stage_exp2/bins.txz -C /tmp  # /tmp/exp/stage (base) and /tmp/new33/stage (new)
cp /tmp/exp/stage/COMMIT "$R/COMMIT_base"
cp /tmp/new33/stage/COMMIT "$R/COMMIT_new"
nvidia-smi >"$R/gpu.txt" 2>&1
finish() { tar czf "$out/call.tgz" -C "$R" .; }
trap finish EXIT
prove() {  # name, build (exp | new33), then batch_prove's arguments
  local name=$1 build=$2
  shift 2
  [ $((SECONDS - start)) -lt $((limit - 150)) ] || { echo "skip $name"; return; }
  timeout 60 env LD_LIBRARY_PATH=/tmp/$build/stage/lib /tmp/$build/stage/bin/batch_prove --verify --no-progress \
    --log-level info --mode pinned:pre --report "$R/$name.json" "$@" >"$R/$name.log" 2>&1
  echo "$name rc=$? $(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' "$R/$name.log") t=$((SECONDS - start))"
}
for round in 1 2; do
  for b in "base exp" "new new33"; do
    set -- $b
    prove "bls12_${1}_$round" $2 --synthetic 12 --count 4000
    prove "bls14_${1}_$round" $2 --synthetic 14 --count 3000
    prove "bls16_${1}_$round" $2 --synthetic 16 --count 2000
    prove "bn16_${1}_$round" $2 --curve bn254 --synthetic 16 --count 2000
  done
done
for b in "base exp" "new new33"; do
  set -- $b
  prove "bls18_${1}" $2 --synthetic 18 --count 800
done
left=$((limit - (SECONDS - start) - 10))
timeout $left env LD_LIBRARY_PATH=/tmp/new33/stage/lib /tmp/new33/stage/bin/proofline_gpu_tests -tc='gpu/msm*' \
  >"$R/gpu_msm_tests.log" 2>&1
echo "gpu msm tests rc=$? $(tail -3 "$R/gpu_msm_tests.log" | head -2 | tr '\n' ' ') t=$((SECONDS - start))"
