#!/usr/bin/env bash
# Call 2: does the driver's JIT cache serve a later run? A build with PTX only (80-virtual), as an A100/L4/RTX
# GPU would run the default build, on the H100: batch_prove BLS12-381 2^16 x 64 with an empty cache, then again
# with the cache the first run filled; if the second run compiles again, the same with CUDA_CACHE_MAXSIZE at
# 4 GiB. Then the default build's whole GPU suite, natively, in the time left. Writes $OUT/call2.tgz.
set -u
out=${1:?OUT}
limit=${2:-590}
R=$(mktemp -d)
start=$SECONDS
tar xJf stage_ptx/bins.txz -C /tmp   # /tmp/snew/stage (default code)
tar xJf stage_ptx/ptx.txz -C /tmp    # /tmp/sptx/stage (PTX only)
cp /tmp/sptx/stage/COMMIT "$R/COMMIT"
finish() { tar czf "$out/call2.tgz" -C "$R" .; }
trap finish EXIT
run() {  # name, build, seconds, then the command line (binary name first)
  local name=$1 build=$2 seconds=$3 bin=$4
  shift 4
  [ $((SECONDS - start + seconds)) -lt "$limit" ] || { echo "skip $name"; return; }
  local t0=$(date +%s%N)
  timeout "$seconds" env LD_LIBRARY_PATH=/tmp/$build/stage/lib "/tmp/$build/stage/bin/$bin" "$@" >"$R/$name.log" 2>&1
  local rc=$? t1=$(date +%s%N)
  wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", (b - a) / 1e9 }')
  echo "$name rc=$rc wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", (b - a) / 1e9 }') s" \
    "$(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' "$R/$name.log" | head -1) t=$((SECONDS - start))"
}
batch() { echo --synthetic 16 --count 64 --verify --no-progress --log-level info --mode pinned:pre "$@"; }
export CUDA_CACHE_PATH=$(mktemp -d)
run ptx_cold sptx 150 batch_prove $(batch)
echo "cache after the cold run: $(du -sh "$CUDA_CACHE_PATH" | cut -f1), $(find "$CUDA_CACHE_PATH" -type f | wc -l) files"
run ptx_warm sptx 150 batch_prove $(batch)
echo "cache after the warm run: $(du -sh "$CUDA_CACHE_PATH" | cut -f1)"
run ptx_warm2 sptx 150 batch_prove $(batch)
find "$CUDA_CACHE_PATH" -type f -printf '%s %p\n' | sort -n | tail -5 > "$R/cache_files.txt"
if [ "$wall" -gt 20 ]; then
  export CUDA_CACHE_PATH=$(mktemp -d) CUDA_CACHE_MAXSIZE=4294967296
  run ptx_cold_4g sptx 150 batch_prove $(batch)
  run ptx_warm_4g sptx 150 batch_prove $(batch)
  echo "cache (4 GiB max): $(du -sh "$CUDA_CACHE_PATH" | cut -f1)"
  unset CUDA_CACHE_MAXSIZE
fi
unset CUDA_CACHE_PATH
left=$((limit - (SECONDS - start) - 10))
run suite snew $left proofline_gpu_tests
tail -3 "$R/suite.log"
