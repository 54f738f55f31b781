#!/usr/bin/env bash
# snarkjs vs proofline (CPU prover) on the same circom circuits, keys and witnesses, in one run on this machine.
#
#   perf/snarkjs_vs_proofline.sh [--prime bn128|bls12381] [--runs R] [--node-dir DIR] [BUILD_DIR] [LOG2 ...]
#
# Defaults: bn128 (circom's default prime), 3 runs, NODE_DIR = BUILD_DIR/interop/node (tests/interop/setup.sh
# installs snarkjs and circom2 there, or finds them installed), BUILD_DIR = build-cpu, sizes 12 14 16.
#
# For each N = 2^LOG2: a multiplication chain of N constraints (tests/interop/circuits/chain.circom) compiled with
# circom2 --prime PRIME, its witness from snarkjs, a prepared ptau of power LOG2 + 1 and the key from
# `snarkjs groth16 setup` (not contributed: δ = 1 changes nothing in the timing). The ptau comes from our
# known-tau writer (proofline_test_ptau --curve PRIME; TESTS ONLY: byte for byte what snarkjs's prepare phase 2
# makes for that τ, which snarkjs itself takes minutes to hours to compute at power 17), one per size.
# Then, on that key and witness, R times, interleaved (snarkjs, proofline, snarkjs, proofline, ...):
#   snarkjs       `snarkjs groth16 prove` wall time: Node start, curve set-up, reading the .zkey and .wtns, proof
#   proofline     one bench_snarkjs process (--runs 1 --no-key-cache): its .zkey read with full point checks
#                 (every subgroup checked, as on a first load) plus its .wtns read = "load"; the first proof in
#                 that process = "prove"; total = load + prove. The on-curve read (coordinates and curve
#                 equations, no subgroups: about what a load costs once the checked-key cache knows the key) is
#                 shown too, and the trusted-level read is recorded in the JSON.
# plus, once per size, snarkjs warm (the second of two in-process snarkjs.groth16.prove calls) and, when
# batch_prove is built, `batch_prove --backend cpu` wall time for one proof. Medians over the R runs. Every
# proof is checked: snarkjs verifies its own and one of proofline's per size (and batch_prove's), bench_snarkjs
# verifies each of its own.
# Prints a table and writes BUILD_DIR/perf-snarkjs/results-PRIME.json (per-run figures included).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
prime=bn128
runs=3
node_dir=
while [ $# -gt 0 ]; do
  case "$1" in
    --prime) prime=${2:?}; shift 2 ;;
    --runs) runs=${2:?}; shift 2 ;;
    --node-dir) node_dir=$(mkdir -p "${2:?}" && cd "$2" && pwd); shift 2 ;;
    *) break ;;
  esac
done
case "$prime" in bn128 | bls12381) ;; *) echo "snarkjs_vs_proofline: --prime bn128 or bls12381" >&2; exit 1 ;; esac
[ "$runs" -ge 1 ] 2>/dev/null || { echo "snarkjs_vs_proofline: --runs wants a count" >&2; exit 1; }
build=$(cd "${1:-$root/build-cpu}" && pwd)
shift || true
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(12 14 16)
work=$build/perf-snarkjs
[ -n "$node_dir" ] || node_dir=$build/interop/node
find_tool() { find "$build" -name "$1" -type f -perm -u+x | head -1; }
bin_bench=$(find_tool bench_snarkjs)
[ -n "$bin_bench" ] || { echo "snarkjs_vs_proofline: bench_snarkjs is not built in $build" >&2; exit 1; }
bin_ptau=$(find_tool proofline_test_ptau)
[ -n "$bin_ptau" ] ||
  { echo "snarkjs_vs_proofline: proofline_test_ptau is not built in $build" >&2; exit 1; }
bin_batch=$(find_tool batch_prove)
"$root/tests/interop/setup.sh" "$node_dir"
export NODE_OPTIONS=--max-old-space-size=16384
snarkjs() { node "$node_dir/node_modules/snarkjs/build/cli.cjs" "$@"; }
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }'; }
loadavg() { cut -d' ' -f1-3 /proc/loadavg; }
mkdir -p "$work/$prime"
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
console.log(t.toFixed(3));
process.exit(0);
JS

# Circuit, witness, key and verifying key for 2^$1 constraints in the current directory, each unless made before.
make_key() {
  local k=$1 n=$((1 << $1)) power=$(($1 + 1)) t
  if [ ! -f witness.wtns ]; then
    sed "s/CHAIN_LENGTH/$n/" "$root/tests/interop/circuits/chain.circom" >chain.circom
    t=$(now); node "$node_dir/node_modules/circom2/cli.js" chain.circom --r1cs --wasm --prime "$prime" -o . >/dev/null
    echo "  2^$k: circom2 compile $(elapsed "$t") s"
    echo '{"a": "3", "b": "7"}' >input.json
    snarkjs wtns calculate chain_js/chain.wasm input.json witness.wtns.tmp >/dev/null && mv witness.wtns.tmp witness.wtns
  fi
  [ -f key.zkey ] && return
  t=$(now); "$bin_ptau" "$power" pot.ptau --seed 11 --curve "$prime" >/dev/null
  echo "  2^$k: known-tau ptau (power $power) $(elapsed "$t") s"
  t=$(now); snarkjs groth16 setup chain.r1cs pot.ptau key.zkey.tmp >/dev/null && mv key.zkey.tmp key.zkey
  echo "  2^$k: snarkjs groth16 setup $(elapsed "$t") s"
  snarkjs zkey export verificationkey key.zkey vk.json >/dev/null
  rm -f pot.ptau
}

# snarkjs verify $1 (public) $2 (proof) or fail naming $3.
check() { snarkjs groth16 verify vk.json "$1" "$2" | grep -q "OK" || { echo "snarkjs rejected $3" >&2; exit 1; }; }

load_before=$(loadavg)
echo "snarkjs_vs_proofline: $prime, $(nproc) cores, load $load_before, sizes ${sizes[*]}, $runs runs"
rows=()
for k in "${sizes[@]}"; do
  dir=$work/$prime/chain_$k
  mkdir -p "$dir/out"
  cd "$dir"
  make_key "$k"
  cli=() ours=()
  for run in $(seq 1 "$runs"); do
    t=$(now); snarkjs groth16 prove key.zkey witness.wtns snarkjs.proof.json snarkjs.public.json >/dev/null
    cli+=("$(elapsed "$t")")
    "$bin_bench" --zkey key.zkey --wtns witness.wtns --runs 1 --no-key-cache --json "proofline.$run.json" \
      --proof-out out >/dev/null
    ours+=("$(cat "proofline.$run.json")")
    [ "$run" -gt 1 ] || check out/proofline.public.json out/proofline.proof.json "proofline's proof at 2^$k"
  done
  check snarkjs.public.json snarkjs.proof.json "its own proof at 2^$k"
  warm=$(cd "$node_dir" && node warm_prove.mjs "$dir/key.zkey" "$dir/witness.wtns")
  batch=null
  if [ -n "$bin_batch" ]; then
    t=$(now); "$bin_batch" --backend cpu --no-progress --zkey key.zkey --wtns witness.wtns --out out >/dev/null
    batch=$(elapsed "$t")
    check out/witness.public.json out/witness.proof.json "batch_prove's proof at 2^$k"
  fi
  row="{\"log2_constraints\": $k, \"constraints\": $((1 << k)), \"snarkjs_cli_s\": [$(IFS=,; echo "${cli[*]}")],"
  row+=" \"snarkjs_warm_s\": $warm, \"batch_prove_cli_s\": $batch, \"proofline_runs\": [$(IFS=,; echo "${ours[*]}")]}"
  rows+=("$row")
  echo "  2^$k: snarkjs CLI ${cli[*]} s, warm $warm s; proofline runs done"
done

json="$work/results-$prime.json"
{
  echo "{\"prime\": \"$prime\", \"runs\": $runs, \"machine\": {\"cores\": $(nproc), \"loadavg_before\": \"$load_before\","
  echo " \"loadavg_after\": \"$(loadavg)\"}, \"rows\": ["
  (IFS=,; echo "${rows[*]}")
  echo "]}"
} >"$json"
python3 - "$json" <<'PY'
import json, statistics, sys
d = json.load(open(sys.argv[1]))
med = statistics.median
print()
print(f"{d['prime']}, medians of {d['runs']} interleaved runs; load {d['machine']['loadavg_before']} -> "
      f"{d['machine']['loadavg_after']}")
print("| constraints | snarkjs prove (CLI) | proofline load (full checks) | proofline prove | proofline total "
      "| snarkjs / proofline | load (on-curve) | total (on-curve load) | snarkjs / that | snarkjs warm "
      "| batch_prove CLI |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for r in d["rows"]:
    p = r["proofline_runs"]
    load = med([x["zkey_read_full_s"] + x["wtns_read_s"] for x in p])
    prove = med([x["prove_runs_s"][0] for x in p])
    total = med([x["zkey_read_full_s"] + x["wtns_read_s"] + x["prove_runs_s"][0] for x in p])
    light = med([x["zkey_read_curve_s"] + x["wtns_read_s"] for x in p])
    light_total = med([x["zkey_read_curve_s"] + x["wtns_read_s"] + x["prove_runs_s"][0] for x in p])
    cli = med(r["snarkjs_cli_s"])
    batch = "-" if r["batch_prove_cli_s"] is None else f"{r['batch_prove_cli_s']:.2f} s"
    print(f"| 2^{r['log2_constraints']} | {cli:.2f} s | {load:.2f} s | {prove:.2f} s | {total:.2f} s | "
          f"{cli / total:.2f}x | {light:.2f} s | {light_total:.2f} s | {cli / light_total:.1f}x | "
          f"{r['snarkjs_warm_s']:.2f} s | {batch} |")
print()
print(f"JSON: {sys.argv[1]}")
PY
