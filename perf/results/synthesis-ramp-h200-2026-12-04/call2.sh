#!/usr/bin/env bash
# A later build of the ramp (r2: arrival counted before the lease, a grant after a second's stall; r3: grants
# while the host is idle instead): the GPU suite's pipeline cases, then batch_prove BLS12-381 2^22 x48 and
# 2^24 x32, live and presynthesized in one process each (SIZES adds batches: "22,16:48" is 48 jobs alternating a
# 2^22 and a 2^16 key). Every proof verified.
set -u
out=${1:?OUT} name=${2:?name}
mkdir -p /tmp/x && tar xJf stage/bins.txz -C /tmp/x
export LD_LIBRARY_PATH=/tmp/x/stage/lib
mkdir -p "$out/$name" /tmp/kc
start=$SECONDS
timeout 220 /tmp/x/stage/bin/proofline_gpu_tests -tc='pipeline/gpu/*' >"$out/$name/gpu_tests.log" 2>&1
echo "gpu tests rc=$? $(tail -3 "$out/$name/gpu_tests.log" | head -2 | tr '\n' ' ') t=$((SECONDS - start))"
for size in ${SIZES:-22:48 24:32}; do
  tag=final-$(echo "${size%%:*}" | tr , _)
  timeout 150 /tmp/x/stage/bin/batch_prove --verify --no-progress --log-level info --key-cache /tmp/kc \
    --mode pinned,pinned:pre --synthetic "${size%%:*}" --count "${size##*:}" --report "$out/$name/$tag.json" \
    >"$out/$name/$tag.log" 2>&1
  echo "$tag rc=$? $(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' "$out/$name/$tag.log" | tr '\n' ' ') t=$((SECONDS - start))"
done
cd "$out" && tar czf "$name.tgz" "$name" && rm -rf "$name"
