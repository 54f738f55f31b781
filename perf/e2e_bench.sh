#!/usr/bin/env bash
# The end-to-end benchmark, build side: builds batch_prove (native sm_90 code for the H200) twice, with tracing
# and with tracing compiled out (-DPROOFLINE_TRACE=OFF, for the overhead figure), and stages both with the
# libraries the GPU machine lacks. perf/e2e_run.sh (in the tree that travels with the run) then runs the whole
# benchmark in one go on the GPU machine:
#
#   perf/e2e_bench.sh
#   # device tool, carry ["stage-e2e"]:  perf/e2e_run.sh stage-e2e "$OUT/e2e"   (brings back $OUT/e2e.tar.gz)
#   python3 perf/e2e_table.py DIR         # the table again, here, from the unpacked files
#
# Environment: BUILD_DIR (build-e2e), NOTRACE_BUILD_DIR (build-e2e-notrace), STAGE_DIR (stage-e2e), JOBS (2).
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${BUILD_DIR:-build-e2e}
notrace_dir=${NOTRACE_BUILD_DIR:-build-e2e-notrace}
stage_dir=${STAGE_DIR:-stage-e2e}
jobs=${JOBS:-2}

cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPROOFLINE_TRACE=ON >/dev/null
BUILD_DIR=$build_dir STAGE_DIR=$stage_dir JOBS=$jobs perf/gpu_stage.sh batch_prove

cmake -S . -B "$notrace_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DPROOFLINE_TRACE=OFF -DPROOFLINE_BUILD_TESTS=OFF -DPROOFLINE_BUILD_PERF=OFF >/dev/null
cmake --build "$notrace_dir" -j "$jobs" --target batch_prove
strip -o "$stage_dir/bin/batch_prove_notrace" "$notrace_dir/apps/batch_prove"
ls -l "$stage_dir/bin" "$stage_dir/lib"
echo "staged: run perf/e2e_run.sh $stage_dir \$OUT/e2e on the GPU machine (carry [\"$stage_dir\"])"
