#!/usr/bin/env bash
# The GPU suite, the failover cases (one process each) and three batch_prove rows on a staged build:
#   BUILD_DIR=build STAGE_DIR=stage_fin perf/gpu_stage.sh proofline_gpu_tests proofline_gpu_failover_tests \
#     batch_prove verify_proof && mkdir -p stage_call && tar cJf stage_call/bins.txz stage_fin
# then on the GPU machine: bash call.sh $OUT (from the checkout, carrying stage_call).
set -u
out=${1:?OUT}
R=$(mktemp -d)
start=$SECONDS
tar xJf stage_call/bins.txz -C /tmp
S=/tmp/stage_fin
cp $S/COMMIT "$R/COMMIT"
nvidia-smi >"$R/gpu.txt" 2>&1
export LD_LIBRARY_PATH=$S/lib
finish() { tar czf "$out/call.tgz" -C "$R" .; }
trap finish EXIT
step() {
  local name=$1 seconds=$2 bin=$3
  shift 3
  [ $((SECONDS - start + seconds)) -lt 585 ] || { echo "skip $name"; return; }
  timeout "$seconds" "$S/bin/$bin" "$@" >"$R/$name.log" 2>&1
  echo "$name rc=$? $(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' "$R/$name.log" | tr '\n' ' ') t=$((SECONDS - start))"
}
mkdir -p /tmp/kc
batch() { echo --verify --no-progress --log-level info --key-cache /tmp/kc; }
step suite 300 proofline_gpu_tests
tail -4 "$R/suite.log"
# Each failover case kills the CUDA context: one process each.
LD_LIBRARY_PATH=$S/lib $S/bin/proofline_gpu_failover_tests --list-test-cases 2>/dev/null |
  grep -v '^\[doctest\]\|^=\|^$' >"$R/failover-cases.txt"
n=0
while IFS= read -r c; do
  n=$((n + 1))
  timeout 120 "$S/bin/proofline_gpu_failover_tests" -tc="$c" >"$R/failover-$n.log" 2>&1
  echo "failover case $n rc=$? $c"
done <"$R/failover-cases.txt"
step bls20 70 batch_prove $(batch) --synthetic 20 --count 768 --mode pinned:pre --report "$R/bls20.json"
step bls16 45 batch_prove $(batch) --synthetic 16 --count 2000 --mode pinned:pre --report "$R/bls16.json"
step bn16 45 batch_prove $(batch) --synthetic 16 --count 2000 --curve bn254 --mode pinned:pre --report "$R/bn16.json"
grep -h "proofs " "$R"/bls20.log "$R"/bls16.log "$R"/bn16.log | head -6
