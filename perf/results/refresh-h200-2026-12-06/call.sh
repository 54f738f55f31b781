#!/usr/bin/env bash
# Run only on an H200: the rows of ../refresh-h100-2026-12-06 that differ between the cards: H with its coset
# tables (2^24), the MSM tables section at 2^24, BLS12-381 2^24 x32 live and presynthesized, 2^20 x768, 2^16
# x2000 and 2^14 x3000 presynthesized. Every proof verified. The binaries come from perf/gpu_stage.sh (release
# build of 4df5bb1), packed as stage_rf/bins.txz (the staging folder is not in git). Writes $OUT/call.tgz.
set -u
out=${1:?OUT}
limit=${2:-585}
R=$(mktemp -d)
start=$SECONDS
nvidia-smi -L | grep -q H200 || { echo "not an H200:"; nvidia-smi -L; exit 3; }
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
step h_tables 60 bench_gpu --sections h --sizes 24 --top-diagonals --h-coset-tables --json "$R/h_tables.json"
step msm_table 150 bench_gpu_msm --sections table --sizes 24 --json "$R/msm_table.json"
step bls24 200 batch_prove $(batch) --synthetic 24 --count 32 --mode pinned,pinned:pre --report "$R/bls24.json"
step bls20 60 batch_prove $(batch) --synthetic 20 --count 768 --mode pinned:pre --report "$R/bls20.json"
step bls16 45 batch_prove $(batch) --synthetic 16 --count 2000 --mode pinned:pre --report "$R/bls16.json"
step bls14 45 batch_prove $(batch) --synthetic 14 --count 3000 --mode pinned:pre --report "$R/bls14.json"
grep -h -E 'precomputed|G1 .*uniform|G2' "$R/msm_table.log" | head -20
grep -h -E 'H ' "$R/h_tables.log" | head -8
