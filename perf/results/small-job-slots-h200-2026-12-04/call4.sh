#!/usr/bin/env bash
# Device slots for small jobs: batch_prove on synthetic circuits of 2^8, 2^12 and 2^16 rows (BLS12-381, and
# BN254 at 2^12), every proof verified, with 8 device slots (what automatic sizing gives them now), 16, 32
# and 64, in two rounds (slot counts alternating) so that drift shows.
set -u
out=${1:?OUT}
start=$SECONDS
mkdir -p /tmp/x && tar xJf stage/bins.txz -C /tmp/x
export LD_LIBRARY_PATH=/tmp/x/st/lib
bin=/tmp/x/st/bin
w=/tmp/c4; mkdir -p $w /tmp/kc
for round in 1 2; do
  for size in 8:4000:bls12-381 12:4000:bls12-381 12:4000:bn254 16:2000:bls12-381; do
    IFS=: read -r log_n count curve <<< "$size"
    for slots in 8 16 32 64; do
      f=$w/r${round}_${log_n}_${curve}_s${slots}
      timeout 90 $bin/batch_prove --no-progress --verify --synthetic $log_n --count $count --curve $curve \
        --device-slots $slots --key-cache /tmp/kc --report $f.json > $f.log 2>&1
      echo "round $round 2^$log_n $curve slots $slots rc=$? $(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' $f.log) $(grep -o 'busy [0-9.]*% of the steady state' $f.log) t=$((SECONDS - start))"
    done
  done
done
cd /tmp && tar czf "$out/c4.tgz" c4
