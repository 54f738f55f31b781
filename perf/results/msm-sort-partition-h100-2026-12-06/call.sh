#!/usr/bin/env bash
# Call 1: in the experiment build (sort-experiment.patch as it was then) where PL_EXPERIMENT_DIRECT_SCATTER=1
# selects the earlier sort (one scattered write per entry, in passes over magnitude ranges), the partitioned
# sort against it: bench_gpu_msm's table section at 2^22 and 2^24, the two sorts alternating, two rounds, same
# seed (every row checked against the closed form); the GPU suite on the partitioned sort (all but the
# failover cases); then batch_prove, 32 presynthesized jobs of 2^24 rows (BLS12-381, every proof verified),
# once with each sort, as time allows. Writes $OUT/call.tgz.
set -u
out=${1:?OUT}
limit=${2:-600}  # seconds this call may take: each part stops in time for the archive
mkdir -p /tmp/x && tar xJf stage/bins.txz -C /tmp/x
export LD_LIBRARY_PATH=/tmp/x/stage/lib
B=/tmp/x/stage/bin
R=$(mktemp -d)
start=$SECONDS
nvidia-smi >"$R/gpu.txt" 2>&1
cp /tmp/x/stage/COMMIT "$R/"
for round in 1 2; do
  for sort in direct partition; do
    flag=0; [ $sort = direct ] && flag=1
    [ $((SECONDS - start)) -lt $((limit * 25 / 100)) ] || { echo "skip $sort $round"; continue; }
    PL_EXPERIMENT_DIRECT_SCATTER=$flag timeout $((limit * 20 / 100)) $B/bench_gpu_msm --sections table --sizes 22,24 \
      --seed 7 --json "$R/msm_${sort}_$round.json" >"$R/msm_${sort}_$round.txt" 2>&1
    echo "$sort round $round rc=$? t=$((SECONDS - start))"
  done
done
timeout $((limit * 60 / 100 - (SECONDS - start))) $B/proofline_gpu_tests -tce='*failover*' >"$R/gpu_tests.log" 2>&1
echo "gpu tests rc=$? $(tail -3 "$R/gpu_tests.log" | head -2 | tr '\n' ' ') t=$((SECONDS - start))"
mkdir -p /tmp/kc
for sort in partition direct; do
  flag=0; [ $sort = direct ] && flag=1
  [ $((SECONDS - start)) -lt $((limit * 65 / 100)) ] || { echo "skip batch $sort"; continue; }
  PL_EXPERIMENT_DIRECT_SCATTER=$flag timeout $((limit * 92 / 100 - (SECONDS - start))) $B/batch_prove --synthetic 24 \
    --count 32 --mode pinned:pre --verify --no-progress --key-cache /tmp/kc \
    --report "$R/rows24_$sort.json" >"$R/rows24_$sort.log" 2>&1
  echo "b24 $sort rc=$? $(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' "$R/rows24_$sort.log" | tail -1) t=$((SECONDS - start))"
done
tar czf "$out/call.tgz" -C "$R" .
