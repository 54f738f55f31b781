#!/usr/bin/env bash
# Call 2: keys share VRAM. The new GPU case and the pipeline's GPU cases; call 1's two 2^22 keys under a
# 48 GiB budget again; two 2^24 keys with jobs alternating (both resident, tables shared) beside one 2^24 key
# in the same call. Every proof verified.
set -u
out=${1:?OUT}
start=$SECONDS
export LD_LIBRARY_PATH=$PWD/stage/lib
bin=$PWD/stage/bin
mkdir -p "$out/c2" /tmp/kc
timeout 300 "$bin/proofline_gpu_tests" -tc='pipeline/gpu/*' > "$out/c2/pipeline_tests.log" 2>&1
echo "pipeline tests rc=$? $(grep -E '^\[doctest\] (test cases|assertions)' "$out/c2/pipeline_tests.log" | tr '\n' ' ') t=$((SECONDS - start))"
run() {  # name, options
  local name=$1; shift
  timeout 200 "$bin/batch_prove" --mode pinned --verify --no-progress --log-level info --key-cache /tmp/kc \
    --report "$out/c2/$name.json" "$@" > "$out/c2/$name.log" 2>&1
  echo "$name rc=$? $(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' "$out/c2/$name.log")" \
    "$(grep -o 'srs_loads_in_batch [0-9.]*' "$out/c2/$name.log") t=$((SECONDS - start))"
}
run two_keys22 --synthetic 22 --keys 2 --count 16 --vram-budget 48GiB
run two_keys24 --synthetic 24 --keys 2 --count 16
run one_key24 --synthetic 24 --count 16
run two_keys24_again --synthetic 24 --keys 2 --count 16
cd "$out" && tar czf c2.tgz c2 && rm -rf c2
