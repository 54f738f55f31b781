#!/usr/bin/env bash
# Device side of the curve comparison, on the GPU machine: batch_prove proves the same synthetic batches on
# BLS12-381 and on BN254 (circom's bn128) in one call, alternating curve by curve, every proof verified, so
# the two curves' proofs/s are measured in the same run on the same GPU:
#
#   perf/gpu_stage.sh batch_prove
#   # device tool, carry ["stage"]:  perf/curve_compare_run.sh stage "$OUT"
#
# Each run writes OUT/CURVE-LOG2xCOUNT-rROUND.json (batch_prove --report) and .log; the last lines printed are
# one per run with its proofs/s. Environment: SPECS ("22:48:pinned,pinned:pre"), ROUNDS (2),
# HOST_BUDGET (100G), STEP_TIMEOUT (300).
set -uo pipefail
stage=${1:?stage dir}
out=${2:?output dir}
mkdir -p "$out"
export LD_LIBRARY_PATH="$PWD/$stage/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
specs=${SPECS:-"22:48:pinned,pinned:pre"}
rounds=${ROUNDS:-2}
for round in $(seq 1 "$rounds"); do
  for spec in $specs; do
    IFS=: read -r log2 count modes <<<"$spec"
    for curve in bls12-381 bn254; do
      name="$curve-${log2}x${count}-r$round"
      timeout --signal=INT --kill-after=10 "${STEP_TIMEOUT:-300}" "$stage/bin/batch_prove" --backend cuda \
        --curve "$curve" --synthetic "$log2" --count "$count" --mode "$modes" \
        --host-budget "${HOST_BUDGET:-100G}" --verify --no-progress --report "$out/$name.json" \
        >"$out/$name.log" 2>&1
      echo "$name: rc $? $(grep -E '^proofs' "$out/$name.log" | tr '\n' ' ')"
    done
  done
done
