#!/usr/bin/env bash
# Call 2: BLS12-381 Fr's reduction rows with and without the low-limb shortcut (r mod 2^64 = 2^64 - 2^32 + 1
# lets a row skip its quotient multiplication and two products, at the price of serial ALU work).
#   main: main as it is (shortcut on); ns: the shortcut off (the plain rows BN254's fields use). Same call:
#   the product probe (Fr both ways), the GPU suite's Fr, NTT, H and R1CS cases on ns, bench_gpu ntt and h at
#   2^20-2^24 for both builds (alternating), batch_prove 2^20 x768 presynthesized for both.
set -u
out=${1:?OUT}
start=$SECONDS
export LD_LIBRARY_PATH=$PWD/stage/lib
mkdir -p "$out/c2" /tmp/kc
for v in main ns; do mkdir -p /tmp/$v && tar xJf stage/bins-$v.txz -C /tmp/$v; done
stage/fp_mul_probe > "$out/c2/probe.txt" 2>&1
echo "probe rc=$? t=$((SECONDS - start))"; grep -E "bls-fr|fr-plain|bn-fp" "$out/c2/probe.txt"
timeout 240 /tmp/ns/bin/proofline_gpu_tests -tc='gpu/arith/*,gpu/ntt/*,pipeline/gpu/evaluate/*' \
  > "$out/c2/gpu_tests_ns.log" 2>&1
echo "gpu tests ns rc=$? $(tail -3 "$out/c2/gpu_tests_ns.log" | head -2 | tr '\n' ' ') t=$((SECONDS - start))"
for run in main:1 ns:1 main:2 ns:2; do
  v=${run%%:*}; i=${run##*:}
  /tmp/$v/bin/bench_gpu --sections probe,ntt,h --sizes 20,22,24 --top-diagonals \
    --json "$out/c2/ntt_${v}_$i.json" > "$out/c2/ntt_${v}_$i.txt" 2>&1
  echo "bench $run rc=$? t=$((SECONDS - start))"
done
for v in main ns main ns; do
  [ $((SECONDS - start)) -lt 500 ] || { echo "skip batch $v"; continue; }
  /tmp/$v/bin/batch_prove --synthetic 20 --count 768 --mode pinned:pre --verify --no-progress \
    --key-cache /tmp/kc --report "$out/c2/rows20_$v.json" >> "$out/c2/rows20_$v.log" 2>&1
  echo "batch $v rc=$? $(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' "$out/c2/rows20_$v.log" | tail -1) t=$((SECONDS - start))"
done
cd "$out" && tar czf c2.tgz c2 && rm -rf c2
