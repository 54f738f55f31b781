#!/usr/bin/env bash
# Witness generation alone for one circuit of a few thousand constraints (three of circomlib's
# MiMCSponge(2, 220, 1) chained: 3960 constraints, bn128): proofline witness from circom's --wasm output
# (wasm2c) and from its --c output, and snarkjs wtns calculate, each repeated RUNS times (median reported).
# Also the first (uncached) build of each generator.
#
#   perf/circom_wasm_witness.sh BUILD_DIR [INPUTS=64] [RUNS=5]
#
# proofline: one process computing INPUTS witnesses (its own report of the witness time, and the process's wall
# time with the generator loaded from the cache). snarkjs: one `snarkjs wtns calculate` per input, as a script
# runs it (node's start included), timed for one input; and INPUTS witnesses in one node process through
# witness_calculator.js (no start-up). The .wtns files are checked equal byte for byte.
set -euo pipefail
build=$(cd "${1:?usage: circom_wasm_witness.sh BUILD_DIR [INPUTS] [RUNS]}" && pwd)
inputs=${2:-64} runs=${3:-5}
node_dir=$build/interop/node
proofline=$build/apps/proofline
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
cat >mimc.circom <<'C'
pragma circom 2.0.0;
include "circomlib/circuits/mimcsponge.circom";
template M() {
  signal input a; signal input b; signal input k; signal output h;
  component m[3];
  for (var i = 0; i < 3; i++) {
    m[i] = MiMCSponge(2, 220, 1);
    m[i].ins[1] <== b; m[i].k <== k;
  }
  m[0].ins[0] <== a; m[1].ins[0] <== m[0].outs[0]; m[2].ins[0] <== m[1].outs[0];
  h <== m[2].outs[0];
}
component main {public [k]} = M();
C
mkdir circomlib && cp -r "$node_dir/node_modules/circomlib/circuits" circomlib/  # circom2 reads below . only
node "$node_dir/node_modules/circom2/cli.js" mimc.circom --c --wasm --r1cs -o . |
  grep -E "constraints|wires"
mkdir in
for i in $(seq 1 "$inputs"); do echo "{\"a\": \"$i\", \"b\": \"$((i * 7))\", \"k\": \"$((i + 3))\"}" >"in/i$i.json"; done
median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
now() { date +%s.%N; }
for kind in js cpp; do
  start=$(now)
  "$proofline" witness --circuit mimc_$kind --input in/i1.json --out first-$kind --cache-dir cache >/dev/null
  echo "first build + 1 witness, --circuit mimc_$kind: $(echo "$(now) - $start" | bc) s"
done
for kind in js cpp; do
  reported=() walls=()
  for r in $(seq 1 "$runs"); do
    rm -rf "out-$kind"
    start=$(now)
    said=$("$proofline" witness --circuit mimc_$kind --input in/*.json --out "out-$kind" --cache-dir cache)
    walls+=("$(echo "$(now) - $start" | bc)")
    reported+=("$(echo "$said" | sed -n 's/.* in \([0-9.]*\) s.*/\1/p')")
  done
  echo "proofline witness --circuit mimc_$kind, $inputs inputs: witnesses $(printf '%s\n' "${reported[@]}" | median) s, process $(printf '%s\n' "${walls[@]}" | median) s (median of $runs)"
done
for f in out-js/*.wtns; do cmp "$f" "out-cpp/$(basename "$f")"; done
walls=()
for r in $(seq 1 "$runs"); do
  start=$(now)
  node "$node_dir/node_modules/snarkjs/build/cli.cjs" wtns calculate mimc_js/mimc.wasm in/i1.json snarkjs.wtns
  walls+=("$(echo "$(now) - $start" | bc)")
done
cmp snarkjs.wtns out-js/i1.wtns
echo "snarkjs wtns calculate, 1 input: $(printf '%s\n' "${walls[@]}" | median) s (median of $runs)"
cat >loop.js <<'J'
const fs = require("fs");
const builder = require(process.argv[2] + "/witness_calculator.js");
(async () => {
  const wc = await builder(fs.readFileSync(process.argv[2] + "/mimc.wasm"));
  const start = process.hrtime.bigint();
  for (const f of process.argv.slice(3)) await wc.calculateWTNSBin(JSON.parse(fs.readFileSync(f)), 0);
  console.log(Number(process.hrtime.bigint() - start) / 1e9);
})();
J
walls=()
for r in $(seq 1 "$runs"); do walls+=("$(node loop.js "$work/mimc_js" in/*.json)"); done
echo "witness_calculator.js in one node process, $inputs inputs: $(printf '%s\n' "${walls[@]}" | median) s (median of $runs)"
