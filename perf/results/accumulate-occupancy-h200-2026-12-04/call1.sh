#!/usr/bin/env bash
# Call 1: the bucket accumulation's occupancy and operation order, and Montgomery product variants.
#   base: main before; va: mixed addition reordered (fewer values live), G1 accumulate at 4 blocks of 128
#   (128 registers); vb: va plus G2 at 3 blocks (168 registers, spilling). Same call: the product probe
#   (CIOS against separated schoolbook and Karatsuba products, bitwise compared), the GPU MSM tests on va,
#   bench_gpu_msm at 2^20 and 2^24, batch_prove 2^20 x768 presynthesized for each build.
set -u
out=${1:?OUT}
start=$SECONDS
export LD_LIBRARY_PATH=$PWD/stage/lib
mkdir -p "$out/c1" /tmp/kc
for v in base va vb; do mkdir -p /tmp/$v && tar xJf stage/bins-$v.txz -C /tmp/$v; done
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv > "$out/c1/gpu.txt" 2>&1
stage/fp_mul_probe > "$out/c1/probe.txt" 2>&1
echo "probe rc=$? t=$((SECONDS - start))"; cat "$out/c1/probe.txt"
timeout 200 /tmp/va/bin/proofline_gpu_tests -tc='gpu/msm*,gpu/bn254/*MSM*' > "$out/c1/gpu_tests_msm_va.log" 2>&1
echo "gpu tests va rc=$? $(tail -3 "$out/c1/gpu_tests_msm_va.log" | head -2 | tr '\n' ' ') t=$((SECONDS - start))"
for v in base va vb; do
  /tmp/$v/bin/bench_gpu_msm --sections table,shared --sizes 20,24 --runs 5 --seed 7 \
    --json "$out/c1/msm_$v.json" > "$out/c1/msm_$v.txt" 2>&1
  echo "bench $v rc=$? t=$((SECONDS - start))"
done
for v in base va vb; do
  [ $((SECONDS - start)) -lt 530 ] || { echo "skip batch $v"; continue; }
  /tmp/$v/bin/batch_prove --synthetic 20 --count 768 --mode pinned:pre --verify --no-progress \
    --key-cache /tmp/kc --report "$out/c1/rows20_$v.json" > "$out/c1/rows20_$v.log" 2>&1
  echo "batch $v rc=$? $(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' "$out/c1/rows20_$v.log") t=$((SECONDS - start))"
done
cd "$out" && tar czf c1.tgz c1 && rm -rf c1
