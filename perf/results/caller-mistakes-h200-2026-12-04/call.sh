#!/usr/bin/env bash
# After the embedding and CLI hardening (first proof of each key verified, a, b, c from callbacks verified,
# add_key outside the budget's queue): the whole GPU suite, then batch_prove BLS12-381 2^22 x48 live and
# presynthesized in one process and 2^20 x256 presynthesized, every proof verified.
set -u
out=${1:?OUT} name=${2:?name}
mkdir -p /tmp/x && tar xJf stage/bins.txz -C /tmp/x
export LD_LIBRARY_PATH=/tmp/x/stage/lib
mkdir -p "$out/$name" /tmp/kc
start=$SECONDS
timeout 330 /tmp/x/stage/bin/proofline_gpu_tests >"$out/$name/gpu_tests.log" 2>&1
echo "gpu tests rc=$? $(tail -3 "$out/$name/gpu_tests.log" | head -2 | tr '\n' ' ') t=$((SECONDS - start))"
for run in "22:48:pinned,pinned:pre" "20:256:pinned:pre"; do
  IFS=: read -r size count modes <<<"$run"
  timeout 100 /tmp/x/stage/bin/batch_prove --verify --no-progress --log-level info --key-cache /tmp/kc \
    --mode "$modes" --synthetic "$size" --count "$count" --report "$out/$name/b$size.json" >"$out/$name/b$size.log" 2>&1
  echo "b$size rc=$? $(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' "$out/$name/b$size.log" | tr '\n' ' ') t=$((SECONDS - start))"
done
cat /tmp/x/stage/COMMIT
cd "$out" && tar czf "$name.tgz" "$name" && rm -rf "$name"
