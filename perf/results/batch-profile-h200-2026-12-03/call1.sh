#!/usr/bin/env bash
# Call 1: where a 2^20 job's GPU time goes inside a batch. batch_prove 2^20 presynthesized at two batch lengths
# (ramp vs steady state), then every kernel of a 16-job batch under ncu (duration and instructions, kernels
# serialized), then the same batch under nsys when the machine has it (kernels overlapped as in production).
set -u
out=${1:?OUT}
start=$SECONDS
export LD_LIBRARY_PATH=$PWD/stage/lib
mkdir -p /tmp/b "$out/c1" /tmp/kc && tar xJf stage/bins.txz -C /tmp/b
bp=/tmp/b/bin/batch_prove
{ nvidia-smi -L; command -v nsys ncu; nsys --version 2>&1 | head -1; } > "$out/c1/tools.txt" 2>&1
for count in 192 768; do
  $bp --synthetic 20 --count $count --mode pinned:pre --verify --no-progress --key-cache /tmp/kc \
    --report "$out/c1/rows20_x$count.json" > "$out/c1/rows20_x$count.log" 2>&1
  echo "batch x$count rc=$? $(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' "$out/c1/rows20_x$count.log") t=$((SECONDS - start))"
done
timeout 240 ncu --metrics gpu__time_duration.sum,smsp__inst_executed.sum --csv --log-file "$out/c1/ncu.csv" \
  $bp --synthetic 20 --count 16 --mode pinned:pre --no-progress --key-cache /tmp/kc > "$out/c1/ncu.log" 2>&1
echo "ncu rc=$? t=$((SECONDS - start))"
python3 perf/results/batch-profile-h200-2026-12-03/kernels.py "$out/c1/ncu.csv" 16 > "$out/c1/ncu-kernels.md" 2>&1 || true
if command -v nsys > /dev/null; then
  timeout 150 nsys profile -o /tmp/nsys20 --force-overwrite true \
    $bp --synthetic 20 --count 96 --mode pinned:pre --no-progress --key-cache /tmp/kc > "$out/c1/nsys.log" 2>&1
  echo "nsys rc=$? t=$((SECONDS - start))"
  nsys stats -r cuda_gpu_kern_sum -f csv -o "$out/c1/nsys" /tmp/nsys20.nsys-rep > /dev/null 2>&1
  echo "nsys stats rc=$?"
fi
for keys in 1 2; do
  $bp --synthetic 16 --count 8 --keys $keys --mode pinned --no-progress --log-level info \
    --report "$out/c1/srs-loads-k$keys.json" > "$out/c1/srs-loads-k$keys.log" 2>&1
  echo "srs loads keys=$keys rc=$? $(grep -o 'srs_loads_in_batch [0-9.]*' "$out/c1/srs-loads-k$keys.log")"
done
cd "$out" && tar czf c1.tgz c1 && rm -rf c1
