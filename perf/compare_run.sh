#!/usr/bin/env bash
# Device side of a before/after comparison of batch_prove, on the GPU machine: two builds of batch_prove staged
# side by side (bin/batch_prove_before and bin/batch_prove) prove the same synthetic batches in one call,
# alternating, every proof verified. Used to check that a change keeps the end-to-end figures:
#
#   perf/gpu_stage.sh batch_prove && cp OLD_BUILD/apps/batch_prove stage/bin/batch_prove_before
#   # device tool, carry ["stage"]:  perf/compare_run.sh stage "$OUT"
#
# Environment: SPECS ("24:16:pinned,baseline,pinned:pre,baseline:pre 20:128:pinned"), ROUNDS (1),
# HOST_BUDGET (100G), STEP_TIMEOUT (300).
set -uo pipefail
stage=${1:?stage dir}
out=${2:?output dir}
mkdir -p "$out"
export LD_LIBRARY_PATH="$PWD/$stage/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
specs=${SPECS:-"24:16:pinned,baseline,pinned:pre,baseline:pre 20:128:pinned"}
rounds=${ROUNDS:-1}
for round in $(seq 1 "$rounds"); do
  for spec in $specs; do
    IFS=: read -r log2 count modes <<<"$spec"
    for build in before after; do
      exe="$stage/bin/batch_prove"
      [ "$build" = before ] && exe="$stage/bin/batch_prove_before"
      name="$build-${log2}x${count}-r$round"
      timeout --signal=INT --kill-after=10 "${STEP_TIMEOUT:-300}" "$exe" --backend cuda --synthetic "$log2" \
        --count "$count" --mode "$modes" --host-budget "${HOST_BUDGET:-100G}" --verify --no-progress \
        --report "$out/$name.json" >"$out/$name.log" 2>&1
      echo "$name: rc $? $(grep -E '^proofs' "$out/$name.log" | tr '\n' ' ')"
    done
  done
done
