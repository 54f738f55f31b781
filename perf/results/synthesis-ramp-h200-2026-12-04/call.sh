#!/usr/bin/env bash
# One H200: the GPU suite's pipeline cases on the build with the synthesis ramp, then batch_prove with the
# ramp (batch_prove) against the same build with the ramp's floor at the full concurrency (batch_prove_fixed:
# every admitted job synthesizes at once, as before), alternating: BLS12-381 2^22 x48 two rounds, 2^24 x32
# one round, live and presynthesized in one process each. Every proof verified.
set -u
out=${1:?OUT} name=${2:?name}
mkdir -p /tmp/x && tar xJf stage/bins.txz -C /tmp/x
export LD_LIBRARY_PATH=/tmp/x/stage/lib
mkdir -p "$out/$name" /tmp/kc
start=$SECONDS
timeout 220 /tmp/x/stage/bin/proofline_gpu_tests -tc='pipeline/gpu/*' >"$out/$name/gpu_tests.log" 2>&1
echo "gpu tests rc=$? $(tail -3 "$out/$name/gpu_tests.log" | head -2 | tr '\n' ' ') t=$((SECONDS - start))"
run() {  # binary, name, options
  local binary=$1 tag=$2; shift 2
  timeout 150 "/tmp/x/stage/bin/$binary" --verify --no-progress --log-level info --key-cache /tmp/kc \
    --mode pinned,pinned:pre --report "$out/$name/$tag.json" "$@" >"$out/$name/$tag.log" 2>&1
  echo "$tag rc=$? $(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' "$out/$name/$tag.log" | tr '\n' ' ') t=$((SECONDS - start))"
}
for round in 1 2; do
  run batch_prove_fixed fixed-22-$round --synthetic 22 --count 48
  run batch_prove ramp-22-$round --synthetic 22 --count 48
done
if [ $((SECONDS - start)) -lt 330 ]; then
  run batch_prove_fixed fixed-24 --synthetic 24 --count 32
  run batch_prove ramp-24 --synthetic 24 --count 32
fi
cd "$out" && tar czf "$name.tgz" "$name" && rm -rf "$name"
