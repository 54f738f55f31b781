#!/usr/bin/env bash
# Call 3: presynthesized runs now register their keys without the GPU's evaluation (their jobs bring a, b, c),
# so the pool is prewarmed with the slots the jobs lease and the timed batch pins nothing. batch_prove 2^24
# x32 live then presynthesized (automatic plan), twice; 2^20 x768 presynthesized, twice; every proof verified.
set -u
out=${1:?OUT}
start=$SECONDS
export LD_LIBRARY_PATH=$PWD/stage/lib
bin=$PWD/stage/bin
mkdir -p "$out/c3" /tmp/kc
run() {  # name, log2, count, modes
  local name=$1 log2=$2 count=$3 modes=$4
  "$bin/batch_prove" --synthetic "$log2" --count "$count" --mode "$modes" --verify --no-progress --log-level info \
    --key-cache /tmp/kc --report "$out/c3/$name.json" > "$out/c3/$name.log" 2>&1
  echo "$name rc=$? $(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' "$out/c3/$name.log" | tr '\n' ' ')" \
    "$(grep -o '[0-9]* pin calls ([0-9]* after' "$out/c3/$name.log" | tr '\n' ' ')" \
    "$(grep -o '[0-9]* device slots of [0-9.]* [GM]iB' "$out/c3/$name.log" | head -1) t=$((SECONDS - start))"
}
run rows24_a 24 32 pinned,pinned:pre
run rows24_b 24 32 pinned,pinned:pre
run rows20_a 20 768 pinned:pre
run rows20_b 20 768 pinned:pre
cd "$out" && tar czf c3.tgz c3 && rm -rf c3
