#!/usr/bin/env bash
# Call 3: after a key is removed the others take their tables back, and the GPU's memory plan reaches the
# report after shutdown. The pipeline's GPU cases; call 1's two 2^22 keys again (the summary's vram line);
# three 2^24 keys with jobs in turn, all resident at once. Every proof verified.
set -u
out=${1:?OUT}
start=$SECONDS
export LD_LIBRARY_PATH=$PWD/stage/lib
bin=$PWD/stage/bin
mkdir -p "$out/c3" /tmp/kc
timeout 300 "$bin/proofline_gpu_tests" -tc='pipeline/gpu/*' > "$out/c3/pipeline_tests.log" 2>&1
echo "pipeline tests rc=$? $(grep -E '^\[doctest\] (test cases|assertions)' "$out/c3/pipeline_tests.log" | tr '\n' ' ') t=$((SECONDS - start))"
run() {  # name, options
  local name=$1; shift
  timeout 300 "$bin/batch_prove" --mode pinned --verify --no-progress --log-level info --key-cache /tmp/kc \
    --report "$out/c3/$name.json" "$@" > "$out/c3/$name.log" 2>&1
  echo "$name rc=$? $(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' "$out/c3/$name.log")" \
    "$(grep -o 'srs_loads_in_batch [0-9.]*' "$out/c3/$name.log") $(grep '^vram' "$out/c3/$name.log") t=$((SECONDS - start))"
}
run two_keys22 --synthetic 22 --keys 2 --count 16 --vram-budget 48GiB
run three_keys24 --synthetic 24 --keys 3 --count 24
cd "$out" && tar czf c3.tgz c3 && rm -rf c3
