#!/usr/bin/env bash
# Scatter passes sweep (experiment build: log2 of the passes from the environment), same seed throughout.
set -u
cd stage && tar xJf bins.txz && cd ..
export LD_LIBRARY_PATH=$PWD/stage/lib
R=$(mktemp -d)
for p in 0 2 1 3 4 0 2; do
  PL_EXPERIMENT_SCATTER_PASSES_LOG=$p stage/bin/bench_gpu_msm --sections table --sizes 24 --runs 5 --seed 7 \
    --json "$R/passes$p.$RANDOM.json" > /dev/null 2>&1 || echo "rc=$? passes=$p" >> "$R/errors.txt"
done
tar czf "$OUT/sweep.tgz" -C "$R" .
