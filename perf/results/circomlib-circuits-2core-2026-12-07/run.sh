#!/usr/bin/env bash
# circomlib's EdDSA-Poseidon verifier (with a Poseidon(4) message hash) and SHA-256 of 512 bits, compiled by
# circom2 at bn128, keys from snarkjs groth16 setup over the known-tau ptau (tests only), proved by
# `proofline batch` from input JSON through the --c and the --wasm generators, every proof checked by
# snarkjs groth16 verify; bad inputs fail their own jobs. Signatures come from circomlibjs (npm, installed into
# WORK). Run from the repository root after building build-cpu and its interop npm folder:
#   perf/results/circomlib-circuits-2core-2026-12-07/run.sh [WORK]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
work=${1:-/tmp/circomlib-circuits}
node_dir=$root/build-cpu/interop/node
proofline=$root/build-cpu/apps/proofline
snarkjs() { node "$node_dir/node_modules/snarkjs/build/cli.cjs" "$@"; }
circom2() { node "$node_dir/node_modules/circom2/cli.js" "$@"; }
export NODE_OPTIONS=--max-old-space-size=8192 XDG_CACHE_HOME=$work/cache
mkdir -p "$work" && cd "$work"
cp "$here"/eddsa.circom "$here"/sha.circom "$here"/sign.cjs .
rm -rf circomlib && mkdir circomlib && cp -r "$node_dir/node_modules/circomlib/circuits" circomlib/
[ -d node_modules/circomlibjs ] || npm install --no-save --prefix . circomlibjs@0.1.7 >npm.log 2>&1
"$root/build-cpu/tests/interop/proofline_test_ptau" 16 pot16.ptau --seed 5 --curve bn128
for c in eddsa sha; do
  circom2 $c.circom --r1cs --wasm --c -o . >/dev/null
  snarkjs r1cs info $c.r1cs | grep Constraints
  snarkjs groth16 setup $c.r1cs pot16.ptau $c.zkey >/dev/null
  snarkjs zkey export verificationkey $c.zkey ${c}_vk.json >/dev/null
done
node sign.cjs  # eddsa_in0..3.json: four keys, four messages, their signatures
node -e 'const fs=require("fs");
  const bad=JSON.parse(fs.readFileSync("eddsa_in1.json")); bad.S=(BigInt(bad.S)+1n).toString();
  fs.writeFileSync("eddsa_bad.json", JSON.stringify(bad));
  for (let k=0;k<3;k++) fs.writeFileSync(`sha_in${k}.json`, JSON.stringify({in: Array.from({length:512},
    () => String(Math.random() < 0.5 ? 0 : 1))}));'
verify_all() {  # verify_all CIRCUIT OUTDIR NAMES...
  local c=$1 dir=$2 n
  shift 2
  for n in "$@"; do snarkjs groth16 verify ${c}_vk.json "$dir/$n.public.json" "$dir/$n.proof.json" | grep -q "OK!" ||
    { echo "snarkjs rejected $dir/$n"; exit 1; }; done
  echo "$c $dir: snarkjs verified $*"
}
for g in cpp js; do
  rm -rf out-eddsa-$g out-sha-$g
  /usr/bin/time -f "eddsa_$g: %e s (generator build included)" "$proofline" batch eddsa.zkey --circuit eddsa_$g \
    --input eddsa_in0.json eddsa_in1.json eddsa_bad.json eddsa_in2.json eddsa_in3.json --out out-eddsa-$g \
    --no-progress || echo "exit $? (eddsa_bad.json fails its own job)"
  verify_all eddsa out-eddsa-$g eddsa_in0 eddsa_in1 eddsa_in2 eddsa_in3
  /usr/bin/time -f "sha_$g: %e s (generator build included)" "$proofline" batch sha.zkey --circuit sha_$g \
    --input sha_in0.json sha_in1.json sha_in2.json --out out-sha-$g --no-progress
  verify_all sha out-sha-$g sha_in0 sha_in1 sha_in2
  cmp out-sha-cpp/sha_in1.public.json out-sha-$g/sha_in1.public.json
done
echo "every proof verified by snarkjs"
