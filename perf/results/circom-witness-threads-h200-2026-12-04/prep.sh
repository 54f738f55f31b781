#!/usr/bin/env bash
# Makes what run.sh proves, on the build machine: heavy.circom compiled for bn128 (--c), a snarkjs Groth16 key from
# a fresh 2^16 powers-of-tau, 512 input files, the circuit's generator built once into a cache folder, and the
# proofline binary with the libraries it loads, packed as stage/circom.txz.
#   prep.sh NODE_BIN BUILD_DIR      # NODE_BIN: a folder with circom2 and snarkjs (npm); BUILD_DIR: a CUDA build
set -euo pipefail
node_bin=${1:?NODE_BIN} build=$(realpath "${2:?BUILD_DIR}")
here=$(dirname "$(realpath "$0")") root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
work=$(mktemp -d) && cd "$work" && mkdir -p cg/bin cg/lib cg/inputs cg/cache
cp "$here/heavy.circom" cg/
"$node_bin/circom2" cg/heavy.circom --r1cs --c -o cg >/dev/null
"$node_bin/snarkjs" powersoftau new bn128 16 pot0.ptau >/dev/null
"$node_bin/snarkjs" powersoftau prepare phase2 pot0.ptau pot.ptau >/dev/null
"$node_bin/snarkjs" groth16 setup cg/heavy.r1cs pot.ptau cg/heavy.zkey >/dev/null
"$node_bin/snarkjs" zkey export verificationkey cg/heavy.zkey cg/vk.json >/dev/null
rm cg/heavy.r1cs
python3 - <<'PY'
import random
random.seed(7)
for i in range(512):
    with open(f"cg/inputs/in{i:04d}.json", "w") as f:
        f.write('{"x": "%d", "k": "%d"}\n' % (random.getrandbits(120), random.randrange(1, 1000)))
PY
strip -o cg/bin/proofline "$build/apps/proofline"
# Every library it loads but the C runtime (the GPU machine's is newer) and CUDA's: libpq and its own too.
ldd "$build/apps/proofline" | awk '/=> \// {print $3}' |
  grep -vE '/(libc|libm|libdl|libpthread|librt|libresolv|libstdc\+\+|libgcc_s|ld-linux[^/]*)\.so|libcuda' |
  while read -r lib; do cp -L "$lib" cg/lib/; done
cg/bin/proofline witness --circuit cg/heavy_cpp --input cg/inputs/in0000.json --out w --cache-dir cg/cache >/dev/null
mkdir -p "$root/stage" && tar cJf "$root/stage/circom.txz" cg && rm -rf "$work"
du -h "$root/stage/circom.txz"
