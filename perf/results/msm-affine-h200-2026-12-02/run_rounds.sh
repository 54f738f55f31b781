#!/usr/bin/env bash
# Rounds sweep of the batch-affine accumulation (the build of batch-affine.patch, whose msm_args take the rounds
# and the threshold from the environment).
set -u
cd stage && tar xJf bins.txz && cd ..
export LD_LIBRARY_PATH=$PWD/stage/lib
R=$(mktemp -d)
for v in "0 16" "1 1" "2 1" "3 1" "8 16"; do
  set -- $v
  PL_EXPERIMENT_MAX_ROUNDS=$1 PL_EXPERIMENT_MIN_PAIRS=$2 stage/bin/bench_gpu_msm --sections table --sizes 24 --runs 3 --seed 7 \
    --json "$R/sweep_r$1_m$2.json" > "$R/sweep_r$1_m$2.txt" 2>&1
  echo "rc=$?" >> "$R/sweep_r$1_m$2.txt"
done
tar czf "$OUT/sweep.tgz" -C "$R" .
