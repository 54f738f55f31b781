#!/usr/bin/env bash
# Call 1: accumulate chunks for small jobs. One experimental build whose msm_chunk reads its two constants from
# the environment (PROOFLINE_EXP_ACC_THREADS, default 2^17: the threads the entries are spread over;
# PROOFLINE_EXP_MIN_CHUNK, default 8: the fewest entries a thread). batch_prove, presynthesized, verified, at
# 2^12 / 2^16 / 2^18 rows, variants alternating, two rounds. Writes $OUT/call.tgz.
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
variants=("base -" "m32 PROOFLINE_EXP_MIN_CHUNK=32" "t14 PROOFLINE_EXP_ACC_THREADS=16384" "t15 PROOFLINE_EXP_ACC_THREADS=32768")
for round in 1 2; do
  for v in "${variants[@]}"; do
    set -- $v
    name=$1 vars=$2
    prove "bls12_${name}_$round" "$vars" --synthetic 12 --count 4000
    prove "bls16_${name}_$round" "$vars" --synthetic 16 --count 2000
    prove "bn16_${name}_$round" "$vars" --curve bn254 --synthetic 16 --count 2000
    prove "bls18_${name}_$round" "$vars" --synthetic 18 --count 800
  done
done
