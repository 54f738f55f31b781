#!/usr/bin/env bash
# The tensor-core Montgomery probe on the GPU machine: host emulation, device checks and throughput (call 1),
# then SASS opcode counts and ncu's pipe use and stall reasons for one launch of each kernel (call 2).
set -u
out=${1:?OUT}
probe=${2:-./tensor_mont_probe}
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.sm,driver_version --format=csv >"$out/gpu.txt"
"$probe" >"$out/probe.txt" 2>&1
cuobjdump -sass "$probe" | awk '/Function :/ {f=$3} /\/\*[0-9a-f]+\*\// {for (i=1;i<=NF;i++) if ($i ~ /^[A-Z][A-Z0-9_.]+$/ && $i !~ /^R[0-9]/) {n=split($i,a,"."); k=a[1]; c[f" "k]++; break}} END {for (k in c) print k, c[k]}' | sort >"$out/sass-opcodes.txt"
timeout 300 ncu --clock-control none -k regex:'probe|mma_only' --section ComputeWorkloadAnalysis \
  --section WarpStateStats --section InstructionStats --section Occupancy "$probe" once >"$out/ncu.txt" 2>&1
echo "ncu rc=$?" >>"$out/ncu.txt"
cat "$out/probe.txt"
