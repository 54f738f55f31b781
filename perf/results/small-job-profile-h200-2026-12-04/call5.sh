#!/usr/bin/env bash
# Where a small job's GPU time goes: every kernel of batch_prove runs of 2^12 and 2^16 rows (BLS12-381,
# default pinned mode) under ncu (kernels serialized, duration of each), at 2 and 6 jobs; the difference
# of the two runs is 4 jobs' kernels without the setup's (key upload, MSM tables, NTT tables).
set -u
out=${1:?OUT}
start=$SECONDS
mkdir -p /tmp/x && tar xJf stage/bins.txz -C /tmp/x
export LD_LIBRARY_PATH=/tmp/x/st/lib
bp=/tmp/x/st/bin/batch_prove
w=/tmp/c5; mkdir -p $w /tmp/kc
for log_n in 12 16; do
  $bp --synthetic $log_n --count 8 --no-progress --key-cache /tmp/kc > $w/warm_$log_n.log 2>&1  # keys made
  for count in 2 6; do
    timeout 140 ncu --clock-control none --metrics gpu__time_duration.sum --csv --log-file $w/ncu_${log_n}_x$count.csv \
      $bp --synthetic $log_n --count $count --no-progress --key-cache /tmp/kc > $w/ncu_${log_n}_x$count.log 2>&1
    echo "ncu 2^$log_n x$count rc=$? lines=$(wc -l < $w/ncu_${log_n}_x$count.csv) t=$((SECONDS - start))"
  done
done
cd /tmp && tar czf "$out/c5.tgz" c5
