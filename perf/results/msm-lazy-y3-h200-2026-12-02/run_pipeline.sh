#!/usr/bin/env bash
# Call 3: batch_prove before (batch_prove_base, main before the change) and after, alternating, every proof
# verified: 32 presynthesized jobs of 2^24 rows (the GPU bounds the rate), then 192 of 2^20. Keys made once per
# process on the GPU, MSM tables on. Everything is written to $OUT/call.tgz.
set -u
cd stage && tar xJf bins.txz && cd ..
export LD_LIBRARY_PATH=$PWD/stage/lib
B=stage/bin
R=$(mktemp -d)
for round in 1 2; do
  for build in base new; do
    bin=$B/batch_prove; [ $build = base ] && bin=$B/batch_prove_base
    $bin --synthetic 24 --count 32 --mode pinned:pre --verify --report "$R/rows24_${build}_$round.json" \
      > "$R/rows24_${build}_$round.log" 2>&1
    echo "rc=$?" >> "$R/rows24_${build}_$round.log"
  done
done
for build in base new; do
  bin=$B/batch_prove; [ $build = base ] && bin=$B/batch_prove_base
  $bin --synthetic 20 --count 192 --mode pinned:pre --verify --report "$R/rows20_${build}.json" \
    > "$R/rows20_${build}.log" 2>&1
  echo "rc=$?" >> "$R/rows20_${build}.log"
done
tar czf "$OUT/call.tgz" -C "$R" .
