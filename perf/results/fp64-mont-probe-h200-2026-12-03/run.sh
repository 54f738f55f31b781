#!/usr/bin/env bash
# The FP64 Montgomery probe on the GPU machine: checks, throughput, SASS opcode counts, pipe use (ncu).
set -u
out=${1:?OUT}
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.sm,driver_version --format=csv > "$out/gpu.txt"
./fp64_mont_probe --host > "$out/probe.txt" 2>&1
./fp64_mont_probe 256 >> "$out/probe.txt" 2>&1
./fp64_mont_probe 1024 > "$out/probe-1024.txt" 2>&1
# Opcode counts per kernel (the chains loops dominate each kernel's SASS).
cuobjdump -sass fp64_mont_probe | awk '/Function :/ {f=$3} /\/\*[0-9a-f]+\*\// {for (i=1;i<=NF;i++) if ($i ~ /^[A-Z][A-Z0-9_.]+$/ && $i !~ /^R[0-9]/) {n=split($i,a,"."); k=a[1]; if (n>1) k=k"."a[2]; c[f" "k]++; break}} END {for (k in c) print k, c[k]}' | sort > "$out/sass-opcodes.txt"
timeout 240 ncu --clock-control none -k regex:chains_bench --launch-skip 0 --launch-count 72 \
  --metrics sm__inst_executed_pipe_fp64.avg.pct_of_peak_sustained_active,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_issued.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,sm__pipe_fmaheavy_cycles_active.avg.pct_of_peak_sustained_active \
  ./fp64_mont_probe 8 > "$out/ncu.txt" 2>&1
echo "ncu rc=$?" >> "$out/ncu.txt"
cat "$out/probe.txt"
