#!/usr/bin/env bash
# Call 2: three sorts in the experiment build, selected by PL_EXPERIMENT_SORT: direct (the earlier sort),
# runs (call 1's partition, each thread writing its entries into its block's runs), tile (the partition
# through the block's shared buffer, the build's default). bench_gpu_msm's table section at 2^22 and 2^24,
# the three alternating, two rounds, same seed; the GPU suite's MSM cases and two pipeline
# cases on tile;
# batch_prove 2^24 x32 presynthesized with tile and direct as time allows. Writes $OUT/call.tgz.
set -u
out=${1:?OUT}
limit=${2:-600}
mkdir -p /tmp/x && tar xJf stage/bins.txz -C /tmp/x
export LD_LIBRARY_PATH=/tmp/x/stage/lib
B=/tmp/x/stage/bin
R=$(mktemp -d)
start=$SECONDS
nvidia-smi >"$R/gpu.txt" 2>&1
cp /tmp/x/stage/COMMIT "$R/"
for round in 1 2; do
  for sort in direct runs tile; do
    [ $((SECONDS - start)) -lt $((limit * 48 / 100)) ] || { echo "skip $sort $round"; continue; }
    PL_EXPERIMENT_SORT=$sort timeout $((limit * 15 / 100)) $B/bench_gpu_msm --sections table --sizes ${SIZES:-22,24} \
      --seed 7 --json "$R/msm_${sort}_$round.json" >"$R/msm_${sort}_$round.txt" 2>&1
    echo "$sort round $round rc=$? t=$((SECONDS - start))"
  done
done
timeout $((limit * 75 / 100 - (SECONDS - start))) $B/proofline_gpu_tests \
  -tc='*msm*,*MSM*,pipeline/gpu/the CUDA backend*,pipeline/gpu/bn254/keys of both*' >"$R/gpu_tests.log" 2>&1
echo "gpu tests rc=$? $(tail -3 "$R/gpu_tests.log" | head -2 | tr '\n' ' ') t=$((SECONDS - start))"
mkdir -p /tmp/kc
for sort in tile direct; do
  [ $((SECONDS - start)) -lt $((limit * 78 / 100)) ] || { echo "skip batch $sort"; continue; }
  PL_EXPERIMENT_SORT=$sort timeout $((limit * 95 / 100 - (SECONDS - start))) $B/batch_prove --synthetic 24 \
    --count 32 --mode pinned:pre --verify --no-progress --key-cache /tmp/kc \
    --report "$R/rows24_$sort.json" >"$R/rows24_$sort.log" 2>&1
  echo "b24 $sort rc=$? $(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' "$R/rows24_$sort.log" | tail -1) t=$((SECONDS - start))"
done
tar czf "$out/call.tgz" -C "$R" .
