#!/usr/bin/env bash
# On the GPU machine: every unseen circuit through batch_prove with the default backend (flat output folders).
set -u
out=${1:?OUT}
export LD_LIBRARY_PATH=$PWD/stage/lib
for d in stage/unseen/*/*; do
  rel=${d#stage/unseen/}; o=$out/${rel/\//-}; mkdir -p "$o"
  stage/bin/batch_prove --no-progress --verify --zkey $d/key.zkey --wtns $d/w1.wtns $d/w2.wtns --out "$o" > "$o/log.txt" 2>&1
  echo "$rel rc=$? $(grep -o 'proofs [0-9/]* (verified [0-9]*).*' "$o/log.txt" | head -1)"
done
