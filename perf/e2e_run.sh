#!/usr/bin/env bash
# The end-to-end benchmark, device side: run on the GPU machine from the repository root of a copy of
# the tree, with the binaries perf/e2e_bench.sh staged. In one go:
#   - batch_prove on synthetic circuits of 2^22, 2^24 and 2^26 rows per job, each size in one process (keys
#     made once, on the GPU): pinned and baseline mode with live synthesis, then both again with the jobs
#     presynthesized (the GPU side alone), every proof verified; an H2D probe (pinned and pageable copies
#     while the synthesis threads run) before the first batch of each size;
#   - tracing overhead: 5 runs each of a build with tracing and one with it compiled out, alternating, 2^20;
#   - the table and JSON (perf/e2e_table.py).
#
#   perf/e2e_run.sh STAGE_DIR OUT_DIR            # environment: SIZES ("22:12 24:8 26:4"), TRACE_RUNS (5),
#                                                # HOST_BUDGET (100G), HOST_BUDGET_26 (80G), STEP_TIMEOUT (240),
#                                                # PACK (1: OUT_DIR ends up as OUT_DIR.tar.gz, since the
#                                                # device tool brings back only a few files)
set -uo pipefail
stage=${1:?stage dir}
out=${2:?output dir}
mkdir -p "$out"
export LD_LIBRARY_PATH="$PWD/$stage/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
bin="$PWD/$stage/bin"
sizes=${SIZES:-"22:12 24:8 26:4"}
trace_runs=${TRACE_RUNS:-5}
step_timeout=${STEP_TIMEOUT:-240}
threads=$(nproc)

{
  date -u +"date %Y-%m-%dT%H:%M:%SZ"
  echo "host $(hostname), $threads CPU threads, $(awk '/MemTotal/ {printf "%.0f GiB RAM", $2/1048576}' /proc/meminfo)"
  nvidia-smi --query-gpu=name,memory.total,driver_version,pcie.link.gen.max,pcie.link.width.max --format=csv,noheader
} >"$out/machine.txt" 2>&1
cat "$out/machine.txt"

for spec in $sizes; do
  log2=${spec%%:*}
  count=${spec##*:}
  budget=${HOST_BUDGET:-100G}
  [ "$log2" -ge 26 ] && budget=${HOST_BUDGET_26:-80G}
  runs="pinned,baseline,pinned:pre,baseline:pre"
  echo "== 2^$log2 x $count jobs, host budget $budget: $runs"
  start=$(date +%s%N)
  timeout --signal=INT --kill-after=10 "$step_timeout" "$bin/batch_prove" --backend cuda --synthetic "$log2" \
    --count "$count" --mode "$runs" --host-budget "$budget" --verify --no-progress --h2d-probe \
    --report "$out/e2e-$log2.json" --timeline "$out/timeline-$log2.svg" >"$out/e2e-$log2.log" 2>&1
  rc=$?
  echo "rc $rc, $((($(date +%s%N) - start) / 1000000)) ms" | tee -a "$out/e2e-$log2.log"
  grep -E "^(batch_prove|proofs|gpu|verdict|extra)" "$out/e2e-$log2.log"
done

echo "== tracing overhead: 2^20 x 16 jobs, pinned, $trace_runs runs per build, alternating"
for i in $(seq 1 "$trace_runs"); do
  for build in on off; do
    exe="$bin/batch_prove"
    [ $build = off ] && exe="$bin/batch_prove_notrace"
    timeout 60 "$exe" --backend cuda --synthetic 20 --count 16 --host-budget 64G --no-progress \
      --report "$out/trace-$build-$i.json" >"$out/trace-$build-$i.log" 2>&1 || echo "trace $build $i: rc $?"
  done
done

python3 perf/e2e_table.py "$out" --json "$out/e2e.json" | tee "$out/table.txt"
if [ "${PACK:-1}" = 1 ]; then
  tar czf "$out.tar.gz" -C "$(dirname "$out")" "$(basename "$out")" && rm -rf "$out"
fi
