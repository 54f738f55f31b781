#!/usr/bin/env bash
# Device side of an alternating comparison of batch_prove runs, on the GPU machine: the same synthetic batches
# proved in one call by two variants, alternating, every proof verified.
#
# COMPARE=builds (default): two builds of batch_prove staged side by side (bin/batch_prove_before and
# bin/batch_prove), to check that a change keeps the end-to-end figures:
#
#   perf/gpu_stage.sh batch_prove && cp OLD_BUILD/apps/batch_prove stage/bin/batch_prove_before
#   # device tool, carry ["stage"]:  perf/compare_run.sh stage "$OUT"
#
# COMPARE=curves: one build on BLS12-381 and on BN254 (--curve), the curves' proofs/s in the same run:
#
#   perf/gpu_stage.sh batch_prove
#   # device tool, carry ["stage"]:  COMPARE=curves SPECS="22:48:pinned,pinned:pre" perf/compare_run.sh stage "$OUT"
#
# Each run writes OUT/VARIANT-LOG2xCOUNT-rROUND.json (batch_prove --report, one per mode) and .log, and prints
# one line with its proofs/s. Environment: SPECS ("24:16:pinned,baseline,pinned:pre,baseline:pre
# 20:128:pinned"), ROUNDS (1), HOST_BUDGET (100G), STEP_TIMEOUT (300).
set -uo pipefail
stage=${1:?stage dir}
out=${2:?output dir}
mkdir -p "$out"
export LD_LIBRARY_PATH="$PWD/$stage/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
specs=${SPECS:-"24:16:pinned,baseline,pinned:pre,baseline:pre 20:128:pinned"}
rounds=${ROUNDS:-1}
case ${COMPARE:-builds} in
  builds) variants="before after" ;;
  curves) variants="bls12-381 bn254" ;;
  *) echo "compare_run: COMPARE is builds or curves, not '$COMPARE'" >&2; exit 2 ;;
esac
for round in $(seq 1 "$rounds"); do
  for spec in $specs; do
    IFS=: read -r log2 count modes <<<"$spec"
    for variant in $variants; do
      exe="$stage/bin/batch_prove"
      extra=()
      case $variant in
        before) exe="$stage/bin/batch_prove_before" ;;
        bls12-381 | bn254) extra=(--curve "$variant") ;;
      esac
      name="$variant-${log2}x${count}-r$round"
      timeout --signal=INT --kill-after=10 "${STEP_TIMEOUT:-300}" "$exe" --backend cuda --synthetic "$log2" \
        --count "$count" --mode "$modes" "${extra[@]}" --host-budget "${HOST_BUDGET:-100G}" --verify \
        --no-progress --report "$out/$name.json" >"$out/$name.log" 2>&1
      echo "$name: rc $? $(grep -E '^proofs' "$out/$name.log" | tr '\n' ' ')"
    done
  done
done
