#!/usr/bin/env bash
# One device call: the GPU suite's small cases under compute-sanitizer, the four tools side by side (one
# process each; they are CPU-bound under instrumentation). Usage: call.sh OUT (stage/bins.txz carried).
set -uo pipefail
out=${1:?out}
mkdir -p /tmp/x && tar xJf stage/bins.txz -C /tmp/x
stage=/tmp/x/stage
cat "$stage/COMMIT" >"$out/commit.txt"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$out/gpu.txt"
export PROOFLINE_GPU_TEST_MAX_LOG=12
kernels="gpu/arith/*;gpu/bn254/Fr and Fp*;gpu/bn254/Fp2*;gpu/bn254/G1 and G2 additions*;gpu/msm/G1 small*;gpu/msm/G2 small*;gpu/msm/edge*;gpu/bn254/MSM edge*;gpu/msm_shared/*;gpu/msm_table/BLS12-381*;gpu/msm_table/BN254*;gpu/msm_table/misuse*;gpu/fixed_base/*;gpu/bn254/fixed-base*;gpu/key_check/*;gpu/msm_stream/G1 and G2*;gpu/msm_stream/BN254*;gpu/ntt/Fr device*;gpu/ntt/H equals*;gpu/bn254/H equals*"
pipeline="pipeline/gpu/bn254/keys of 2^2*;pipeline/gpu/evaluate/a witness*;pipeline/gpu/evaluate/a? b? c made*;pipeline/gpu/the CUDA backend*;pipeline/gpu/a fault*"
shared="gpu/msm/G1 small*;gpu/msm/G2 small*;gpu/bn254/MSM edge*;gpu/msm_shared/*;gpu/msm_table/BLS12-381*;gpu/msm_table/BN254*;gpu/ntt/Fr device*;gpu/ntt/H equals*;gpu/key_check/*;pipeline/gpu/bn254/keys of 2^2*;pipeline/gpu/evaluate/a witness*"
run_tool() {  # name tool cases
  CASES="$3" PER_CASE_SECONDS=${PER_CASE_SECONDS:-120} timeout 560 bash scripts/gpu_sanitize.sh "$stage" \
    "$out/$1" "$2" >"$out/$1.txt" 2>&1
}
run_tool memcheck-kernels memcheck "$kernels" &
run_tool memcheck-pipeline memcheck "$pipeline" &
run_tool initcheck-kernels initcheck "$kernels" &
run_tool initcheck-pipeline initcheck "$pipeline" &
run_tool racecheck racecheck "$shared" &
run_tool synccheck synccheck "$shared" &
wait
for t in memcheck-kernels memcheck-pipeline initcheck-kernels initcheck-pipeline racecheck synccheck; do
  echo "== $t"; cat "$out/$t.txt"
done
# Only the logs with a report are kept whole; the others are cut to their summary lines.
for log in "$out"/*/*.log; do
  if ! grep -qE "ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards" "$log"; then continue; fi
  grep -E "SUMMARY|test cases" "$log" >"$log.summary" && rm "$log"
done
