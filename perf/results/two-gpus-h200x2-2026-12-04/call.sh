#!/usr/bin/env bash
# One device call on the two-H200 machine: unpacks the staged binaries (stage/bins.txz from perf/gpu_stage.sh
# batch_prove proofline-fleet proofline_gpu_tests) and PostgreSQL (stage/postgres.tar.xz from
# perf/stage_postgres.sh), then runs perf/two_gpu_bench.sh with the sections named in SECTIONS.
#
#   SECTIONS="tests scale" perf/results/two-gpus-h200x2-2026-12-04/call.sh "$OUT" NAME
set -u
out=${1:?OUT} name=${2:?name}
mkdir -p /tmp/x && tar xJf stage/bins.txz -C /tmp/x && cp stage/postgres.tar.xz /tmp/x/stage/
mkdir -p "$out/$name"
{ date -u; nvidia-smi --query-gpu=index,name,pci.bus_id,memory.total,clocks.max.sm --format=csv; nvidia-smi topo -m;
  nproc; free -g; } >"$out/$name/machine.txt" 2>&1
timeout "${LIMIT:-560}" perf/two_gpu_bench.sh /tmp/x/stage "$out/$name" >"$out/$name/bench.log" 2>&1
echo "rc=$?" >>"$out/$name/bench.log"
cat "$out/$name/bench.log" | tail -40
cd "$out" && tar czf "$name.tgz" "$name" && rm -rf "$name"
