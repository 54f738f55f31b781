#!/usr/bin/env bash
# Table widths for small jobs: batch_prove 2^12 x4000 and 2^16 x2000 (BLS12-381; BN254 at 2^16), every proof
# verified, with the automatic MSM table width and narrower ones (--msm-table-bits), two rounds.
set -u
out=${1:?OUT}
start=$SECONDS
mkdir -p /tmp/x && tar xJf stage/bins.txz -C /tmp/x
export LD_LIBRARY_PATH=/tmp/x/st/lib
bp=/tmp/x/st/bin/batch_prove
w=/tmp/c6; mkdir -p $w /tmp/kc
for round in 1 2; do
  for run in 12:4000:bls12-381:auto 12:4000:bls12-381:10 12:4000:bls12-381:9 12:4000:bls12-381:8 \
             16:2000:bls12-381:auto 16:2000:bls12-381:13 16:2000:bls12-381:12 16:2000:bls12-381:11 16:2000:bls12-381:10 \
             16:2000:bn254:auto 16:2000:bn254:12 16:2000:bn254:11; do
    IFS=: read -r log_n count curve bits <<< "$run"
    opt=(); [ "$bits" = auto ] || opt=(--msm-table-bits $bits)
    f=$w/r${round}_${log_n}_${curve}_${bits}
    timeout 60 $bp --no-progress --verify --synthetic $log_n --count $count --curve $curve "${opt[@]}" \
      --key-cache /tmp/kc --log-level info --report $f.json > $f.log 2>&1
    echo "r$round 2^$log_n $curve bits $bits rc=$? $(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' $f.log) t=$((SECONDS - start))"
  done
done
grep -h "table" $w/r1_*auto.log | head -20
cd /tmp && tar czf "$out/c6.tgz" c6
