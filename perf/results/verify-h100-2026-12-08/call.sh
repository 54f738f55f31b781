#!/usr/bin/env bash
# The GPU suite, the failover cases (one process each), and batch_prove rows on a staged build (every proof
# verified): 2^20 x768 presynthesized, a one-job batch, 2^24 x32 live and presynthesized. Writes $OUT/call.tgz.
set -u
out=${1:?OUT}
R=$(mktemp -d)
start=$SECONDS
tar xJf stage_call/bins.txz -C /tmp
S=/tmp/stage_fin
cp $S/COMMIT "$R/COMMIT"
nvidia-smi >"$R/gpu.txt" 2>&1
nvidia-smi -L
export LD_LIBRARY_PATH=$S/lib
finish() { tar czf "$out/call.tgz" -C "$R" .; }
trap finish EXIT
step() {
  local name=$1 seconds=$2 bin=$3
  shift 3
  [ $((SECONDS - start + seconds)) -lt 590 ] || { echo "skip $name"; return; }
  timeout "$seconds" "$S/bin/$bin" "$@" >"$R/$name.log" 2>&1
  echo "$name rc=$? $(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' "$R/$name.log" | tr '\n' ' ') t=$((SECONDS - start))"
}
mkdir -p /tmp/kc
batch() { echo --verify --no-progress --log-level info --key-cache /tmp/kc; }
step suite 280 proofline_gpu_tests
tail -4 "$R/suite.log"
$S/bin/proofline_gpu_failover_tests --list-test-cases 2>/dev/null |
  grep -v '^\[doctest\]\|^=\|^$' >"$R/failover-cases.txt"
n=0
while IFS= read -r c; do
  n=$((n + 1))
  timeout 120 "$S/bin/proofline_gpu_failover_tests" -tc="$c" >"$R/failover-$n.log" 2>&1
  echo "failover case $n rc=$? $c"
done <"$R/failover-cases.txt"
step bls20 70 batch_prove $(batch) --synthetic 20 --count 768 --mode pinned:pre --report "$R/bls20.json"
step one 40 batch_prove $(batch) --synthetic 20 --count 1 --slots 8 --mode pinned --report "$R/one.json"
grep -h -i "slot" "$R/one.log" | head -3
step bls24 200 batch_prove $(batch) --synthetic 24 --count 32 --mode pinned,pinned:pre --report "$R/bls24.json"
grep -h "proofs " "$R"/bls20.log "$R"/one.log "$R"/bls24.log | head -8
