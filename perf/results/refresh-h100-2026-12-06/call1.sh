#!/usr/bin/env bash
# Refresh on the H200 at main's HEAD: H with and without its coset tables (2^24), the MSM tables section at
# 2^24 (G1, G2, BN254, beside sppark's recorded figures), then the README's batches: BLS12-381 2^24 x32 live
# and presynthesized, 2^20 x768 presynthesized, 2^22 x48 live, BN254 2^22 x48 and 2^24 x16, and small jobs
# 2^14 x3000 / 2^16 x2000 presynthesized. Every proof verified. Writes $OUT/call.tgz.
set -u
out=${1:?OUT}
limit=${2:-585}
R=$(mktemp -d)
start=$SECONDS
tar xJf stage_rf/bins.txz -C /tmp
S=/tmp/srf/stage
cp $S/COMMIT "$R/COMMIT"
nvidia-smi >"$R/gpu.txt" 2>&1
export LD_LIBRARY_PATH=$S/lib
finish() { tar czf "$out/call.tgz" -C "$R" .; }
trap finish EXIT
step() {  # name, seconds, then the binary and its arguments
  local name=$1 seconds=$2 bin=$3
  shift 3
  [ $((SECONDS - start + seconds)) -lt "$limit" ] || { echo "skip $name"; return; }
  timeout "$seconds" "$S/bin/$bin" "$@" >"$R/$name.log" 2>&1
  echo "$name rc=$? $(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' "$R/$name.log" | tr '\n' ' ') t=$((SECONDS - start))"
}
mkdir -p /tmp/kc
batch() { echo --verify --no-progress --log-level info --key-cache /tmp/kc; }
step gpu_list 60 proofline_gpu_tests -tc='pipeline/gpu/a GPU list*,gpu/cuda/*'
tail -2 "$R/gpu_list.log"
step h_tables 60 bench_gpu --sections h --sizes 24 --top-diagonals --h-coset-tables --json "$R/h_tables.json"
step h_plain 60 bench_gpu --sections h --sizes 24 --top-diagonals --json "$R/h_plain.json"
step msm_table 150 bench_gpu_msm --sections table --sizes 24 --json "$R/msm_table.json"
step bls24 200 batch_prove $(batch) --synthetic 24 --count 32 --mode pinned,pinned:pre --report "$R/bls24.json"
step bls20 60 batch_prove $(batch) --synthetic 20 --count 768 --mode pinned:pre --report "$R/bls20.json"
step bn24 110 batch_prove $(batch) --curve bn254 --synthetic 24 --count 16 --mode pinned,pinned:pre --report "$R/bn24.json"
step bls16 45 batch_prove $(batch) --synthetic 16 --count 2000 --mode pinned:pre --report "$R/bls16.json"
step bls14 45 batch_prove $(batch) --synthetic 14 --count 3000 --mode pinned:pre --report "$R/bls14.json"
step bls22 60 batch_prove $(batch) --synthetic 22 --count 48 --mode pinned --report "$R/bls22.json"
step bn22 60 batch_prove $(batch) --curve bn254 --synthetic 22 --count 48 --mode pinned,pinned:pre --report "$R/bn22.json"
grep -h -E 'precomputed|G1 .*uniform|G2' "$R/msm_table.log" | head -20
grep -h -E 'H ' "$R/h_tables.log" "$R/h_plain.log" | head -8
