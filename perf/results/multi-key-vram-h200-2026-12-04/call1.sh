#!/usr/bin/env bash
# Call 1: the whole GPU suite on the build that opened this work, then two keys whose MSM tables do not fit one
# GPU's VRAM budget together (2^22 rows, --vram-budget 48 GiB), jobs of both alternating, every proof verified:
# how often is an SRS uploaded (and its tables built) again inside the batch?
set -u
out=${1:?OUT}
start=$SECONDS
export LD_LIBRARY_PATH=$PWD/stage/lib
bin=$PWD/stage/bin
mkdir -p "$out/c1" /tmp/kc
nvidia-smi --query-gpu=name,memory.total,memory.used --format=csv > "$out/c1/gpu.txt" 2>&1
timeout 420 "$bin/proofline_gpu_tests" > "$out/c1/gpu_tests.log" 2>&1
echo "gpu tests rc=$? $(grep -E '^\[doctest\] (test cases|assertions)' "$out/c1/gpu_tests.log" | tr '\n' ' ') t=$((SECONDS - start))"
timeout 120 "$bin/batch_prove" --synthetic 22 --keys 2 --count 16 --mode pinned --verify --no-progress --log-level info \
  --vram-budget 48GiB --key-cache /tmp/kc --report "$out/c1/two_keys22.json" > "$out/c1/two_keys22.log" 2>&1
echo "two keys 2^22 rc=$? $(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' "$out/c1/two_keys22.log")" \
  "$(grep -o 'srs_loads_in_batch [0-9.]*' "$out/c1/two_keys22.log") t=$((SECONDS - start))"
cd "$out" && tar czf c1.tgz c1 && rm -rf c1
