#!/usr/bin/env bash
# From circom input JSON to verified proofs: proofline (witnesses computed in-process by the circuit's circom
# --c generator, key loaded once, every proof verified before it is written) against what a snarkjs user runs
# per input (node generate_witness.js, then snarkjs groth16 prove). Also witness generation alone: proofline
# witness (in-process, parallel) against node generate_witness.js (WebAssembly) per input.
#
#   perf/circom_vs_snarkjs.sh BUILD_DIR [OUT_DIR]
#
# One circuit of 2^15 constraints (tests/interop/circuits/chain.circom at 32000 links, compiled with --prime
# bls12381), a key from the known-tau ptau (tests only), 64 random inputs (COUNT); proofline's time includes
# reading the key with its full check. snarkjs proves a subset of
# SNARKJS_COUNT inputs (default 8: its per-proof time is constant, so the 64-input time is that times 8) and
# says so in the table. Needs node and the npm tools (tests/interop/setup.sh installs them into BUILD_DIR).
# Writes OUT_DIR/table.md (default perf/results/circom-cpu-DATE/) and the logs beside it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
build=$(cd "${1:?usage: circom_vs_snarkjs.sh BUILD_DIR [OUT_DIR]}" && pwd)
out=${2:-$root/perf/results/circom-cpu-$(date -u +%Y-%m-%d)}
count=${COUNT:-64}
snarkjs_count=${SNARKJS_COUNT:-8}
links=${LINKS:-32000}
node_dir=$build/interop/node
work=$build/circom-perf
mkdir -p "$out" "$work"
out=$(cd "$out" && pwd)
"$root/tests/interop/setup.sh" "$node_dir" >/dev/null
snarkjs() { node "$node_dir/node_modules/snarkjs/build/cli.cjs" "$@"; }
circom2() { node "$node_dir/node_modules/circom2/cli.js" "$@"; }
now() { date +%s.%N; }
elapsed() { echo "$2 - $1" | bc -l; }
log() { echo "circom_vs_snarkjs: $*" | tee -a "$out/run.log"; }

# A fresh cache of checked keys: proofline checks the key in full, as for a key it sees the first time.
XDG_CACHE_HOME=$(mktemp -d)
export XDG_CACHE_HOME
trap 'rm -rf "$XDG_CACHE_HOME"' EXIT
cd "$work"
if [ ! -f .keys-$links ]; then
  sed "s/CHAIN_LENGTH/$links/" "$root/tests/interop/circuits/chain.circom" >chain.circom
  circom2 chain.circom --c --wasm --r1cs --prime bls12381 -o . >circom.log
  "$build/tests/interop/proofline_test_ptau" 15 pot.ptau --seed 5
  snarkjs groth16 setup chain.r1cs pot.ptau key.zkey >setup.log
  snarkjs zkey export verificationkey key.zkey vk.json >/dev/null
  touch .keys-$links
fi
rm -rf inputs && mkdir inputs
for i in $(seq 1 "$count"); do
  printf '{"a": "%d", "b": "%d"}\n' $((RANDOM * 32768 + RANDOM + 2)) $((RANDOM + 1)) >"inputs/in$i.json"
done
constraints=$(snarkjs r1cs info chain.r1cs | sed -n 's/.*# of Constraints: *//p')
log "circuit: chain of $links links, $constraints constraints; $count inputs; $(nproc) CPU threads"

# The generator is built once and cached; a first run outside the timing builds it.
cache=$work/generator-cache
"$build/apps/proofline" witness --circuit chain_cpp --input inputs/in1.json --out warm --cache-dir "$cache" >/dev/null

rm -rf wtns-proofline
t0=$(now)
"$build/apps/proofline" witness --circuit chain_cpp --input inputs/*.json --out wtns-proofline \
  --cache-dir "$cache" | tee -a "$out/run.log"
pl_witness=$(elapsed "$t0" "$(now)")

rm -rf wtns-node && mkdir wtns-node
t0=$(now)
for i in $(seq 1 "$count"); do
  node chain_js/generate_witness.js chain_js/chain.wasm "inputs/in$i.json" "wtns-node/in$i.wtns"
done
node_witness=$(elapsed "$t0" "$(now)")
cmp wtns-node/in1.wtns wtns-proofline/in1.wtns && log "in1.wtns: proofline's and node's witness files are identical"

rm -rf proofs-proofline
t0=$(now)
"$build/apps/proofline" batch key.zkey --circuit chain_cpp --input inputs/*.json --out proofs-proofline \
  --cache-dir "$cache" --backend cpu --no-progress --report "$out/proofline-report.json" | tee -a "$out/run.log"
pl_prove=$(elapsed "$t0" "$(now)")
snarkjs groth16 verify vk.json proofs-proofline/in1.public.json proofs-proofline/in1.proof.json | tee -a "$out/run.log"

rm -rf proofs-snarkjs && mkdir proofs-snarkjs
t0=$(now)
for i in $(seq 1 "$snarkjs_count"); do
  node chain_js/generate_witness.js chain_js/chain.wasm "inputs/in$i.json" "proofs-snarkjs/in$i.wtns"
  snarkjs groth16 prove key.zkey "proofs-snarkjs/in$i.wtns" "proofs-snarkjs/in$i.proof.json" \
    "proofs-snarkjs/in$i.public.json"
done
sj_subset=$(elapsed "$t0" "$(now)")
sj_prove=$(echo "$sj_subset * $count / $snarkjs_count" | bc -l)
cmp <(node -e 'console.log(JSON.stringify(JSON.parse(require("fs").readFileSync(process.argv[1]))))' \
  proofs-snarkjs/in1.public.json) \
  <(node -e 'console.log(JSON.stringify(JSON.parse(require("fs").readFileSync(process.argv[1]))))' \
    proofs-proofline/in1.public.json) && log "in1: the same public signals from both"

f() { printf '%.2f' "$1"; }
{
  echo "# circom input JSON to verified proofs: proofline vs snarkjs ($(date -u +%Y-%m-%d), $(nproc) CPU threads, no GPU)"
  echo
  echo "Circuit: tests/interop/circuits/chain.circom with $links links ($constraints constraints, domain 2^15),"
  echo "--prime bls12381; $count inputs. proofline: CPU backend, one process, key loaded once, every proof verified"
  echo "before it is written. snarkjs 0.7.6: node generate_witness.js + snarkjs groth16 prove per input, timed on"
  echo "$snarkjs_count inputs and scaled to $count (each proof costs the same)."
  echo
  echo "| step, $count inputs | proofline | snarkjs / node | speed-up |"
  echo "|---|---|---|---|"
  echo "| witnesses only (.wtns files) | $(f "$pl_witness") s (in-process, parallel) | $(f "$node_witness") s (WASM, node per input) | $(f "$(echo "$node_witness / $pl_witness" | bc -l)")x |"
  echo "| input JSON to verified proofs | $(f "$pl_prove") s | $(f "$sj_prove") s ($snarkjs_count timed: $(f "$sj_subset") s) | $(f "$(echo "$sj_prove / $pl_prove" | bc -l)")x |"
  echo "| per proof | $(f "$(echo "$pl_prove / $count" | bc -l)") s | $(f "$(echo "$sj_subset / $snarkjs_count" | bc -l)") s | |"
} >"$out/table.md"
cat "$out/table.md"
