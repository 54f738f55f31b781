#!/usr/bin/env bash
# snarkjs vs proofline (CPU backend) on the same circom circuits, keys and witnesses, in one run on this machine.
#
#   perf/snarkjs_vs_proofline.sh [BUILD_DIR] [LOG2 ...]        (default: build-cpu, 12 14 16)
#
# For each N = 2^LOG2: a multiplication chain of N constraints (tests/interop/circuits/chain.circom) compiled with
# circom2 --prime bls12381, its witness from snarkjs, a prepared ptau of power LOG2 + 1 from our known-tau writer
# (proofline_test_ptau; TESTS ONLY: snarkjs's own prepare phase 2 would take hours at power 17), and the key from
# `snarkjs groth16 setup` (not contributed: δ = 1 changes nothing in the timing). Then, on that key and witness:
#   snarkjs CLI   `snarkjs groth16 prove` wall time, 3 runs (Node start and curve set-up included)
#   snarkjs warm  the second of two in-process snarkjs.groth16.prove calls
#   proofline     bench_snarkjs: the CPU prover's time per proof (median of 3; key already in memory), and the
#                 .zkey read time with full point checks
#   batch_prove   `batch_prove --backend cpu --zkey --wtns` wall time for one proof (process start, key read with
#                 full point checks, pipeline) — the like-for-like CLI number
# Every proof is checked: snarkjs verifies proofline's, bench_snarkjs verifies its own.
# Prints a table and writes BUILD_DIR/perf-snarkjs/results.json. Needs node and npm (tests/interop/setup.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build-cpu}" && pwd)
shift || true
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(12 14 16)
work=$build/perf-snarkjs
node_dir=$build/interop/node
for tool in batch_prove bench_snarkjs proofline_test_ptau; do
  path=$(find "$build" -name "$tool" -type f -perm -u+x | head -1)
  [ -n "$path" ] || { echo "snarkjs_vs_proofline: $tool is not built in $build" >&2; exit 1; }
  declare "bin_$tool=$path"
done
"$root/tests/interop/setup.sh" "$node_dir"
export NODE_OPTIONS=--max-old-space-size=16384
snarkjs() { node "$node_dir/node_modules/snarkjs/build/cli.cjs" "$@"; }
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }
mkdir -p "$work"
cat >"$node_dir/warm_prove.mjs" <<'JS'
// Two in-process proofs; prints the second one's seconds (the first builds the curve and the workers).
import * as snarkjs from "snarkjs";
const [zkey, wtns] = process.argv.slice(2);
let t = 0;
for (let i = 0; i < 2; ++i) {
  const start = process.hrtime.bigint();
  await snarkjs.groth16.prove(zkey, wtns);
  t = Number(process.hrtime.bigint() - start) / 1e9;
}
console.log(t.toFixed(2));
process.exit(0);
JS

results=()
echo "snarkjs_vs_proofline: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), sizes ${sizes[*]}"
for k in "${sizes[@]}"; do
  n=$((1 << k))
  power=$((k + 1))
  dir=$work/chain_$k
  mkdir -p "$dir"
  cd "$dir"
  if [ ! -f key.zkey ]; then
    sed "s/CHAIN_LENGTH/$n/" "$root/tests/interop/circuits/chain.circom" >chain.circom
    t=$(now); node "$node_dir/node_modules/circom2/cli.js" chain.circom --r1cs --wasm --prime bls12381 -o . >/dev/null
    echo "  2^$k: circom2 compile $(elapsed "$t") s"
    echo '{"a": "3", "b": "7"}' >input.json
    snarkjs wtns calculate chain_js/chain.wasm input.json witness.wtns >/dev/null
    t=$(now); "$bin_proofline_test_ptau" "$power" pot.ptau --seed 11 >/dev/null
    echo "  2^$k: known-tau ptau (power $power) $(elapsed "$t") s"
    t=$(now); snarkjs groth16 setup chain.r1cs pot.ptau key.zkey >/dev/null
    echo "  2^$k: snarkjs groth16 setup $(elapsed "$t") s"
    snarkjs zkey export verificationkey key.zkey vk.json >/dev/null
    rm -f pot.ptau
  fi
  cli=()
  for run in 1 2 3; do
    t=$(now); snarkjs groth16 prove key.zkey witness.wtns snarkjs.proof.json snarkjs.public.json >/dev/null
    cli+=("$(elapsed "$t")")
  done
  snarkjs groth16 verify vk.json snarkjs.public.json snarkjs.proof.json | grep -q "OK" || { echo "snarkjs's own proof failed" >&2; exit 1; }
  warm=$(cd "$node_dir" && node warm_prove.mjs "$dir/key.zkey" "$dir/witness.wtns")
  mkdir -p out
  "$bin_bench_snarkjs" --zkey key.zkey --wtns witness.wtns --runs 3 --json proofline.json --proof-out out >/dev/null
  snarkjs groth16 verify vk.json out/proofline.public.json out/proofline.proof.json | grep -q "OK" ||
    { echo "snarkjs rejected proofline's proof at 2^$k" >&2; exit 1; }
  t=$(now); "$bin_batch_prove" --backend cpu --no-progress --zkey key.zkey --wtns witness.wtns --out out >/dev/null
  batch=$(elapsed "$t")
  snarkjs groth16 verify vk.json out/witness.public.json out/witness.proof.json | grep -q "OK" ||
    { echo "snarkjs rejected batch_prove's proof at 2^$k" >&2; exit 1; }
  cli_sorted=$(printf '%s\n' "${cli[@]}" | sort -n | tr '\n' ' ')
  cli_median=$(printf '%s\n' "${cli[@]}" | sort -n | sed -n 2p)
  results+=("{\"log2_constraints\": $k, \"constraints\": $n, \"snarkjs_cli_s\": [${cli_sorted// /, }], \"snarkjs_cli_median_s\": $cli_median, \"snarkjs_warm_s\": $warm, \"batch_prove_cli_s\": $batch, \"proofline\": $(cat proofline.json)}")
  echo "  2^$k: snarkjs CLI ${cli_sorted}s, warm ${warm} s; proofline $(cat proofline.json | sed 's/.*"prove_median_s": \([0-9.e-]*\).*/\1/') s; batch_prove ${batch} s"
done

json="$work/results.json"
{
  echo "{\"machine\": {\"cores\": $(nproc), \"loadavg\": \"$(cut -d' ' -f1-3 /proc/loadavg)\"}, \"rows\": ["
  for i in "${!results[@]}"; do
    [ "$i" -gt 0 ] && echo ","
    printf '%s' "${results[$i]}"
  done
  echo "]}"
} | sed 's/, ]/]/' >"$json"
python3 - "$json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print()
print("| constraints | snarkjs CLI (median of 3) | snarkjs warm | proofline prove (median of 3) | speed-up (warm) | batch_prove CLI | zkey read (full checks) |")
print("|---|---|---|---|---|---|---|")
for r in d["rows"]:
    p = r["proofline"]
    print(f"| 2^{r['log2_constraints']} | {r['snarkjs_cli_median_s']:.2f} s | {r['snarkjs_warm_s']:.2f} s | "
          f"{p['prove_median_s']:.2f} s | {r['snarkjs_warm_s'] / p['prove_median_s']:.1f}x | "
          f"{r['batch_prove_cli_s']:.2f} s | {p['zkey_read_full_s']:.2f} s |")
print()
print(f"JSON: {sys.argv[1]}")
PY
