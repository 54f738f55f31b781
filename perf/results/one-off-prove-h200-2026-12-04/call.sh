#!/usr/bin/env bash
# One proof per process, as a script calling rapidsnark would: `proofline prove KEY.zkey W.wtns PROOF PUBLIC`
# on the CUDA backend and on the CPU backend (16 host cores), BN254 keys of 2^4 to 2^20 rows exported by
# batch_prove --export-snarkjs. Per size and backend: one warm-up run (it checks the key and remembers it in
# the cache folder), then three timed runs (wall time of the whole process, key load and proof verification
# included), alternating backends. Output: table.txt (median and all three runs).
set -u
out=${1:?OUT} name=${2:?name}
mkdir -p /tmp/x/pg && tar xJf stage/bins.txz -C /tmp/x && tar xJf stage/postgres.tar.xz -C /tmp/x/pg
export LD_LIBRARY_PATH=/tmp/x/stage/lib:/tmp/x/pg/lib  # proofline links libpq (its fleet commands)
bin=/tmp/x/stage/bin
work=$(mktemp -d) && mkdir -p "$out/$name"
for log2 in 4 8 12 16 18 20; do
  "$bin/batch_prove" --curve bn254 --synthetic "$log2" --count 1 --export-snarkjs "$work/k$log2" \
    >"$out/$name/export-$log2.log" 2>&1 || echo "export $log2 failed"
done
prove() {  # log2 backend -> seconds
  local start end
  start=$(date +%s%N)
  "$bin/proofline" prove "$work/k$1/circuit.zkey" "$work/k$1/witness-000000.wtns" "$work/p.json" "$work/pub.json" \
    --backend "$2" --cache-dir "$work/cache" >>"$out/$name/prove-$1-$2.log" 2>&1 || echo "prove $1 $2 failed rc=$?" >&2
  end=$(date +%s%N)
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f\n", (b - a) / 1e9 }'
}
{
  echo "| rows | CUDA backend, s (median; runs) | CPU backend, s (median; runs) |"
  echo "|---|---|---|"
  for log2 in 4 8 12 16 18 20; do
    prove "$log2" cuda >/dev/null; prove "$log2" cpu >/dev/null
    gpu=() cpu=()
    for run in 1 2 3; do gpu+=("$(prove "$log2" cuda)"); cpu+=("$(prove "$log2" cpu)"); done
    med() { printf '%s\n' "$@" | sort -n | sed -n 2p; }
    echo "| 2^$log2 | $(med "${gpu[@]}"); ${gpu[*]} | $(med "${cpu[@]}"); ${cpu[*]} |"
  done
} | tee "$out/$name/table.txt"
cd "$out" && tar czf "$name.tgz" "$name" && rm -rf "$name"
