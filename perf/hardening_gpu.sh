#!/usr/bin/env bash
# The hardening checks that need a GPU, in one run (perf/results/hardening-h200-*): the failover cases (each
# kills the device's CUDA context, so each runs in a process of its own), the soak on the CUDA backend, and the
# cost of --wipe-slots on a batch of 2^22-row jobs, same binary, alternating runs.
#
#   perf/hardening_gpu.sh STAGE_DIR OUT_DIR        # STAGE_DIR from perf/gpu_stage.sh
#
# Environment: SOAK_JOBS (default 4000), WIPE_LOG2 (22), WIPE_COUNT (24), WIPE_RUNS (2 of each).
set -uo pipefail
stage=${1:?stage folder}
out=${2:?output folder}
mkdir -p "$out"
export LD_LIBRARY_PATH=$stage/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
status=0

echo "== failover: a GPU whose context dies =="
"$stage/bin/proofline_gpu_failover_tests" --list-test-cases 2>/dev/null | grep '^pipeline/' |
  while read -r name; do
    "$stage/bin/proofline_gpu_failover_tests" -tc="$name" >"$out/failover-$(echo "$name" | tr -c 'A-Za-z0-9' '_' | cut -c1-60).log" 2>&1
    echo "rc=$? $name"
  done | tee "$out/failover.txt"
grep -q '^rc=[^0]' "$out/failover.txt" && status=1

echo "== soak on the CUDA backend =="
"$stage/bin/proofline_soak" --backend cuda --jobs "${SOAK_JOBS:-4000}" --log-sizes 10,12,14 --seed 11 \
  --json "$out/soak-cuda.json" 2>"$out/soak-cuda.log" | tee "$out/soak-cuda.txt" || status=1

echo "== --wipe-slots: cost per job =="
for run in $(seq 1 "${WIPE_RUNS:-2}"); do
  for wipe in off on; do
    flag=(); [ "$wipe" = on ] && flag=(--wipe-slots)
    "$stage/bin/batch_prove" --backend cuda --synthetic "${WIPE_LOG2:-22}" --count "${WIPE_COUNT:-24}" \
      --key-cache "${TMPDIR:-/tmp}/proofline-hardening-keys" --no-progress --verify "${flag[@]}" --report "$out/wipe-$wipe-$run.json" \
      >"$out/wipe-$wipe-$run.txt" 2>&1 || status=1
    echo "wipe $wipe run $run: $(grep -m1 "proofs/s" "$out/wipe-$wipe-$run.txt")"
  done
done
exit $status
