#!/usr/bin/env bash
# Call 3 (short, the device time left was short): the earlier sort (direct) against the partition through the
# block's shared buffer (tile, the experiment build's default). bench_gpu_msm's table section at 2^24, the
# two alternating, two rounds; every msm_ kernel of one plain G1 and one 20/50/30 MSM at 2^24 under ncu
# (durations, kernels serialized) with each; the GPU suite's MSM cases on tile. Writes $OUT/call.tgz.
set -u
out=${1:?OUT}
limit=${2:-300}
mkdir -p /tmp/x && tar xJf stage/bins.txz -C /tmp/x
export LD_LIBRARY_PATH=/tmp/x/stage/lib
B=/tmp/x/stage/bin
R=$(mktemp -d)
start=$SECONDS
nvidia-smi >"$R/gpu.txt" 2>&1
cp /tmp/x/stage/COMMIT "$R/"
for round in 1 2; do
  for sort in direct tile; do
    [ $((SECONDS - start)) -lt $((limit * 35 / 100)) ] || { echo "skip $sort $round"; continue; }
    PL_EXPERIMENT_SORT=$sort timeout $((limit * 15 / 100)) $B/bench_gpu_msm --sections table --sizes 24 \
      --seed 7 --json "$R/msm_${sort}_$round.json" >"$R/msm_${sort}_$round.txt" 2>&1
    echo "$sort round $round rc=$? t=$((SECONDS - start))"
  done
done
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -n 1)
for sort in direct tile; do
  [ $((SECONDS - start)) -lt $((limit * 60 / 100)) ] || { echo "skip ncu $sort"; continue; }
  PL_EXPERIMENT_SORT=$sort timeout $((limit * 12 / 100)) "$ncu" --clock-control none \
    --metrics gpu__time_duration.sum --csv -k regex:msm_ $B/bench_gpu_msm --sections g1,mix --sizes 24 \
    --runs 1 --seed 7 >"$R/ncu_$sort.csv" 2>"$R/ncu_$sort.err"
  echo "ncu $sort rc=$? lines $(wc -l <"$R/ncu_$sort.csv") t=$((SECONDS - start))"
done
PL_EXPERIMENT_SORT=tile timeout $((limit * 95 / 100 - (SECONDS - start))) $B/proofline_gpu_tests \
  -tc='*msm*,*MSM*,pipeline/gpu/the CUDA backend*' >"$R/gpu_tests.log" 2>&1
echo "gpu tests rc=$? $(tail -3 "$R/gpu_tests.log" | head -2 | tr '\n' ' ') t=$((SECONDS - start))"
tar czf "$out/call.tgz" -C "$R" .
