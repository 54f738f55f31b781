#!/usr/bin/env bash
# Call 5: pl_submit_scalars copies each job's witness; with buffers used again (new) instead of a fresh
# allocation per job (old). bench_capi 2^20 x128, C ABI vs C++ in the same process, old and new builds
# alternating twice (stage/old.txz, stage/new.txz: bench_capi and its libraries).
set -u
out=${1:?OUT}
start=$SECONDS
mkdir -p "$out/c5" /tmp/kc
for v in old new; do mkdir -p /tmp/$v && tar xJf stage/$v.txz -C /tmp/$v; done
for round in 1 2; do
  for v in old new; do
    LD_LIBRARY_PATH=/tmp/$v/lib timeout 150 /tmp/$v/bin/bench_capi --log-n 20 --count 128 --reps 3 --warmup 8 \
      --backend cuda --key-cache /tmp/kc --json "$out/c5/capi20_${v}_$round.json" > "$out/c5/capi20_${v}_$round.log" 2>&1
    echo "$v round $round rc=$? $(grep -E 'overhead' "$out/c5/capi20_${v}_$round.log") t=$((SECONDS - start))"
  done
done
cd "$out" && tar czf c5.tgz c5 && rm -rf c5
