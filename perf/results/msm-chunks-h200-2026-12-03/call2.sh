#!/usr/bin/env bash
# Call 2: where a 2^20 job's GPU time goes. (1) batch_prove 2^20 x 192 presynthesized with 4, 8, 6, 2 and 1
# device slots, every proof verified; (2) every kernel of the 2^20 MSM rows timed by ncu (phases.py sums them).
# Binaries: main at 3f8fe7a (perf/gpu_stage.sh batch_prove bench_gpu_msm), staged in stage/bin.
set -u
out=${1:?OUT}
export LD_LIBRARY_PATH=$PWD/stage/lib
b=stage/bin
mkdir -p "$out/c2"
for slots in 4 8 6 2 1; do
  $b/batch_prove --synthetic 20 --count 192 --presynthesize --verify --device-slots $slots \
    --report "$out/c2/rows20_slots$slots.json" > "$out/c2/rows20_slots$slots.log" 2>&1
  echo "slots $slots rc=$? $(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' "$out/c2/rows20_slots$slots.log")"
done
timeout 400 ncu --clock-control none --metrics gpu__time_duration.sum --csv \
  $b/bench_gpu_msm --sections table --sizes 20 --runs 1 --seed 7 > "$out/c2/ncu20.csv" 2> "$out/c2/ncu20.err"
echo "ncu rc=$? lines $(wc -l < "$out/c2/ncu20.csv")"
cd "$out" && tar czf c2.tgz c2 && rm -rf c2
