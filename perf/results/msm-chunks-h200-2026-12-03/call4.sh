#!/usr/bin/env bash
# Call 4: the final rules (accumulate chunks over 2^17 threads, at most 256 entries; 8 automatic device slots
# for small jobs) against main (base): MSM rows at 2^22 (2^20 and 2^24 were measured in call 3: the chunks
# there equal v17's and main's), batch_prove 2^20 x 192 and 2^22 x 48 presynthesized, every proof verified.
set -u
out=${1:?OUT}
start=$SECONDS
export LD_LIBRARY_PATH=$PWD/stage/lib
mkdir -p /tmp/b "$out/c4" && tar xJf stage/bins.txz -C /tmp/b
for v in base new; do
  /tmp/b/bench_gpu_msm_$v --sections table,shared --sizes 22 --runs 5 --seed 7 \
    --json "$out/c4/msm22_$v.json" > "$out/c4/msm22_$v.txt" 2>&1
  echo "bench $v rc=$? t=$((SECONDS - start))"
done
for run in new:20:192 base:22:48 new:22:48; do
  IFS=: read -r v log count <<< "$run"
  [ $((SECONDS - start)) -lt 200 ] || { echo "skip batch $run"; continue; }
  name=rows${log}_${v}_$((SECONDS))
  /tmp/b/batch_prove_$v --synthetic $log --count $count --presynthesize --verify --log-level info \
    --report "$out/c4/$name.json" > "$out/c4/$name.log" 2>&1
  echo "batch $run rc=$? $(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' "$out/c4/$name.log") $(grep -o '[0-9]* device slots' "$out/c4/$name.log" | head -1)"
done
cd "$out" && tar czf c4.tgz c4 && rm -rf c4
