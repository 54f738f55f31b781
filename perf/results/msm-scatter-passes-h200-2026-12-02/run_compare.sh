#!/usr/bin/env bash
# Main before the change (the *_base binaries) against the scatter in passes, alternating, same seed:
# PART=kernels: the GPU suite (all but the failover cases) on the new build, then bench_gpu_msm's table
# section at 2^22 and 2^24 twice each; PART=pipeline: batch_prove, 32 presynthesized jobs of 2^24 rows and
# 192 of 2^20, every proof verified. Everything is written to $OUT/call.tgz.
set -u
cd stage && tar xJf bins.txz && cd ..
export LD_LIBRARY_PATH=$PWD/stage/lib
B=stage/bin
R=$(mktemp -d)
nvidia-smi > "$R/gpu.txt" 2>&1
if [ "$PART" = kernels ]; then
  # The failover cases kill their GPU context: they run one per process (scripts/gpu_sanitize.sh does too).
  $B/proofline_gpu_tests -tce='*failover*' > "$R/gpu_tests.log" 2>&1
  echo "rc=$?" >> "$R/gpu_tests.log"
  for round in 1 2; do
    for build in base new; do
      bin=$B/bench_gpu_msm; [ $build = base ] && bin=$B/bench_gpu_msm_base
      $bin --sections table --sizes 22,24 --seed 7 --json "$R/table_${build}_$round.json" \
        > "$R/table_${build}_$round.txt" 2>&1
      echo "rc=$?" >> "$R/table_${build}_$round.txt"
    done
  done
else
  for round in 1 2; do
    for build in base new; do
      bin=$B/batch_prove; [ $build = base ] && bin=$B/batch_prove_base
      $bin --synthetic 24 --count 32 --mode pinned:pre --verify --report "$R/rows24_${build}_$round.json" \
        > "$R/rows24_${build}_$round.log" 2>&1
      echo "rc=$?" >> "$R/rows24_${build}_$round.log"
    done
  done
  for build in base new; do
    bin=$B/batch_prove; [ $build = base ] && bin=$B/batch_prove_base
    $bin --synthetic 20 --count 192 --mode pinned:pre --verify --report "$R/rows20_${build}.json" \
      > "$R/rows20_${build}.log" 2>&1
    echo "rc=$?" >> "$R/rows20_${build}.log"
  done
fi
tar czf "$OUT/call.tgz" -C "$R" .
