#!/usr/bin/env bash
# Call 1: one experimental build (main plus exp.patch: the MSM tables' order and the small-MSM chunk rule's
# two constants read from the environment), variants alternating, two rounds:
#  - 2^24 x48: MSM tables of H, A, B1 (the order today) against H, B2 (PLX_TABLE_ORDER=h,b2,a,b1,l), the
#    same bytes on an 80 GB card;
#  - 2^14 x3000: the chunk rule's thread floor 2^15 (today) against 2^14 and 2^13;
#  - 2^19 x400: today's rule against the rule before it (PLX_SMALL_CHUNK=8).
# Writes $OUT/call.tgz.
set -u
out=${1:?OUT}
limit=${2:-570}
R=$(mktemp -d)
start=$SECONDS
tar xJf stage_exp34/bins.txz -C /tmp
cp /tmp/exp34/stage/COMMIT /tmp/exp34/stage/exp.patch "$R/"
nvidia-smi >"$R/gpu.txt" 2>&1
finish() { tar czf "$out/call.tgz" -C "$R" .; }
trap finish EXIT
prove() {  # name, then env assignments and batch_prove's arguments
  local name=$1
  shift
  [ $((SECONDS - start)) -lt $((limit - 70)) ] || { echo "skip $name"; return; }
  timeout 90 env LD_LIBRARY_PATH=/tmp/exp34/stage/lib "$@" --verify --no-progress --log-level info \
    --mode pinned:pre --report "$R/$name.json" >"$R/$name.log" 2>&1
  echo "$name rc=$? $(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' "$R/$name.log") t=$((SECONDS - start))"
}
bp=/tmp/exp34/stage/bin/batch_prove
for round in 1 2; do
  prove "b24_haB1_$round" $bp --synthetic 24 --count 48
  prove "b24_hB2_$round" PLX_TABLE_ORDER=h,b2,a,b1,l $bp --synthetic 24 --count 48
done
for round in 1 2; do
  prove "b14_t15_$round" $bp --synthetic 14 --count 3000
  prove "b14_t14_$round" PLX_SMALL_THREADS=16384 $bp --synthetic 14 --count 3000
  prove "b14_t13_$round" PLX_SMALL_THREADS=8192 $bp --synthetic 14 --count 3000
done
for round in 1 2; do
  prove "b19_new_$round" $bp --synthetic 19 --count 400
  prove "b19_old_$round" PLX_SMALL_CHUNK=8 $bp --synthetic 19 --count 400
done
grep -h "MSM tables of key" "$R"/b24_*_1.log | sort -u
