#!/usr/bin/env bash
# The batch-affine accumulation against the XYZZ accumulation (the build of batch-affine.patch), in the same
# process (bench_gpu_msm's table section times both on the same points, scalars and tables), twice; with
# WITH_TESTS=1 the GPU suite (all but the failover cases) first, with BATCH=1 batch_prove afterwards
# (--no-msm-affine against the default); ROUNDS= (empty) leaves the kernel rounds out. Everything is written
# to $OUT/call.tgz.
set -u
cd stage && tar xJf bins.txz && cd ..
export LD_LIBRARY_PATH=$PWD/stage/lib
B=stage/bin
R=$(mktemp -d)
nvidia-smi > "$R/gpu.txt" 2>&1
if [ "${WITH_TESTS:-0}" = 1 ]; then
  # The failover cases kill their GPU context: they run one per process (scripts/gpu_sanitize.sh does too).
  $B/proofline_gpu_tests ${TESTS:--tce='*failover*'} > "$R/gpu_tests.log" 2>&1
  echo "rc=$?" >> "$R/gpu_tests.log"
fi
for round in ${ROUNDS-1 2}; do
  $B/bench_gpu_msm --sections table --sizes ${SIZES:-22,24} --seed 7 --json "$R/table_$round.json" \
    > "$R/table_$round.txt" 2>&1
  echo "rc=$?" >> "$R/table_$round.txt"
done
if [ "${BATCH:-0}" = 1 ]; then
  # Every proof verified; keys made once per process on the GPU, MSM tables on; XYZZ and affine alternate.
  for round in 1 2; do
    for affine in off on; do
      flag=""; [ $affine = off ] && flag=--no-msm-affine
      $B/batch_prove --synthetic 24 --count 32 --mode pinned:pre --verify $flag \
        --report "$R/rows24_${affine}_$round.json" > "$R/rows24_${affine}_$round.log" 2>&1
      echo "rc=$?" >> "$R/rows24_${affine}_$round.log"
    done
  done
  for affine in off on; do
    flag=""; [ $affine = off ] && flag=--no-msm-affine
    $B/batch_prove --synthetic 20 --count 192 --mode pinned:pre --verify $flag \
      --report "$R/rows20_${affine}.json" > "$R/rows20_${affine}.log" 2>&1
    echo "rc=$?" >> "$R/rows20_${affine}.log"
  done
fi
tar czf "$OUT/call.tgz" -C "$R" .
