#!/usr/bin/env bash
# Call 4 (as run, stage built from a5a9bda): failover cases one per process, the MSM-table GPU case,
# batch_prove 2^20 x 192 with table widths (model = 19, 17, 16), two rounds.
export LD_LIBRARY_PATH=$PWD/stage/lib
b=stage/bin
$b/proofline_gpu_failover_tests --list-test-cases 2>/dev/null | grep '^pipeline/' | while read -r tc; do
  timeout 60 $b/proofline_gpu_failover_tests -tc="$tc" > "$OUT/failover-$(echo "$tc" | cut -c1-40 | tr -c 'A-Za-z0-9\n' '_').log" 2>&1
  echo "rc=$? $tc"
done | tee "$OUT/failover.txt"
timeout 90 $b/proofline_gpu_tests -tc="pipeline/gpu/MSM tables*" > "$OUT/tables_case.log" 2>&1; echo "tables case rc=$?"; tail -2 "$OUT/tables_case.log"
mkdir -p "$OUT/bits" /tmp/kc
for round in 1 2; do
  for bits in 0 17 16; do
    opt=(); [ "$bits" = 0 ] || opt=(--msm-table-bits "$bits")
    $b/batch_prove --synthetic 20 --count 192 --mode pinned:pre --verify --no-progress --key-cache /tmp/kc \
      "${opt[@]}" --report "$OUT/bits/r$round-c$bits.json" > "$OUT/bits/r$round-c$bits.log" 2>&1
    echo "round $round bits $bits rc=$? $(grep -o 'proofs [0-9/]* (verified [0-9]*).*proofs/s' "$OUT/bits/r$round-c$bits.log")"
  done
done | tee "$OUT/bits/summary.txt"
cd "$OUT" && tar czf bits.tgz bits failover-*.log && rm -rf bits failover-*.log
