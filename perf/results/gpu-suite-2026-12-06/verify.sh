#!/usr/bin/env bash
# snarkjs verifies each proof the GPU made (gpu-proofs/NAME.proof.json, .public.json) with its circuit's
# verification key (NAME.vk.json, exported by snarkjs from the key the GPU proved with).
set -u
B=${NODE_BIN:-$(cd "$(dirname "$0")/../../.." && pwd)/build-cpu/interop/node/node_modules/.bin}
cd "$(dirname "$0")/gpu-proofs"
for vk in *.vk.json; do
  n=${vk%.vk.json}
  echo "$n: $("$B/snarkjs" groth16 verify "$vk" "$n.public.json" "$n.proof.json" 2>&1 | grep -o 'OK!\|Invalid proof')"
done
