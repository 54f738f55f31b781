#!/usr/bin/env bash
# Call 2 (same build as call 1): 2^20 x256, and the variants call 1 did not reach in its second round.
# Writes $OUT/call.tgz.
set -u
out=${1:?OUT}
limit=${2:-560}
R=$(mktemp -d)
start=$SECONDS
tar xJf stage_exp/bins.txz -C /tmp  # /tmp/exp/stage
cp /tmp/exp/stage/COMMIT "$R/COMMIT"
nvidia-smi >"$R/gpu.txt" 2>&1
finish() { tar czf "$out/call.tgz" -C "$R" .; }
trap finish EXIT
prove() {  # name, env assignments (or -), then batch_prove's arguments
  local name=$1 vars=$2
  shift 2
  [ $((SECONDS - start)) -lt $((limit - 40)) ] || { echo "skip $name"; return; }
  [ "$vars" = - ] && vars=
  timeout 60 env LD_LIBRARY_PATH=/tmp/exp/stage/lib $vars /tmp/exp/stage/bin/batch_prove --verify --no-progress \
    --log-level info --mode pinned:pre --report "$R/$name.json" "$@" >"$R/$name.log" 2>&1
  echo "$name rc=$? $(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' "$R/$name.log") t=$((SECONDS - start))"
}
prove bn16_t14_2 PROOFLINE_EXP_ACC_THREADS=16384 --curve bn254 --synthetic 16 --count 2000
prove bls12_t15_2 PROOFLINE_EXP_ACC_THREADS=32768 --synthetic 12 --count 4000
prove bls16_t15_2 PROOFLINE_EXP_ACC_THREADS=32768 --synthetic 16 --count 2000
prove bn16_t15_2 PROOFLINE_EXP_ACC_THREADS=32768 --curve bn254 --synthetic 16 --count 2000
prove bls18_t15_2 PROOFLINE_EXP_ACC_THREADS=32768 --synthetic 18 --count 800
variants=("base -" "t16 PROOFLINE_EXP_ACC_THREADS=65536" "t15 PROOFLINE_EXP_ACC_THREADS=32768" "m64 PROOFLINE_EXP_MIN_CHUNK=64")
for round in 1 2; do
  for v in "${variants[@]}"; do
    set -- $v
    prove "bls20_${1}_$round" "$2" --synthetic 20 --count 256
  done
done
