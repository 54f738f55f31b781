#!/usr/bin/env bash
# Call 1: 2^27 rows per job, BLS12-381, with the device-slot plan that gives up the NTT's top table first
# (the GPU evaluating a, b, c), then the failover cases one per process.
set -u
tar xJf stage/bins.txz -C stage
export LD_LIBRARY_PATH=$PWD/stage/lib
export PROOFLINE_SNARKJS_FIXTURES=$PWD/tests/fixtures/snarkjs
( s=0; while true; do echo "$s $(free -m | grep Mem:) gpu $(nvidia-smi --query-gpu=memory.used --format=csv,noheader | head -1)"; sleep 5; s=$((s+5)); done ) > $OUT/bls27.mem.txt 2>&1 &
mon=$!
timeout 420 stage/bin/batch_prove --synthetic 27 --count 3 --verify --log-level info --report $OUT/bls27.json > $OUT/bls27.log 2>&1; echo "rc $?" >> $OUT/bls27.log
kill $mon
stage/bin/proofline_gpu_failover_tests --list-test-cases > $OUT/failover_list.txt 2>&1
grep -v "^\[doctest\]\|^====\|^$" $OUT/failover_list.txt | while IFS= read -r tc; do
  timeout 60 stage/bin/proofline_gpu_failover_tests -tc="$tc" >> $OUT/failover.log 2>&1; echo "rc $? for $tc" >> $OUT/failover.log
done
