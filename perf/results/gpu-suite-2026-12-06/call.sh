#!/usr/bin/env bash
# The shipped build on the GPU machine, in one device call: circom circuits of unusual shapes proved with
# their snarkjs keys on the GPU (proofs brought back for `snarkjs groth16 verify`), the tensor-core probe's
# reshaped source, the failover suite (one process per case: each kills its context), then the whole GPU
# suite.
# Expects stage_call/bins.txz: stage_fin/ with bin/, lib/, explore/, tensor_mont_probe and COMMIT. Writes
# its logs and the proofs under $OUT/call/ as it goes, so that a call cut short still brings back what ran.
set -u
out=${1:?OUT}
tar xJf stage_call/bins.txz -C /tmp
S=/tmp/stage_fin
R=$out/call
mkdir -p "$R"
start=$SECONDS
export LD_LIBRARY_PATH=$S/lib
cp "$S/COMMIT" "$R/COMMIT"
nvidia-smi >"$R/gpu.txt" 2>&1
for case in "*is taken out of service*" "*without the CPU fallback*"; do
  timeout 90 "$S/bin/proofline_gpu_failover_tests" -tc="$case" >>"$R/failover_tests.log" 2>&1
  echo "failover '$case' rc=$? t=$((SECONDS - start))"
done
mkdir -p "$R/explore"
for dir in "$S"/explore/*/; do
  name=$(basename "$dir")
  timeout 40 "$S/bin/batch_prove" --backend cuda --verify --no-progress --zkey "$dir/key.zkey" \
    --wtns "$dir/w.wtns" --out "$R/explore/$name" >"$R/explore/$name.log" 2>&1
  echo "explore $name rc=$? t=$((SECONDS - start))"
done
timeout 60 "$S/tensor_mont_probe" >"$R/tensor_probe.txt" 2>&1
echo "tensor probe rc=$? t=$((SECONDS - start))"
tail -12 "$R/tensor_probe.txt"
# Last, with the time left (LIMIT: the call's limit in seconds): the longest step.
timeout $((${LIMIT:-480} - (SECONDS - start) - 10)) "$S/bin/proofline_gpu_tests" >"$R/gpu_tests.log" 2>&1
echo "gpu tests rc=$? $(tail -4 "$R/gpu_tests.log" | head -2 | tr '\n' ' ') t=$((SECONDS - start))"
