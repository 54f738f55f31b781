#!/usr/bin/env bash
# Circuit shapes the test suite's chain and range do not have, on both curves: no public signal, 150 and 1200
# public signals, a domain filled to its last row, linear constraints kept (--O0), circomlib's Poseidon (one
# hash and eight chained). For each: circom2 compiles it, snarkjs makes the key (known-tau ptau at power 14) and
# the witnesses; batch_prove (--backend cpu) and the circom front door (proofline batch --circuit, witnesses
# computed in-process) prove; snarkjs verifies every proof and its public signals equal snarkjs's own;
# verify_proof accepts snarkjs's proofs.
#
#   NODE_DIR=build-cpu/interop/node BIN=build-cpu/apps TOOLS=build-cpu/tests/interop [CIRCUITS="..."] run.sh
#
# (NODE_DIR as tests/interop/setup.sh installs it.) Work files go to WORK (default /tmp/unseen-work); gpu.sh
# proves the same keys and witnesses on a GPU machine, staged as stage/unseen/PRIME/CIRCUIT/.
set -u
node_dir=${NODE_DIR:?} bin=${BIN:?} tools=${TOOLS:?}
here=$(cd "$(dirname "$0")/circuits" && pwd)
work=${WORK:-/tmp/unseen-work}
snarkjs() { node "$node_dir/node_modules/snarkjs/build/cli.cjs" "$@"; }
circom2() { node "$node_dir/node_modules/circom2/cli.js" "$@"; }
inputs() {
  case $1 in
    nopub) echo 'w1 {"a": "3", "b": "5"}'; echo 'w2 {"a": "0", "b": "1"}' ;;
    manypub) python3 -c 'import json;print("w1", json.dumps({"x":[str(i*i+1) for i in range(150)],"k":"12345"}))'
             python3 -c 'import json;print("w2", json.dumps({"x":["0"]*150,"k":"0"}))' ;;
    exact) echo 'w1 {"a": "2", "b": "3"}'; echo 'w2 {"a": "1", "b": "1"}' ;;
    poseidon|poseidon8) echo 'w1 {"x": ["1", "2"]}'; echo 'w2 {"x": ["0", "0"]}' ;;
    manypub1200) python3 -c 'import json;print("w1", json.dumps({"x":[str(i*7+3) for i in range(1200)],"k":"99"}))'
                 python3 -c 'import json;print("w2", json.dumps({"x":["1"]*1200,"k":"1"}))' ;;
    linear) echo 'w1 {"a": "4", "b": "9"}'; echo 'w2 {"a": "0", "b": "0"}' ;;
  esac
}
fails=0
for prime in bn128 bls12381; do
  for c in ${CIRCUITS:-nopub manypub exact poseidon linear poseidon8 manypub1200}; do
    case $c-$prime in poseidon*-bls12381) continue ;; esac   # circomlib's Poseidon constants are BN254's
    d=$work/$prime/$c; rm -rf "$d"; mkdir -p "$d"; cd "$d"
    sed "s/EXACT/${EXACT:-61}/" "$here/$c.circom" > $c.circom
    mkdir -p circomlib && cp -r "$node_dir/node_modules/circomlib/circuits" circomlib/
    opt=(); [ $c = linear ] && opt=(--O0)
    circom2 $c.circom --r1cs --wasm --c --prime $prime "${opt[@]}" -o . > circom.log 2>&1 || { echo "FAIL circom $c $prime"; cat circom.log; fails=$((fails+1)); continue; }
    info=$(snarkjs r1cs info $c.r1cs 2>&1 | grep -E "Constraints|Public|Private|Outputs" | tr -s ' ' | tr '\n' ' ')
    "$tools/proofline_test_ptau" 14 pot.ptau --seed 9 --curve $prime > /dev/null 2>&1 ||
      { snarkjs powersoftau new $prime 14 p0.ptau > /dev/null && snarkjs powersoftau prepare phase2 p0.ptau pot.ptau > /dev/null; }
    snarkjs groth16 setup $c.r1cs pot.ptau key.zkey > setup.log 2>&1 || { echo "FAIL setup $c $prime"; tail -3 setup.log; fails=$((fails+1)); continue; }
    snarkjs zkey export verificationkey key.zkey vk.json > /dev/null 2>&1
    wt=()
    while read -r name json; do
      echo "$json" > $name.input.json
      snarkjs wtns calculate ${c}_js/$c.wasm $name.input.json $name.wtns > /dev/null 2>&1 || { echo "FAIL wtns $c $name"; fails=$((fails+1)); }
      wt+=($name.wtns)
    done < <(inputs $c)
    "$bin/batch_prove" --backend cpu --no-progress --verify --zkey key.zkey --wtns "${wt[@]}" --out out > prove.log 2>&1
    rc=$?
    if [ $rc != 0 ]; then echo "FAIL batch_prove $c $prime rc=$rc"; tail -5 prove.log; fails=$((fails+1)); continue; fi
    for w in "${wt[@]}"; do
      n=${w%.wtns}
      snarkjs groth16 prove key.zkey $w sj.$n.proof.json sj.$n.public.json > /dev/null 2>&1
      cmp -s <(python3 -c "import json,sys;print(json.load(open(sys.argv[1])))" out/$n.public.json) \
             <(python3 -c "import json,sys;print(json.load(open(sys.argv[1])))" sj.$n.public.json) || { echo "FAIL public differs $c $prime $n"; fails=$((fails+1)); }
      v=$(snarkjs groth16 verify vk.json out/$n.public.json out/$n.proof.json 2>&1)
      case $v in *OK!*) ;; *) echo "FAIL snarkjs rejects proofline $c $prime $n: $v"; fails=$((fails+1)) ;; esac
      "$bin/verify_proof" vk.json sj.$n.public.json sj.$n.proof.json > vp.log 2>&1 || { echo "FAIL verify_proof rejects snarkjs $c $prime $n"; cat vp.log; fails=$((fails+1)); }
    done
    # The circom front door: witnesses computed in-process from the input JSON by the circuit's C++ generator.
    ins=(); for w in "${wt[@]}"; do ins+=(${w%.wtns}.input.json); done
    "$bin/proofline" batch key.zkey --circuit ${c}_cpp --input "${ins[@]}" --out fd > fd.log 2>&1 ||
      { echo "FAIL proofline batch --circuit $c $prime"; tail -5 fd.log; fails=$((fails+1)); }
    for w in "${wt[@]}"; do
      n=${w%.wtns}
      v=$(snarkjs groth16 verify vk.json fd/$n.public.json fd/$n.proof.json 2>&1)
      case $v in *OK!*) ;; *) echo "FAIL snarkjs rejects the front door's $c $prime $n: $v"; fails=$((fails+1)) ;; esac
      cmp -s fd/$n.public.json out/$n.public.json || echo "note: public.json bytes differ between the front door and batch_prove for $c $prime $n"
    done
    echo "ok $c $prime: $info"
  done
done
echo "failures: $fails"
