#!/usr/bin/env bash
# Call 5: batch_prove 2^20 x 192 presynthesized with the refitted table width (17) against the old one (19).
export LD_LIBRARY_PATH=$PWD/stage/lib
mkdir -p "$OUT/width" /tmp/kc
for bits in 0 19; do
  opt=(); [ "$bits" = 0 ] || opt=(--msm-table-bits "$bits")
  stage/bin/batch_prove --synthetic 20 --count 192 --mode pinned:pre --verify --no-progress --key-cache /tmp/kc \
    --log-level info "${opt[@]}" --report "$OUT/width/c$bits.json" > "$OUT/width/c$bits.log" 2>&1
  echo "bits $bits rc=$? $(grep -o 'proofs [0-9/]* (verified [0-9]*).*proofs/s' "$OUT/width/c$bits.log") $(grep -o 'H ([0-9]* windows of [0-9]* bits)' "$OUT/width/c$bits.log" | head -1)"
done | tee "$OUT/width/summary.txt"
