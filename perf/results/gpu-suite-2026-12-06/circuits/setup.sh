#!/usr/bin/env bash
# setup.sh NAME PRIME POWER [circom flags], run in this folder: compiles NAME.circom with circom2, makes a
# ptau (snarkjs's ceremony, one contribution) and a key (setup plus one contribution), the witness of NAME.json,
# and snarkjs's own proof, verified. SRC (another .circom), LEN (its LEN) and INPUT (another .json) for the
# chains: LEN=254 SRC=chainN INPUT=chain ./setup.sh chain254 bn128 9
# NODE_BIN: the folder of the snarkjs and circom2 commands (the test build's, by default).
set -euo pipefail
B=${NODE_BIN:-$(cd "$(dirname "$0")/../../../.." && pwd)/build-cpu/interop/node/node_modules/.bin}
name=$1 prime=$2 power=$3; shift 3
src=${SRC:-$name}
d=$name-$prime; rm -rf $d; mkdir -p $d; cp $src.circom $d/$name.circom; cd $d
[ -n "${LEN:-}" ] && sed -i "s/LEN/$LEN/" $name.circom
$B/circom2 $name.circom --r1cs --wasm --c --prime $prime -o . "$@" > circom.log 2>&1 || { cat circom.log; exit 1; }
[ -f ../pot-$prime-$power.ptau ] || { $B/snarkjs powersoftau new $prime $power ../p0-$prime-$power.ptau >/dev/null && $B/snarkjs powersoftau contribute ../p0-$prime-$power.ptau ../p1-$prime-$power.ptau -e=x --name=a >/dev/null && $B/snarkjs powersoftau prepare phase2 ../p1-$prime-$power.ptau ../pot-$prime-$power.ptau >/dev/null; }
$B/snarkjs groth16 setup $name.r1cs ../pot-$prime-$power.ptau k0.zkey > setup.log
$B/snarkjs zkey contribute k0.zkey key.zkey -e=y --name=b >/dev/null
$B/snarkjs zkey export verificationkey key.zkey vk.json >/dev/null
inp=../${INPUT:-$name}.json
$B/snarkjs wtns calculate ${name}_js/$name.wasm $inp w.wtns
$B/snarkjs groth16 prove key.zkey w.wtns sj.proof.json sj.public.json
$B/snarkjs groth16 verify vk.json sj.public.json sj.proof.json | tail -1
$B/snarkjs r1cs info $name.r1cs | grep -E "Constraints|Public|Outputs|Private" | tr '\n' ' '; echo
