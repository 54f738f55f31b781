#!/usr/bin/env bash
# Call 4: batch_prove on main's final rule (split engines without an expected count plan their passes for
# half their points) against main before the change: 32 presynthesized jobs of 2^24 rows, then 192 of 2^20,
# the new build first (the first process on a fresh machine pays for first-touch pinning), every proof
# verified. Everything is written to $OUT/call.tgz.
set -u
cd stage && tar xJf bins.txz && cd ..
export LD_LIBRARY_PATH=$PWD/stage/lib
B=stage/bin
R=$(mktemp -d)
for rows in "24 32" "20 192"; do
  set -- $rows
  for build in new base; do
    bin=$B/batch_prove; [ $build = base ] && bin=$B/batch_prove_base
    $bin --synthetic $1 --count $2 --mode pinned:pre --verify --report "$R/rows$1_${build}.json" \
      > "$R/rows$1_${build}.log" 2>&1
    echo "rc=$?" >> "$R/rows$1_${build}.log"
  done
done
tar czf "$OUT/call.tgz" -C "$R" .
