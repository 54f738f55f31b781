#!/usr/bin/env bash
# Call 2: the automatic plan now leaves room for the first key's MSM tables beside at least two slots before
# taking more slots. The pipeline's GPU cases (with the new one), then batch_prove 2^24 x32 live and
# presynthesized with the automatic plan (new) and with --device-slots 4 (what the old plan chose), the
# plan's choices logged (--log-level info), every proof verified; 2^22 x48 with the automatic plan.
set -u
out=${1:?OUT}
start=$SECONDS
export LD_LIBRARY_PATH=$PWD/stage/lib
bin=$PWD/stage/bin
mkdir -p "$out/c2" /tmp/kc
timeout 300 "$bin/proofline_gpu_tests" -tc='pipeline/gpu/*' > "$out/c2/pipeline_tests.log" 2>&1
echo "pipeline tests rc=$? $(grep -E '^\[doctest\] (test cases|assertions)' "$out/c2/pipeline_tests.log" | tr '\n' ' ') t=$((SECONDS - start))"
run24() {  # name, extra options
  local name=$1; shift
  "$bin/batch_prove" --synthetic 24 --count 32 --mode pinned,pinned:pre --verify --no-progress --log-level info \
    --key-cache /tmp/kc --report "$out/c2/rows24_$name.json" "$@" > "$out/c2/rows24_$name.log" 2>&1
  echo "2^24 $name rc=$? $(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' "$out/c2/rows24_$name.log" | tr '\n' ' ')" \
    "$(grep -o '[0-9]* device slots of [0-9.]* GiB' "$out/c2/rows24_$name.log" | head -1)" \
    "$(grep -o 'holds MSM tables for [0-9] of' "$out/c2/rows24_$name.log" | head -1) t=$((SECONDS - start))"
}
run24 auto
run24 s4 --device-slots 4
run24 auto_again
run24 s4_again --device-slots 4
if [ $((SECONDS - start)) -lt 480 ]; then
  "$bin/batch_prove" --synthetic 22 --count 48 --mode pinned --verify --no-progress --log-level info \
    --key-cache /tmp/kc --report "$out/c2/rows22_auto.json" > "$out/c2/rows22_auto.log" 2>&1
  echo "2^22 auto rc=$? $(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' "$out/c2/rows22_auto.log")" \
    "$(grep -o '[0-9]* device slots of [0-9.]* [GM]iB' "$out/c2/rows22_auto.log" | head -1) t=$((SECONDS - start))"
fi
cd "$out" && tar czf c2.tgz c2 && rm -rf c2
