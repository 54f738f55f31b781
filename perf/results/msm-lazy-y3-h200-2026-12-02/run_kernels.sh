#!/usr/bin/env bash
# Call 1 (base field and Fp2 product differences) and call 2 (base field only): the MSM kernels before
# (bench_gpu_msm_base, main before the change) and after, alternating, the same seed (same points and
# scalars). Call 2 runs the GPU suite first. Everything is written to $OUT/call.tgz.
set -u
cd stage && tar xJf bins.txz && cd ..
export LD_LIBRARY_PATH=$PWD/stage/lib
B=stage/bin
R=$(mktemp -d)
nvidia-smi > "$R/gpu.txt" 2>&1
if [ "${WITH_TESTS:-0}" = 1 ]; then
  # The failover cases kill their GPU context: they run one per process (scripts/gpu_sanitize.sh does too).
  $B/proofline_gpu_tests -tce='*failover*' > "$R/gpu_tests.log" 2>&1
  echo "rc=$?" >> "$R/gpu_tests.log"
fi
for round in 1 2; do
  for build in base new; do
    bin=$B/bench_gpu_msm; [ $build = base ] && bin=$B/bench_gpu_msm_base
    $bin --sections table --sizes 22,24 --seed 7 --json "$R/table_${build}_$round.json" \
      > "$R/table_${build}_$round.txt" 2>&1
    echo "rc=$?" >> "$R/table_${build}_$round.txt"
  done
done
for build in base new; do
  bin=$B/bench_gpu_msm; [ $build = base ] && bin=$B/bench_gpu_msm_base
  $bin --sections shared --sizes 24 --seed 7 --json "$R/shared_${build}.json" > "$R/shared_${build}.txt" 2>&1
  echo "rc=$?" >> "$R/shared_${build}.txt"
done
tar czf "$OUT/call.tgz" -C "$R" .
