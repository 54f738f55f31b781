#!/usr/bin/env bash
# Small jobs side by side on the CPU backend: batch_prove --backend cpu on synthetic BLS12-381 circuits of
# 2^8, 2^12 and 2^16 rows (400, 200 and 40 jobs, every proof verified), OLD and NEW binaries alternating,
# two rounds.   OLD=path/to/batch_prove NEW=path/to/batch_prove run.sh
set -u
old=${OLD:?} new=${NEW:?}
kc=${KEY_CACHE:-/tmp/kc-small}
for round in 1 2; do
  for size in 8:400 12:200 16:40; do
    n=${size%%:*} count=${size##*:}
    for v in old new; do
      bin=$old; [ $v = new ] && bin=$new
      line=$($bin --backend cpu --synthetic $n --count $count --no-progress --verify --key-cache $kc 2>&1 |
             grep -o 'proofs [0-9/]* (verified [0-9]*), failed [0-9]*, wall [0-9.]* s, [0-9.]* proofs/s')
      echo "round $round 2^$n $v: $line"
    done
  done
done
