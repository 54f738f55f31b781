#!/usr/bin/env bash
# Where the two-GPU batch loses to twice one GPU: BLS12-381 2^22 x48 (and x96) on GPU 0 and on both, live and
# presynthesized in one process, with the default synthesis concurrency (half the threads) and fewer jobs
# synthesized at once; traces and timelines of the default runs. Every proof verified.
set -u
out=${1:?OUT} name=${2:?name}
mkdir -p /tmp/x && tar xJf stage/bins.txz -C /tmp/x
export LD_LIBRARY_PATH=/tmp/x/stage/lib
mkdir -p "$out/$name" /tmp/kc
start=$SECONDS
run() {  # name, options
  local tag=$1; shift
  timeout 120 /tmp/x/stage/bin/batch_prove --verify --no-progress --log-level info --key-cache /tmp/kc \
    --synthetic 22 --mode pinned,pinned:pre --report "$out/$name/$tag.json" "$@" >"$out/$name/$tag.log" 2>&1
  echo "$tag rc=$? $(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' "$out/$name/$tag.log" | tr '\n' ' ') t=$((SECONDS - start))"
}
run one-a --count 48 --gpus 0
run two-a --count 48 --gpus 0,1 --trace "$out/$name/two-a.trace.json" --timeline "$out/$name/two-a.svg"
run two-s8 --count 48 --gpus 0,1 --synth-threads 8
run two-s4 --count 48 --gpus 0,1 --synth-threads 4
run one-s8 --count 48 --gpus 0 --synth-threads 8
run one-b --count 48 --gpus 0
run two-b --count 48 --gpus 0,1
run one-96 --count 96 --gpus 0
run two-96 --count 96 --gpus 0,1
cd "$out" && tar czf "$name.tgz" "$name" && rm -rf "$name"
