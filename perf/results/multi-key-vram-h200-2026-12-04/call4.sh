#!/usr/bin/env bash
# Call 4: the C ABI's pl_pipeline_gpu_stats on a GPU (bench_capi compares it with the C++ stats of a pipeline
# made alike, then times both APIs), and one 2^24 key and a 2^20 batch on the build with the VRAM sharing
# (single-key runs take the new placement path too). Every proof verified in batch_prove.
set -u
out=${1:?OUT}
start=$SECONDS
mkdir -p /tmp/st && tar xJf stage/bins.txz -C /tmp/st  # bin/ and lib/, packed to travel
export LD_LIBRARY_PATH=/tmp/st/lib
bin=/tmp/st/bin
mkdir -p "$out/c4" /tmp/kc
timeout 200 "$bin/bench_capi" --log-n 20 --count 128 --reps 3 --warmup 8 --backend cuda --key-cache /tmp/kc \
  --json "$out/c4/capi20.json" > "$out/c4/capi20.log" 2>&1
echo "bench_capi rc=$? $(grep -E 'GPU 0|overhead' "$out/c4/capi20.log" | tr '\n' ' ') t=$((SECONDS - start))"
run() {  # name, options
  local name=$1; shift
  timeout 240 "$bin/batch_prove" --verify --no-progress --log-level info --key-cache /tmp/kc \
    --report "$out/c4/$name.json" "$@" > "$out/c4/$name.log" 2>&1
  echo "$name rc=$? $(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' "$out/c4/$name.log" | tr '\n' ' ')" \
    "$(grep '^vram' "$out/c4/$name.log" | head -1) t=$((SECONDS - start))"
}
run rows24 --synthetic 24 --count 32 --mode pinned,pinned:pre
run rows20 --synthetic 20 --count 768 --mode pinned:pre
cd "$out" && tar czf c4.tgz c4 && rm -rf c4
