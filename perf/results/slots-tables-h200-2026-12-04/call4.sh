#!/usr/bin/env bash
# Call 4: the headline ratio with the new plan, one process, same keys: batch_prove 2^24 x32 pinned (live),
# baseline (pageable vectors, GPU mutex; live) and pinned presynthesized, every proof verified.
set -u
out=${1:?OUT}
start=$SECONDS
export LD_LIBRARY_PATH=$PWD/stage/lib
mkdir -p "$out/c4" /tmp/kc
stage/bin/batch_prove --synthetic 24 --count 32 --mode pinned,baseline,pinned:pre --verify --no-progress \
  --log-level info --key-cache /tmp/kc --report "$out/c4/modes24.json" > "$out/c4/modes24.log" 2>&1
echo "modes rc=$? $(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' "$out/c4/modes24.log" | tr '\n' ' ') t=$((SECONDS - start))"
cd "$out" && tar czf c4.tgz c4 && rm -rf c4
