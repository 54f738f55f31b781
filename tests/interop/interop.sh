#!/usr/bin/env bash
# The interop tests' driver: tests/interop/CMakeLists.txt registers one ctest per step (label interop). Each step
# fails loudly, with the command that failed, so a broken snarkjs or npm install never passes quietly.
#
#   interop.sh npm                        install snarkjs and circom2 (setup.sh; cached in the build dir)
#   interop.sh keys CIRCUIT               compile CIRCUIT (chain | range) with --prime bls12381, or at circom's
#                                         default prime bn128 for chain-bn128 | range-bn128, compute its
#                                         witnesses, make a ptau and a Groth16 key with snarkjs
#   interop.sh ptau-identity              our known-tau ptau (both curves) equals what `snarkjs powersoftau prepare phase2` makes
#   interop.sh snarkjs-accepts CIRCUIT    batch_prove (CPU backend) proves the witnesses (either prime); snarkjs
#                                         verifies them all
#   interop.sh proofline-accepts CIRCUIT  snarkjs proves; verify_proof accepts, and rejects tampered proofs as
#                                         snarkjs does
#   interop.sh export [CURVE]             batch_prove --export-snarkjs writes a synthetic .zkey and .wtns files
#                                         (--curve bls12-381, the default, or bn254): snarkjs exports the same
#                                         vk, proves with them, and both sides verify both sides' proofs
#
# Environment: INTEROP_DIR (work folder in the build dir), PROOFLINE_BIN (folder of batch_prove and
# verify_proof), PROOFLINE_TEST_TOOLS (folder of proofline_test_ptau and proofline_interop_check).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
step=${1:?usage: interop.sh STEP [CIRCUIT]}
circuit=${2:-}
: "${INTEROP_DIR:?}" "${PROOFLINE_BIN:?}" "${PROOFLINE_TEST_TOOLS:?}"
node_dir=$INTEROP_DIR/node
export NODE_OPTIONS=${NODE_OPTIONS:---max-old-space-size=8192}

say() { echo "interop: $*"; }
die() {
  echo "interop: FAILED: $*" >&2
  exit 1
}
run() {
  say "\$ $*"
  "$@" || die "command failed (exit $?): $*"
}
snarkjs() { node "$node_dir/node_modules/snarkjs/build/cli.cjs" "$@"; }
circom2() { node "$node_dir/node_modules/circom2/cli.js" "$@"; }
need_node() {
  [ -f "$node_dir/node_modules/snarkjs/build/cli.cjs" ] ||
    die "snarkjs is not installed in $node_dir (the 'interop/setup' test installs it; did it fail?)"
}
need_keys() {
  [ -f "$INTEROP_DIR/work/$1/.done" ] || die "no keys for $1 (the 'interop/$1/keys' test makes them; did it fail?)"
}

# A circuit name is the circom file's (chain, range), with -bn128 for circom's default prime.
base_of() { echo "${1%-bn128}"; }
prime_of() { case $1 in *-bn128) echo bn128 ;; *) echo bls12381 ;; esac; }

# The witnesses each circuit is proved with: name and input.json.
inputs() {
  case $(base_of "$1") in
    chain) echo 'w1 {"a": "3", "b": "7"}'; echo 'w2 {"a": "5", "b": "11"}' ;;
    range) echo 'inside {"x": "1234567", "lo": "1000", "hi": "2000000"}'
           echo 'below {"x": "5", "lo": "1000", "hi": "2000000"}' ;;
    *) die "unknown circuit '$1' (chain or range)" ;;
  esac
}

make_keys() {
  local c dir=$INTEROP_DIR/work/$1 prime
  c=$(base_of "$1")
  prime=$(prime_of "$1")
  need_node
  rm -rf "$dir" && mkdir -p "$dir"
  cd "$dir"
  case $c in
    chain) sed 's/CHAIN_LENGTH/100/' "$here/circuits/chain.circom" >chain.circom ;;
    range) cp "$here/circuits/range.circom" range.circom ;;
  esac
  # circom2 runs under WASI, where include paths that climb out of the working directory do not resolve: circomlib's
  # circuits are copied next to the circuit, where circom looks first.
  mkdir -p circomlib && cp -r "$node_dir/node_modules/circomlib/circuits" circomlib/
  run circom2 "$c.circom" --r1cs --wasm --prime "$prime" -o .
  run snarkjs r1cs info "$c.r1cs"
  while read -r name json; do
    echo "$json" >"$name.input.json"
    run snarkjs wtns calculate "${c}_js/$c.wasm" "$name.input.json" "$name.wtns"
    run snarkjs wtns check "$c.r1cs" "$name.wtns"
  done < <(inputs "$c")
  case $c-$prime in
    chain-* | range-bn128)
      # snarkjs's own ceremony (seconds at these sizes); the known-tau route below writes BLS12-381 only.
      run snarkjs powersoftau new "$prime" "$([ "$c" = range ] && echo 9 || echo 8)" pot_0.ptau
      run snarkjs powersoftau contribute pot_0.ptau pot_1.ptau --name=first -e="proofline interop entropy"
      run snarkjs powersoftau prepare phase2 pot_1.ptau pot.ptau
      ;;
    range-bls12381)
      # The known-tau route (tests only), as the larger benchmark keys are made.
      run "$PROOFLINE_TEST_TOOLS/proofline_test_ptau" 9 pot.ptau --seed 7
      ;;
  esac
  run snarkjs groth16 setup "$c.r1cs" pot.ptau key_0.zkey
  run snarkjs zkey contribute key_0.zkey key.zkey --name=first -e="proofline interop zkey entropy"
  run snarkjs zkey export verificationkey key.zkey vk.json
  touch .done
}

snarkjs_verify() {
  local out
  out=$(snarkjs groth16 verify "$@" 2>&1) || true
  echo "$out"
  case $out in *"OK!"*) return 0 ;; *) return 1 ;; esac
}

case $step in
  npm)
    run "$here/setup.sh" "$node_dir"
    ;;
  keys)
    make_keys "$circuit"
    dir=$INTEROP_DIR/work/$circuit
    # Our readers agree with snarkjs: the vk we derive from the zkey is the one snarkjs exports, byte for byte;
    # the zkey's coefficients are the r1cs's A and B; the witnesses satisfy the r1cs.
    run "$PROOFLINE_TEST_TOOLS/proofline_interop_check" vk "$dir/key.zkey" "$dir/vk.proofline.json"
    run cmp "$dir/vk.json" "$dir/vk.proofline.json"
    wtns=()
    while read -r name _; do wtns+=("$dir/$name.wtns"); done < <(inputs "$circuit")
    run "$PROOFLINE_TEST_TOOLS/proofline_interop_check" r1cs "$dir/key.zkey" "$dir/$(base_of "$circuit").r1cs" \
      "${wtns[@]}"
    ;;
  ptau-identity)
    need_node
    dir=$INTEROP_DIR/work/ptau
    rm -rf "$dir" && mkdir -p "$dir" && cd "$dir"
    for prime in bls12381 bn128; do
      run "$PROOFLINE_TEST_TOOLS/proofline_test_ptau" 6 "raw-$prime.ptau" --raw --seed 3 --curve "$prime"
      run snarkjs powersoftau prepare phase2 "raw-$prime.ptau" "snarkjs-$prime.ptau"
      run "$PROOFLINE_TEST_TOOLS/proofline_test_ptau" 6 "ours-$prime.ptau" --seed 3 --curve "$prime"
      run cmp "snarkjs-$prime.ptau" "ours-$prime.ptau"
      say "$prime: the known-tau ptau is byte-identical to snarkjs's prepare phase2 ($(stat -c %s "ours-$prime.ptau") bytes)"
    done
    ;;
  snarkjs-accepts)
    need_node
    need_keys "$circuit"
    dir=$INTEROP_DIR/work/$circuit
    out=$dir/proofline-out
    rm -rf "$out"
    wtns=()
    while read -r name _; do wtns+=("$dir/$name.wtns"); done < <(inputs "$circuit")
    run "$PROOFLINE_BIN/batch_prove" --backend cpu --no-progress --verify --zkey "$dir/key.zkey" --wtns "${wtns[@]}" \
      --out "$out"
    while read -r name _; do
      [ -f "$out/$name.proof.json" ] && [ -f "$out/$name.public.json" ] || die "batch_prove wrote no $name outputs"
      grep -q "\"curve\": \"$(prime_of "$circuit")\"" "$out/$name.proof.json" ||
        die "proofline's proof of $name does not name the curve $(prime_of "$circuit")"
      snarkjs_verify "$dir/vk.json" "$out/$name.public.json" "$out/$name.proof.json" ||
        die "snarkjs groth16 verify rejected proofline's proof of $name"
      # The tampered proof (pi_a and pi_c swapped) must be rejected by snarkjs too.
      node -e 'const fs=require("fs");const p=JSON.parse(fs.readFileSync(process.argv[1]));
        [p.pi_a,p.pi_c]=[p.pi_c,p.pi_a];fs.writeFileSync(process.argv[2],JSON.stringify(p,null,1));' \
        "$out/$name.proof.json" "$out/$name.tampered.json"
      if snarkjs_verify "$dir/vk.json" "$out/$name.public.json" "$out/$name.tampered.json"; then
        die "snarkjs accepted a tampered proof of $name"
      fi
    done < <(inputs "$circuit")
    say "snarkjs accepted every proofline proof of $circuit and rejected the tampered ones"
    ;;
  proofline-accepts)
    need_node
    need_keys "$circuit"
    dir=$INTEROP_DIR/work/$circuit
    out=$dir/snarkjs-out
    rm -rf "$out" && mkdir -p "$out"
    while read -r name _; do
      run snarkjs groth16 prove "$dir/key.zkey" "$dir/$name.wtns" "$out/$name.proof.json" "$out/$name.public.json"
      run "$PROOFLINE_BIN/verify_proof" "$dir/vk.json" "$out/$name.public.json" "$out/$name.proof.json"
      # Tampered: a public input changed, pi_a and pi_c swapped, pi_a off the curve: exit 1, and snarkjs agrees.
      node -e 'const fs=require("fs");const [,f,pub,prf,d]=process.argv;
        const s=JSON.parse(fs.readFileSync(pub));s[s.length-1]=(BigInt(s[s.length-1])+1n).toString();
        fs.writeFileSync(d+"/pub.json",JSON.stringify(s,null,1));
        const p=JSON.parse(fs.readFileSync(prf));const q=structuredClone(p);[q.pi_a,q.pi_c]=[q.pi_c,q.pi_a];
        fs.writeFileSync(d+"/swapped.json",JSON.stringify(q,null,1));
        const o=structuredClone(p);o.pi_a[1]=(BigInt(o.pi_a[1])+1n).toString();
        fs.writeFileSync(d+"/offcurve.json",JSON.stringify(o,null,1));' \
        x "$out/$name.public.json" "$out/$name.proof.json" "$out"
      for tampered in "pub.json $name.proof.json" "$name.public.json swapped.json" "$name.public.json offcurve.json"; do
        set -- $tampered
        code=0
        "$PROOFLINE_BIN/verify_proof" "$dir/vk.json" "$out/$1" "$out/$2" || code=$?
        [ "$code" = 1 ] || die "verify_proof exited $code (expected 1) for the tampered pair $1 $2 of $name"
        if snarkjs_verify "$dir/vk.json" "$out/$1" "$out/$2"; then die "snarkjs accepted the tampered pair $1 $2"; fi
      done
    done < <(inputs "$circuit")
    say "verify_proof accepted every snarkjs proof of $circuit and rejected the tampered ones, as snarkjs does"
    ;;
  export)
    need_node
    curve=${circuit:-bls12-381}
    dir=$INTEROP_DIR/work/export-$curve
    rm -rf "$dir" && mkdir -p "$dir" && cd "$dir"
    run "$PROOFLINE_BIN/batch_prove" --backend cpu --no-progress --synthetic 8 --count 2 --seed 3 \
      --curve "$curve" --export-snarkjs files
    run snarkjs zkey export verificationkey files/circuit.zkey vk.snarkjs.json
    run cmp files/verification_key.json vk.snarkjs.json
    run "$PROOFLINE_BIN/batch_prove" --backend cpu --no-progress --verify --zkey files/circuit.zkey \
      --wtns files/witness-000000.wtns files/witness-000001.wtns --out ours
    for w in witness-000000 witness-000001; do
      run snarkjs groth16 prove files/circuit.zkey "files/$w.wtns" "$w.proof.json" "$w.public.json"
      snarkjs_verify files/verification_key.json "$w.public.json" "$w.proof.json" ||
        die "snarkjs rejected its own proof of $w from the exported key"
      run "$PROOFLINE_BIN/verify_proof" files/verification_key.json "$w.public.json" "$w.proof.json"
      run cmp "$w.public.json" "ours/$w.public.json"
      snarkjs_verify files/verification_key.json "ours/$w.public.json" "ours/$w.proof.json" ||
        die "snarkjs rejected proofline's proof of $w from the exported key"
      # Another statement (the public input plus one) must be rejected by snarkjs.
      node -e 'const fs=require("fs");const s=JSON.parse(fs.readFileSync(process.argv[1]));
        s[0]=(BigInt(s[0])+1n).toString();fs.writeFileSync(process.argv[2],JSON.stringify(s,null,1));' \
        "$w.public.json" wrong.public.json
      if snarkjs_verify files/verification_key.json wrong.public.json "ours/$w.proof.json"; then
        die "snarkjs accepted proofline's proof of $w for a changed public input"
      fi
    done
    say "snarkjs reads, proves with and verifies the exported $curve key and witnesses; proofline's proofs verify in" \
      "snarkjs"
    ;;
  *)
    die "unknown step '$step'"
    ;;
esac
