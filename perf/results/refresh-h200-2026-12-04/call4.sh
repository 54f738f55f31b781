#!/usr/bin/env bash
# Call 4: the README's batches on the session's build (L's shared sort, keys in use that drain): BLS12-381
# 2^24 x32 live and presynthesized in one process, BN254 2^22 x48 and 2^24 x16 likewise, BLS12-381 2^22 x48
# live; then 2^20 x768 presynthesized with the automatic 8 device slots, 12 and 16. Every proof verified.
set -u
out=${1:?OUT}
start=$SECONDS
mkdir -p /tmp/st && tar xJf stage/bins.txz -C /tmp/st
export LD_LIBRARY_PATH=/tmp/st/lib
mkdir -p "$out/c4" /tmp/kc
run() {  # name, seconds, options
  local name=$1 limit=$2; shift 2
  timeout "$limit" /tmp/st/bin/batch_prove --verify --no-progress --log-level info --key-cache /tmp/kc \
    --report "$out/c4/$name.json" "$@" > "$out/c4/$name.log" 2>&1
  echo "$name rc=$? $(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' "$out/c4/$name.log" | tr '\n' ' ') t=$((SECONDS - start))"
}
run bls24 200 --synthetic 24 --count 32 --mode pinned,pinned:pre
run bn22 90 --curve bn254 --synthetic 22 --count 48 --mode pinned,pinned:pre
run bn24 120 --curve bn254 --synthetic 24 --count 16 --mode pinned,pinned:pre
run bls22 60 --synthetic 22 --count 48 --mode pinned
run bls20_auto 60 --synthetic 20 --count 768 --mode pinned:pre
run bls20_12 60 --synthetic 20 --count 768 --mode pinned:pre --device-slots 12
run bls20_16 60 --synthetic 20 --count 768 --mode pinned:pre --device-slots 16
cd "$out" && tar czf c4.tgz c4 && rm -rf c4
