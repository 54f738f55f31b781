#!/usr/bin/env bash
# Call 1: the default GPU code (native sm_90 plus compute_80 PTX) on the device machine.
#  1. `proofline devices` on the default build;
#  2. a build with code for sm_100 only (no code an H100 can run): `proofline devices`, batch_prove with
#     --backend auto (expected: a warning naming the GPU, proofs on the CPU), --backend cuda and --gpus 0
#     (expected: refused, exit 2);
#  3. the first run with the driver compiling the PTX (CUDA_FORCE_PTX_JIT=1, an empty CUDA_CACHE_PATH):
#     batch_prove BLS12-381 2^16 x 64, verified, wall time of the process; the same again with the cache
#     filled; then natively (no forced JIT);
#  4. GPU suite cases with the driver compiling the PTX (forced JIT, the cache of step 3), in the time left.
# Writes $OUT/call.tgz.
set -u
out=${1:?OUT}
limit=${2:-590}
R=$(mktemp -d)
start=$SECONDS
tar xJf stage_ptx/bins.txz -C /tmp  # /tmp/snew/stage (default code) and /tmp/s100/stage (sm_100 only)
cp /tmp/snew/stage/COMMIT "$R/COMMIT"
cp /tmp/snew/stage/uncommitted.patch "$R/uncommitted.patch"
nvidia-smi >"$R/gpu.txt" 2>&1
finish() { tar czf "$out/call.tgz" -C "$R" .; }
trap finish EXIT
jit=$(mktemp -d)
force_jit=0
run() {  # name, build (snew | s100), seconds, then the command line (binary name first)
  local name=$1 build=$2 seconds=$3 bin=$4
  shift 4
  [ $((SECONDS - start + seconds)) -lt "$limit" ] || { echo "skip $name"; return; }
  local t0=$(date +%s%N)
  timeout "$seconds" env LD_LIBRARY_PATH=/tmp/$build/stage/lib CUDA_FORCE_PTX_JIT=$force_jit \
    "/tmp/$build/stage/bin/$bin" "$@" >"$R/$name.log" 2>&1
  local rc=$? t1=$(date +%s%N)
  echo "$name rc=$rc wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", (b - a) / 1e9 }') s" \
    "$(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' "$R/$name.log" | head -1) t=$((SECONDS - start))"
}
batch() { echo --synthetic 16 --count 64 --verify --no-progress --log-level info --mode pinned:pre "$@"; }
run devices snew 60 proofline devices
cat "$R/devices.log"
run devices_json snew 60 proofline devices --json
run s100_devices s100 60 proofline devices
cat "$R/s100_devices.log"
run s100_auto s100 120 batch_prove --synthetic 10 --count 16 --verify --no-progress --log-level info
grep -i "warn\|proofs/s" "$R/s100_auto.log" | head -5
run s100_cuda s100 60 batch_prove --synthetic 10 --count 16 --backend cuda --no-progress
cat "$R/s100_cuda.log"
run s100_gpus s100 60 batch_prove --synthetic 10 --count 16 --gpus 0 --no-progress
cat "$R/s100_gpus.log"
export CUDA_CACHE_PATH=$jit
force_jit=1
run bls_jit_cold snew 200 batch_prove $(batch --report "$R/bls_jit_cold.json")
grep -i "PTX" "$R/bls_jit_cold.log" | head -2
echo "JIT cache after the cold run: $(du -sh "$jit" | cut -f1)"
run bls_jit_warm snew 60 batch_prove $(batch --report "$R/bls_jit_warm.json")
force_jit=0
run bls_native snew 60 batch_prove $(batch --report "$R/bls_native.json")
left=$((limit - (SECONDS - start) - 15))
force_jit=1
run gpu_tests_jit snew $left proofline_gpu_tests -tc='gpu/cuda/*,gpu/msm*,gpu/ntt*,gpu/bn254/*'
tail -4 "$R/gpu_tests_jit.log"
echo "JIT cache at the end: $(du -sh "$jit" | cut -f1)"
