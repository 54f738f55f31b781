#!/usr/bin/env bash
# The --h2d-probe's pinned rate now that it pins its source through the pool's backend (cudaHostRegister on
# a GPU machine) instead of cudaHostAlloc: three batch_prove runs of 2^22 x16, every proof verified.
set -u
out=${1:?OUT} name=${2:?name}
mkdir -p /tmp/x && tar xJf stage/bins.txz -C /tmp/x
export LD_LIBRARY_PATH=/tmp/x/stage/lib
mkdir -p "$out/$name" /tmp/kc
for run in 1 2 3; do
  timeout 120 /tmp/x/stage/bin/batch_prove --verify --no-progress --key-cache /tmp/kc --mode pinned --h2d-probe \
    --synthetic 22 --count 16 --report "$out/$name/b22-$run.json" >"$out/$name/b22-$run.log" 2>&1
  echo "run $run rc=$? $(grep -h 'H2D probe' "$out/$name/b22-$run.log")"
done
cat /tmp/x/stage/COMMIT
