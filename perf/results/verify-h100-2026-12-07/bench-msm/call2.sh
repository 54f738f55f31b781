#!/usr/bin/env bash
# bench_gpu_msm's checks (now through cpu::scalar_mul) at 2^20 on the staged build.
set -u
out=${1:?OUT}
S=/tmp/stage_fin
[ -d $S ] || tar xJf stage_call/bins.txz -C /tmp
export LD_LIBRARY_PATH=$S/lib
[ -x /tmp/bench_gpu_msm ] || xz -dc stage_call/extra/bench_gpu_msm.xz >/tmp/bench_gpu_msm && chmod +x /tmp/bench_gpu_msm
nvidia-smi -L >"$out/gpu.txt" 2>&1
timeout 280 /tmp/bench_gpu_msm --sections g1,g2,mix,setup,bn254,table --sizes 20 --runs 5 \
  --json "$out/bench.json" >"$out/bench.log" 2>&1
echo "bench rc=$? PASS=$(grep -c PASS "$out/bench.log") FAIL=$(grep -c FAIL "$out/bench.log")"
tail -25 "$out/bench.log"
