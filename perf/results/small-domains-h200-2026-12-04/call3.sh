#!/usr/bin/env bash
# Keys below 2^10 rows on the GPU. (1) The GPU cases of H (every size from 2^1 on both curves) and the
# pipeline's GPU cases (small keys of both curves and conventions among them). (2) The circuit-shape keys and
# witnesses of perf/results/circuit-shapes-2026-12-04 (staged as stage/unseen/PRIME/CIRCUIT/) through
# batch_prove with --backend cuda forced, every proof verified; the proofs come back for snarkjs.
# (3) Small synthetic batches (2^4 and 2^8 rows, 4000 jobs) on the GPU and on the 16 host cores.
set -u
out=${1:?OUT}
start=$SECONDS
mkdir -p /tmp/x && tar xJf stage/bins.txz -C /tmp/x
export LD_LIBRARY_PATH=/tmp/x/st/lib
bin=/tmp/x/st/bin
w=/tmp/c3; mkdir -p $w
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $w/gpu.txt
timeout 300 $bin/proofline_gpu_tests -tc='gpu/ntt/H*,gpu/bn254/H*,pipeline/gpu/*' > $w/gpu_tests.log 2>&1
echo "gpu tests rc=$? $(grep -E '^\[doctest\] (test cases|assertions)' $w/gpu_tests.log | tr '\n' ' ') t=$((SECONDS - start))"
for d in stage/unseen/*/*; do
  rel=${d#stage/unseen/}; o=$w/unseen/${rel/\//-}; mkdir -p "$o"
  timeout 60 $bin/batch_prove --no-progress --verify --backend cuda --zkey $d/key.zkey --wtns $d/w1.wtns $d/w2.wtns \
    --out "$o" > "$o/log.txt" 2>&1
  echo "$rel rc=$? $(grep -o 'proofs [0-9/]* (verified [0-9]*).*' "$o/log.txt" | head -1) $(grep -o '\[cuda[^]]*\]\|\[cpu[^]]*\]' "$o/log.txt" | head -1)"
done
for log_n in 4 8; do
  for backend in cuda cpu; do
    for curve in bls12-381 bn254; do
      f=$w/small_${log_n}_${backend}_${curve}
      timeout 120 $bin/batch_prove --no-progress --verify --synthetic $log_n --count 4000 --curve $curve \
        --backend $backend --report $f.json > $f.log 2>&1
      echo "2^$log_n $backend $curve rc=$? $(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' $f.log)"
    done
  done
done
echo "t=$((SECONDS - start))"
cd /tmp && tar czf "$out/c3.tgz" c3
