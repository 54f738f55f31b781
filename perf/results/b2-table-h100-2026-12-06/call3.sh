#!/usr/bin/env bash
# Call 3: keys sharing the VRAM's room for tables, the table levels' sharing ("new") against the table count's
# ("base", the build of call 1 without its variables): two 2^24 keys, jobs in turn, and three 2^22 keys under
# a 40 GiB VRAM budget, presynthesized and verified. Writes $OUT/call.tgz.
set -u
out=${1:?OUT}
limit=${2:-420}
R=$(mktemp -d)
start=$SECONDS
tar xJf stage_exp34/bins.txz -C /tmp
nvidia-smi >"$R/gpu.txt" 2>&1
finish() { tar czf "$out/call.tgz" -C "$R" .; }
trap finish EXIT
prove() {  # name, build (exp34 | new34), then batch_prove's arguments
  local name=$1 build=$2
  shift 2
  [ $((SECONDS - start)) -lt $((limit - 80)) ] || { echo "skip $name"; return; }
  timeout 120 env LD_LIBRARY_PATH=/tmp/$build/stage/lib /tmp/$build/stage/bin/batch_prove --verify \
    --no-progress --log-level info --mode pinned:pre --report "$R/$name.json" "$@" >"$R/$name.log" 2>&1
  echo "$name rc=$? $(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' "$R/$name.log") t=$((SECONDS - start))"
  grep -h "MSM tables for\|keeps MSM tables\|^vram:" "$R/$name.log" | sed 's/^/  /'
}
for b in "base exp34" "new new34"; do
  set -- $b
  prove "keys2_24_$1" $2 --synthetic 24 --keys 2 --count 24
done
for b in "base exp34" "new new34"; do
  set -- $b
  prove "keys3_22_$1" $2 --synthetic 22 --keys 3 --count 48 --vram-budget 40GiB
done
