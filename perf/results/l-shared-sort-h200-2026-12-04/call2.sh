#!/usr/bin/env bash
# Call 2: L's MSM takes the witness MSMs' sorted scalars (its points on the GPU indexed like z). The pipeline's
# GPU cases and the shared-sort MSM case on the new build, then batch_prove before (batch_prove_old, main at
# the session's start) and after, alternating, every proof verified: 2^20 x768 and 2^24 x32 presynthesized.
set -u
out=${1:?OUT}
start=$SECONDS
mkdir -p /tmp/st && tar xJf stage/bins.txz -C /tmp/st  # bin/ and lib/, packed to travel
export LD_LIBRARY_PATH=/tmp/st/lib
bin=/tmp/st/bin
mkdir -p "$out/c2" /tmp/kc
timeout 300 "$bin/proofline_gpu_tests" -tc='pipeline/gpu/*,gpu/msm_shared*' > "$out/c2/tests.log" 2>&1
echo "tests rc=$? $(grep -E '^\[doctest\] (test cases|assertions)' "$out/c2/tests.log" | tr '\n' ' ') t=$((SECONDS - start))"
run() {  # binary, name, options
  local exe=$1 name=$2; shift 2
  timeout 200 "$bin/$exe" --verify --no-progress --log-level info --key-cache /tmp/kc \
    --report "$out/c2/$name.json" "$@" > "$out/c2/$name.log" 2>&1
  echo "$name rc=$? $(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' "$out/c2/$name.log" | tr '\n' ' ') t=$((SECONDS - start))"
}
run batch_prove_old rows20_old_1 --synthetic 20 --count 768 --mode pinned:pre
run batch_prove rows20_new_1 --synthetic 20 --count 768 --mode pinned:pre
run batch_prove_old rows20_old_2 --synthetic 20 --count 768 --mode pinned:pre
run batch_prove rows20_new_2 --synthetic 20 --count 768 --mode pinned:pre
run batch_prove_old rows24_old --synthetic 24 --count 32 --mode pinned:pre
run batch_prove rows24_new --synthetic 24 --count 32 --mode pinned:pre
cd "$out" && tar czf c2.tgz c2 && rm -rf c2
