#!/usr/bin/env bash
# After the devices split, PL_CUDA_CHECK clearing non-sticky errors and the trace's job records: the whole
# GPU suite, the failover suite, then batch_prove BLS12-381 2^22 x48 live and presynthesized in one process
# and 2^20 x256 presynthesized with a Chrome trace, every proof verified.
set -u
out=${1:?OUT} name=${2:?name}
mkdir -p /tmp/x && tar xJf stage/bins.txz -C /tmp/x
export LD_LIBRARY_PATH=/tmp/x/stage/lib
mkdir -p "$out/$name" /tmp/kc
start=$SECONDS
[ -n "${SKIP_SUITE:-}" ] || timeout 300 /tmp/x/stage/bin/proofline_gpu_tests >"$out/$name/gpu_tests.log" 2>&1
echo "gpu tests rc=$? $(tail -3 "$out/$name/gpu_tests.log" | head -2 | tr '\n' ' ') t=$((SECONDS - start))"
# Each failover case kills the context: one process per case, as ctest runs them.
for case in "*is taken out of service*" "*without the CPU fallback*"; do
  timeout 120 /tmp/x/stage/bin/proofline_gpu_failover_tests -tc="$case" >>"$out/$name/failover_tests.log" 2>&1
  echo "failover '$case' rc=$? t=$((SECONDS - start))"
done
for run in "22|48|pinned,pinned:pre|" "20|256|pinned:pre|--trace /tmp/t20.json"; do
  IFS='|' read -r size count modes extra <<<"$run"
  # shellcheck disable=SC2086
  timeout 100 /tmp/x/stage/bin/batch_prove --verify --no-progress --log-level info --key-cache /tmp/kc \
    --mode "$modes" --synthetic "$size" --count "$count" --report "$out/$name/b$size.json" $extra \
    >"$out/$name/b$size.log" 2>&1
  echo "b$size rc=$? $(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' "$out/$name/b$size.log" | tr '\n' ' ') t=$((SECONDS - start))"
done
if [ -f /tmp/t20.json ]; then
  echo "trace $(stat -c %s /tmp/t20.json) bytes, $(grep -o '"name":"queued"' /tmp/t20.json | wc -l) queued slices, $(grep -o '"outcome":"proved"' /tmp/t20.json | wc -l) proved args"
  gzip -c /tmp/t20.json >"$out/$name/trace20.json.gz"
fi
cat /tmp/x/stage/COMMIT
cd "$out" && tar czf "$name.tgz" "$name" && rm -rf "$name"
