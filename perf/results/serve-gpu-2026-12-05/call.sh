#!/usr/bin/env bash
# proofline serve on the GPU: a BN254 2^20 key exported by batch_prove (known trapdoor, test only) with 128
# witnesses; the same witnesses proven once as a batch (batch_prove --zkey --wtns, every proof verified), then
# posted to `proofline serve --backend cuda` by perf/serve_load.py with 1, 4, 16 and 32 clients, 128 requests each
# (every answer's proof is verified by the server before it is sent; the 16-client answers are kept for
# snarkjs). Usage: call.sh OUT (run from the repository root with stage/bins.txz beside it).
set -u
out=${1:?OUT}
mkdir -p /tmp/x && tar xJf stage/bins.txz -C /tmp/x
export LD_LIBRARY_PATH=/tmp/x/stage/lib
bin=/tmp/x/stage/bin
start=$SECONDS
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader >"$out/gpu.txt"
"$bin/batch_prove" --synthetic 20 --curve bn254 --count 128 --export-snarkjs /tmp/e >"$out/export.log" 2>&1
echo "export rc=$? t=$((SECONDS - start))"
cp /tmp/e/verification_key.json "$out/"
timeout 200 "$bin/batch_prove" --zkey /tmp/e/circuit.zkey --wtns /tmp/e/witness-*.wtns --verify --no-progress \
  --report "$out/batch.json" >"$out/batch.log" 2>&1
echo "batch rc=$? $(grep -o 'wall [0-9.]* s, [0-9.]* proofs/s' "$out/batch.log") t=$((SECONDS - start))"
"$bin/proofline" serve /tmp/e/circuit.zkey --listen 127.0.0.1:0 --backend cuda >/tmp/serve.out 2>"$out/serve.err" &
server=$!
for _ in $(seq 240); do grep -q listening /tmp/serve.out && break; sleep 0.5; done
url=$(grep -o 'http://[0-9.:]*' /tmp/serve.out)
echo "serve up at ${url:-nowhere} t=$((SECONDS - start))"
echo "| run | requests | clients | proved | wall s | proofs/s | latency median s | p90 s | max s | statuses |" >"$out/load.md"
echo "|---|---|---|---|---|---|---|---|---|---|" >>"$out/load.md"
for clients in 1 4 16 32; do
  keep=()
  [ "$clients" = 16 ] && keep=(--out "$out/proofs")
  timeout 150 python3 perf/serve_load.py "$url" circuit /tmp/e/witness-*.wtns --clients "$clients" --requests 128 \
    --label "bn254 2^20" --json "$out/load-c$clients.json" "${keep[@]}" >>"$out/load.md" 2>>"$out/load.err"
  echo "load c=$clients rc=$? t=$((SECONDS - start))"
done
python3 -c "import urllib.request,sys; sys.stdout.write(urllib.request.urlopen('$url/metrics').read().decode())" \
  >"$out/metrics.txt" 2>&1
kill -TERM "$server"
wait "$server"
echo "serve exit $? t=$((SECONDS - start))"
cat "$out/load.md"
cat /tmp/x/stage/COMMIT
# Many small files: one archive comes back.
cd "$out" && tar czf run.tgz --remove-files proofs metrics.txt serve.err load.err load.md *.json *.log gpu.txt
