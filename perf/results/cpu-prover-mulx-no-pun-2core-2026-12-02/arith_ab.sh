#!/usr/bin/env bash
# bench_cpu_arith (BLS12-381, 2^16, 1 thread) before / portable / mulx in interleaved processes, from the
# worktree root: arith_ab.sh OUT_DIR ROUNDS ("before": build-cpu/pun-src/build-cpu, the branch before the fix).
set -euo pipefail
R=$1; rounds=$2
echo "start $(date -u +%FT%TZ) $(uptime)" >> $R/load.txt
for round in $(seq 1 $rounds); do
  for v in before portable mulx; do
    dir=build-cpu; flag=1
    [ $v != before ] || dir=build-cpu/pun-src/build-cpu
    [ $v != portable ] || flag=0
    PROOFLINE_CPU_MULX=$flag $dir/perf/bench_cpu_arith --min-log 16 --max-log 16 --runs 3 --threads 1 \
      --sections h,msm_g1,msm_g2 --seed $round --json $R/$v.$round.json > $R/$v.$round.txt
    echo "$v $round $(uptime)" >> $R/load.txt
  done
done
echo "end $(date -u +%FT%TZ) $(uptime)" >> $R/load.txt
