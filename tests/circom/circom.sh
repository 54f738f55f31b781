#!/usr/bin/env bash
# The circom front door's tests (tests/circom/CMakeLists.txt registers one ctest per step, label circom), with
# the real circom2 and snarkjs from npm (tests/interop/setup.sh installs them, cached in the build dir):
#
#   circom.sh setup        circom2 compiles check.circom with --c --wasm --prime bls12381; snarkjs makes its key
#                          (known-tau ptau); snarkjs computes the reference witnesses and proofs
#   circom.sh inputs       proofline batch proves from input JSON (witnesses computed in-process): the same public
#                          signals as snarkjs fullprove, and snarkjs groth16 verify accepts every proof; such a
#                          batch synthesizes as many jobs at once as it has threads, a .wtns batch half
#   circom.sh drop-in      `proofline prove` in rapidsnark's argument order inside a script that then calls
#                          snarkjs groth16 verify; `proofline verify` agrees with snarkjs
#   circom.sh failures     a bad input JSON, an unknown signal, a violated constraint, a folder or a FIFO as an
#                          input fail their own jobs while the others are proven (exit 1); what circom's C++
#                          leaves unchecked (unchecked.circom: an index too large for Fr_toInt or out of the
#                          array, a division by zero, a recursion too deep) fails its own witness only, and a
#                          loop or a branching recursion too long its own job at --job-timeout; an index just
#                          past an array read by the wasm generator after other inputs gives snarkjs's witness
#                          (no value an earlier input left); --fail-fast refuses (exit 2), and so does input
#                          JSON without --circuit, or a --circuit that is no circom output, and one whose
#                          generated code does not compile (a `parallel` main), with the errors on one line;
#                          batch_prove --zkey --inject-fault fails one job only
#   circom.sh outputs      manifests (JSON lines, CSV; with a byte-order mark too) put outputs where they say,
#                          creating their folders;
#                          colliding outputs, outputs that are folders and folders that cannot be made exit 2
#                          before anything is proven
#   circom.sh setup-bn128  the same circuit at circom's default prime (bn128, BN254) with --c --wasm; a bn128
#                          key from the known-tau ptau; snarkjs's fullprove references
#   circom.sh bn128        proofline batch and prove from input JSON with the bn128 generator: snarkjs's public
#                          signals, proofs snarkjs verifies, .wtns files snarkjs checks against the r1cs; a
#                          generator compiled with --no_asm proves too; a generator of the other prime is
#                          refused (exit 2) naming both primes
#   circom.sh setup-matrix matrix.circom (array inputs of three, two and one dimensions, several outputs) at
#                          bn128 with --c --wasm --sym; a bn128 key; snarkjs's witnesses and a fullprove reference
#   circom.sh matrix       its proofs from input JSON and .wtns, checked by both verifiers; inputs that leave a
#                          signal out, add one or give an array of the wrong size are refused naming the signal
#                          and both counts (prove: exit 2), where snarkjs wtns calculate fails too; without
#                          the .sym file missing signals are counted; a public signal not below r is invalid
#                          for both verifiers; files with bytes after their last section exit 2; an unknown
#                          signal given [] is accepted, as snarkjs accepts it; a main whose only input has no
#                          values gives snarkjs's witness (novalues.circom)
#   circom.sh matrix-wasm  the same circuit's --wasm output through wasm2c: .wtns files equal to snarkjs wtns
#                          calculate's, proofs from input JSON checked by both verifiers, every refusal of the
#                          matrix step in the same words; without the .sym file, the --c generator's words
#                          (signals left out counted, not their values). Skipped when wasm2c is missing
#   circom.sh setup-bus    bus.circom (buses as main's inputs, circom 2.2) at bn128 with --sym; a bn128 key;
#                          snarkjs's witness and fullprove reference from a bus given as an array of values
#   circom.sh bus          a bus given as an array of values (snarkjs's form), as nested objects and as
#                          qualified names (circom's forms) proves with snarkjs's public signals; a bus given
#                          both whole and field by field, or left out, is refused naming it; an input array of
#                          no values may be left out
#   circom.sh circomlib    membership.circom (circomlib's Poseidon and MultiMux1, a Merkle path of depth 8) at
#                          bn128: witnesses from the --c and (with wasm2c) --wasm generators equal snarkjs wtns
#                          calculate's byte for byte for fresh random inputs, proofs snarkjs verifies, and a side
#                          that is not boolean fails its own job (exit 1) with circom's assert message
#   circom.sh wasm         check.circom compiled with --wasm only (no --c): proofline batch, prove (the folder or
#                          the .wasm) and witness from input JSON through wasm2c; snarkjs's public signals,
#                          proofs snarkjs verifies, .wtns files equal to snarkjs wtns calculate's; bad inputs
#                          named (with and without --sym), circom's assert messages, prove's exit codes; the
#                          bn128 check_js/ too; a wasm of the other prime refused. Skipped when wasm2c is missing
#   circom.sh serve        proofline serve (tests/circom/serve.py) on a free port with the key twice (with its
#                          circuit, and .wtns only under --name), then with the bn128 key beside it: concurrent
#                          requests from input JSON and .wtns whose proofs snarkjs verifies with fullprove's public
#                          signals; every error status with the CLI's messages; a client stalled half-way through
#                          its body answered 408 while others are served; a full queue answered 503; SIGTERM with
#                          requests in flight answers them and exits 0, a second stops at once
#   circom.sh reload       a generator loaded, run and freed many times (check_cpp/; iomap.circom, whose subcomponents
#                          circom reaches through its I/O maps; check_js/ through wasm2c when it is installed)
#                          gives back all the shim allocated for each circuit, by the shim's own count, and so do
#                          loads of a .dat cut short at every length; iomap_cpp/'s witness is snarkjs's
#
# Skips (exit 77) only when node or circom2 cannot be had (the wasm step also without wasm2c). Environment: CIRCOM_TEST_DIR (work folder),
# CIRCOM_NODE_DIR (where npm installs the tools; the interop tests share it),
# PROOFLINE_BIN (folder of proofline and batch_prove), PROOFLINE_TEST_TOOLS (folder of proofline_test_ptau),
# CIRCOM_RELOAD_TOOL (proofline_test_generator_reload, for the reload step).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
step=${1:?usage: circom.sh STEP}
: "${CIRCOM_TEST_DIR:?}" "${PROOFLINE_BIN:?}" "${PROOFLINE_TEST_TOOLS:?}"
node_dir=${CIRCOM_NODE_DIR:-$CIRCOM_TEST_DIR/node}
work=$CIRCOM_TEST_DIR/work
cache=$CIRCOM_TEST_DIR/generator-cache
proofline=$PROOFLINE_BIN/proofline

say() { echo "circom-test: $*"; }
die() {
  echo "circom-test: FAILED: $*" >&2
  exit 1
}
skip() {
  echo "circom-test: SKIPPED: $*"
  exit 77
}
run() {
  say "\$ $*"
  "$@" || die "command failed (exit $?): $*"
}
# Runs a command that must exit with $1; its stderr is kept in $work/last.err.
expect_exit() {
  local want=$1 code=0
  shift
  say "\$ $* (expecting exit $want)"
  "$@" 2>"$work/last.err" || code=$?
  cat "$work/last.err" >&2
  [ "$code" = "$want" ] || die "exit $code, expected $want: $*"
}
expect_said() { grep -qF -- "$1" "$work/last.err" || die "stderr does not say '$1'"; }
# expect_interrupted N COMMAND...: COMMAND in the background, sent N SIGINTs a second apart from 5 s on (time to
# reach what it computes); it must then end within a minute, with exit 130. Its stderr in last.err.
expect_interrupted() {
  local signals=$1 pid code=0 tenths=0 i
  shift
  say "\$ $* (expecting exit 130 after $signals SIGINT)"
  "$@" 2>"$work/last.err" &
  pid=$!
  sleep 5
  for ((i = 0; i < signals; ++i)); do
    kill -INT "$pid" 2>/dev/null || true
    sleep 1
  done
  while kill -0 "$pid" 2>/dev/null && [ "$tenths" -lt 600 ]; do
    sleep 0.1
    tenths=$((tenths + 1))
  done
  if kill -0 "$pid" 2>/dev/null; then
    kill -9 "$pid"
    die "still running a minute after $signals SIGINT: $*"
  fi
  wait "$pid" || code=$?
  cat "$work/last.err" >&2
  [ "$code" = 130 ] || die "exit $code after $signals SIGINT, expected 130: $*"
}
snarkjs() { node "$node_dir/node_modules/snarkjs/build/cli.cjs" "$@"; }
circom2() { node "$node_dir/node_modules/circom2/cli.js" "$@"; }
snarkjs_verify() {
  local out
  out=$(snarkjs groth16 verify "$@" 2>&1) || true
  case $out in *"OK!"*) return 0 ;; *) echo "$out"; return 1 ;; esac
}
# OUT.public.json holds the public signals snarkjs fullprove wrote to REFERENCE, and snarkjs verifies OUT.proof.json
# against vk.json; WHAT names the proof in a failure.
expect_as_snarkjs() {
  local out=$1 reference=$2 what=$3
  [ "$(publics "$out.public.json")" = "$(publics "$reference")" ] ||
    die "$what: public signals differ from snarkjs fullprove's"
  snarkjs_verify vk.json "$out.public.json" "$out.proof.json" || die "snarkjs groth16 verify rejected $what"
}
need_setup() { [ -f "$work/.done" ] || die "no circuit and key (the 'circom/setup' test makes them; did it fail?)"; }
work_bn=$CIRCOM_TEST_DIR/work-bn128
cache_bn=$CIRCOM_TEST_DIR/generator-cache-bn128
need_bn128() {
  [ -f "$work_bn/.done" ] || die "no bn128 circuit and key (the 'circom/setup-bn128' test makes them; did it fail?)"
}
# The public signals of a public.json, normalized (snarkjs and proofline indent differently).
publics() { node -e 'console.log(JSON.stringify(JSON.parse(require("fs").readFileSync(process.argv[1]))))' "$1"; }
# beyond_r PUBLIC OUT R: PUBLIC with its first signal raised by R (the curve's r), no field element any more.
beyond_r() {
  node -e 'const fs=require("fs");const p=JSON.parse(fs.readFileSync(process.argv[1]));
    p[0]=(BigInt(p[0])+BigInt(process.argv[3])).toString();fs.writeFileSync(process.argv[2],JSON.stringify(p));' \
    "$1" "$2" "$3"
}
# expect_invalid_as_snarkjs VK PUBLIC PROOF SAID: snarkjs groth16 verify calls the public signals not valid,
# and proofline verify says the proof is invalid (exit 1, on stdout), naming the first signal and saying SAID.
expect_invalid_as_snarkjs() {
  local out code=0
  out=$(snarkjs groth16 verify "$1" "$2" "$3" 2>&1) || true
  case $out in *"Public inputs are not valid."*) ;; *) die "snarkjs verify did not refuse $2's signals: $out" ;; esac
  out=$("$proofline" verify "$1" "$2" "$3" 2>&1) || code=$?
  say "proofline verify: $out"
  [ "$code" = 1 ] || die "proofline verify exited $code for $2, expected 1 (invalid)"
  case $out in *"invalid: public signal [0] of $2, "*"$4"*"snarkjs: \"Public inputs are not valid.\""*) ;;
    *) die "proofline verify does not name the signal: $out" ;; esac
}

good_inputs() {
  echo 'g1 {"a": "3", "b": "7", "c": "49"}'
  echo 'g2 {"a": "5", "b": "11", "c": "121"}'
  echo 'g3 {"a": "12345678901234567890", "b": 2, "c": "0x4"}'
  # JSON numbers go through a double, as in circom's main.cpp and snarkjs: -7 is p - 7, 1e1 is 10.
  echo 'g4 {"a": -7, "b": 1e1, "c": "100"}'
  # Strings as JavaScript's BigInt reads them (a sign, blanks around, "" is 0), booleans, empty arrays that add
  # no value: snarkjs accepts them all.
  echo 'g5 {"a": "-123456789012345678901234567890", "b": "\t+5 ", "c": [[], 25]}'
  echo 'g6 {"a": true, "b": "", "c": [0]}'
}

setup() {
  command -v node >/dev/null 2>&1 || skip "node is not installed (scripts/install-deps.sh installs nodejs)"
  "$here/../interop/setup.sh" "$node_dir" || skip "circom2 and snarkjs could not be installed from npm"
  rm -rf "$work" && mkdir -p "$work" && cd "$work"
  cp "$here/check.circom" .
  run circom2 check.circom --c --wasm --r1cs --prime bls12381 -o .
  run "$PROOFLINE_TEST_TOOLS/proofline_test_ptau" 8 pot.ptau --seed 11
  run snarkjs groth16 setup check.r1cs pot.ptau key.zkey
  run snarkjs zkey export verificationkey key.zkey vk.json
  mkdir -p inputs snarkjs
  while read -r name json; do
    echo "$json" >"inputs/$name.json"
    run snarkjs wtns calculate check_js/check.wasm "inputs/$name.json" "snarkjs/$name.wtns"
    run snarkjs groth16 fullprove "inputs/$name.json" check_js/check.wasm key.zkey "snarkjs/$name.proof.json" \
      "snarkjs/$name.public.json"
  done < <(good_inputs)
  touch .done
}

inputs() {
  need_setup
  cd "$work" && rm -rf out-inputs
  # A cache of its own: the other cases (run alongside) put generators of damaged circuits in theirs.
  local own_cache=$CIRCOM_TEST_DIR/generator-cache-inputs
  rm -rf "$own_cache"
  local name names=()
  while read -r name _; do names+=("inputs/$name.json"); done < <(good_inputs)
  run "$proofline" batch key.zkey --circuit check_cpp --input "${names[@]}" --out out-inputs \
    --cache-dir "$own_cache" --synth-threads 2 --no-progress
  while read -r name _; do
    expect_as_snarkjs "out-inputs/$name" "snarkjs/$name.public.json" "proofline's proof of $name"
  done < <(good_inputs)
  # The built generator is cached: a second run finds it and builds nothing.
  [ "$(find "$own_cache" -maxdepth 2 -name witness.so | wc -l)" = 1 ] ||
    die "expected one cached generator in $own_cache"
  # The generator computes a witness on one thread: by default a batch from input JSON synthesizes as many jobs
  # at once as the pipeline has threads; .wtns files keep the pipeline's default, half.
  expect_exit 0 "$proofline" batch key.zkey --circuit check_cpp --input inputs/g1.json inputs/g2.json \
    --out out-threads --cache-dir "$own_cache" --threads 2 --log-level info --no-progress
  [ "$(find "$own_cache" -maxdepth 2 -name witness.so | wc -l)" = 1 ] || die "the second run built it again"
  expect_said "2 threads, 2 synthesizing"
  expect_exit 0 "$proofline" batch key.zkey --wtns snarkjs/g1.wtns snarkjs/g2.wtns --out out-threads-wtns \
    --threads 2 --log-level info --no-progress
  expect_said "2 threads, 1 synthesizing"
  say "in-process witnesses give snarkjs's public signals and proofs snarkjs accepts"
}

drop_in() {
  need_setup
  cd "$work" && rm -rf out-dropin && mkdir out-dropin
  # A script written for rapidsnark (prover KEY WITNESS PROOF PUBLIC, then snarkjs verifies), with proofline.
  local prover="$proofline prove"
  for name in g1 g2; do
    run $prover key.zkey "snarkjs/$name.wtns" "out-dropin/$name.proof.json" "out-dropin/$name.public.json"
    snarkjs_verify vk.json "out-dropin/$name.public.json" "out-dropin/$name.proof.json" ||
      die "snarkjs rejected the drop-in proof of $name"
    run "$proofline" verify vk.json "out-dropin/$name.public.json" "out-dropin/$name.proof.json"
  done
  run "$proofline" prove key.zkey --circuit check_cpp --input inputs/g3.json out-dropin/g3.proof.json \
    out-dropin/g3.public.json --cache-dir "$cache"
  snarkjs_verify vk.json out-dropin/g3.public.json out-dropin/g3.proof.json || die "snarkjs rejected g3"
  # Public signals as 0x strings, which snarkjs verify reads too.
  node -e 'const fs=require("fs");const p=JSON.parse(fs.readFileSync(process.argv[1]));
    fs.writeFileSync(process.argv[2],JSON.stringify(p.map(x=>"0x"+BigInt(x).toString(16))));' \
    out-dropin/g1.public.json out-dropin/g1.hex.json
  snarkjs_verify vk.json out-dropin/g1.hex.json out-dropin/g1.proof.json || die "snarkjs rejected 0x public signals"
  run "$proofline" verify vk.json out-dropin/g1.hex.json out-dropin/g1.proof.json
  # proofline verify rejects what snarkjs rejects: another proof's public signals.
  expect_exit 1 "$proofline" verify vk.json out-dropin/g1.public.json out-dropin/g2.proof.json
  expect_exit 2 "$proofline" verify vk.json out-dropin/none.json out-dropin/g2.proof.json
  # An input that violates a constraint: exit 1, nothing written.
  echo '{"a": "3", "b": "7", "c": "48"}' >out-dropin/bad.json
  expect_exit 1 "$proofline" prove key.zkey --circuit check_cpp --input out-dropin/bad.json \
    out-dropin/bad.proof.json out-dropin/bad.public.json --cache-dir "$cache"
  expect_said "witness does not satisfy the circuit"
  [ ! -e out-dropin/bad.proof.json ] || die "a proof was written for a failed witness"
  expect_exit 2 "$proofline" prove key.zkey snarkjs/g1.wtns out-dropin/same.json out-dropin/same.json
  expect_said "is both its proof and its public signals"
  # A public signal not below r: snarkjs's "Public inputs are not valid." (exit 1), and proofline's verdict.
  beyond_r out-dropin/g1.public.json out-dropin/g1.r.json 52435875175126190479447740508185965837690552500527637822603658699938581184513
  expect_invalid_as_snarkjs vk.json out-dropin/g1.r.json out-dropin/g1.proof.json "is not below r (BLS12-381"
  # Files snarkjs made with bytes after their last section (snarkjs writes none): a witness run on into
  # another, a key with a stray byte. Unusable input, exit 2, naming the offset and the count.
  cat snarkjs/g1.wtns snarkjs/g2.wtns >out-dropin/twice.wtns
  expect_exit 2 "$proofline" prove key.zkey out-dropin/twice.wtns out-dropin/t.proof.json out-dropin/t.public.json
  expect_said "out-dropin/twice.wtns: $(stat -c %s snarkjs/g2.wtns) unexpected bytes after the last section, at offset $(stat -c %s snarkjs/g1.wtns) of"
  cp key.zkey out-dropin/stray.zkey && printf 'x' >>out-dropin/stray.zkey
  expect_exit 2 "$proofline" prove out-dropin/stray.zkey snarkjs/g1.wtns out-dropin/t.proof.json \
    out-dropin/t.public.json
  expect_said "out-dropin/stray.zkey: 1 unexpected byte after the last section, at offset $(stat -c %s key.zkey) of"
  [ ! -e out-dropin/t.proof.json ] || die "a proof was written from a file with bytes after its last section"
  say "proofline prove is a drop-in for rapidsnark's prover; proofline verify agrees with snarkjs"
}

failures() {
  need_setup
  cd "$work" && rm -rf out-fail && mkdir -p bad
  echo '{"a": "3", "b": ' >bad/truncated.json
  echo '{"a": "3", "b": "7", "c": "49", "d": "1"}' >bad/unknown.json
  echo '{"a": "3", "b": "7", "c": "50"}' >bad/violated.json
  echo '{"a": [null], "b": "7", "c": "49"}' >bad/null.json
  echo '{"a": "3", "b": "7", "c": "49", "zzz": {}}' >bad/empty-object.json
  echo '{"a": [{"x": "1"}, "2"], "b": "7", "c": "49"}' >bad/mixed.json
  echo '{"a": "3", "b": "7"}' >bad/missing.json
  echo '{"a": ["3", "4"], "b": "7", "c": "49"}' >bad/sized.json
  node -e 'console.log(`{"a": ${"[".repeat(100000)}3${"]".repeat(100000)}, "b": "7", "c": "49"}`)' >bad/deep.json
  expect_exit 1 "$proofline" batch key.zkey --circuit check_cpp --input inputs/g1.json bad/truncated.json \
    bad/unknown.json bad/violated.json bad/null.json bad/empty-object.json bad/mixed.json bad/deep.json bad/missing.json bad/sized.json \
    inputs/g2.json --out out-fail \
    --cache-dir "$cache" --no-progress
  expect_said "bad/truncated.json: not JSON"
  expect_said 'bad/unknown.json: signal "d" is not an input of main'
  # check.circom is compiled without --sym: a missing signal is counted, and how to have it named is said.
  expect_said "bad/missing.json: 1 input signal of main missing (1 value; circom's C++ output keeps no signal names: compile with --sym"
  expect_said 'bad/sized.json: signal "a" of main expects 1 value, got 2'
  expect_said "bad/violated.json: witness does not satisfy the circuit: Failed assert in template/function Check line 16"
  expect_said 'bad/null.json: signal "a": expected a number, a string of digits or a boolean, got null'
  expect_said 'bad/empty-object.json: signal "zzz": expected a number, a string of digits or a boolean, got {}'
  expect_said 'bad/mixed.json: signal "a": the array mixes objects and values'
  expect_said "bad/deep.json: the input nests arrays or objects deeper than 128 levels"
  expect_said "2 of 11 proofs written"
  for name in g1 g2; do
    snarkjs_verify vk.json "out-fail/$name.public.json" "out-fail/$name.proof.json" ||
      die "the good job $name of a batch with bad ones was not proven"
  done
  [ ! -e out-fail/violated.proof.json ] || die "a proof was written for a violated constraint"
  rm -rf out-ff
  expect_exit 2 "$proofline" batch key.zkey --circuit check_cpp --input inputs/g1.json bad/violated.json \
    --out out-ff --fail-fast --cache-dir "$cache" --no-progress
  expect_said "witness does not satisfy the circuit"
  [ -z "$(ls out-ff)" ] || die "--fail-fast proved something"
  # A folder or a FIFO named as an input fails its own job at once (a FIFO is never opened for reading,
  # which would wait for a writer); input JSON without the generator is refused before anything is read.
  rm -rf out-odd bad/fifo.json && mkdir -p bad/folder.json && mkfifo bad/fifo.json
  expect_exit 1 timeout 120 "$proofline" batch key.zkey --circuit check_cpp --input bad/folder.json \
    bad/fifo.json inputs/g1.json --out out-odd --cache-dir "$cache" --no-progress
  expect_said "bad/folder.json: not a regular file (a directory)"
  expect_said "bad/fifo.json: not a regular file (a FIFO)"
  expect_said "1 of 3 proofs written"
  expect_exit 2 "$proofline" batch key.zkey --input inputs/g1.json --out out-odd --no-progress
  expect_said "needs the circuit's generator (--circuit CIRCUIT_cpp/ or CIRCUIT_js/)"
  # A truncated .dat is named as the user's file, not as the cache's copy the generator loads.
  rm -rf bad/short_cpp && cp -r check_cpp bad/short_cpp && truncate -s 100 bad/short_cpp/check.dat
  expect_exit 2 "$proofline" batch key.zkey --circuit bad/short_cpp --input inputs/g1.json --out out-odd \
    --cache-dir "$cache" --no-progress
  expect_said "bad/short_cpp/check.dat: "
  # circom's --c output for a `parallel` main template calls two functions it never defines: the compiler's
  # errors come in one line, with what to do instead.
  rm -rf bad/pmain && mkdir -p bad/pmain
  printf '%s\n' 'pragma circom 2.0.0;' 'template parallel P() { signal input a; signal output b; b <== a * a; }' \
    'component main = P();' >bad/pmain/pmain.circom
  run circom2 bad/pmain/pmain.circom --c -o bad/pmain
  expect_exit 2 "$proofline" witness --circuit bad/pmain/pmain_cpp --input inputs/g1.json --out out-odd \
    --cache-dir "$cache"
  expect_said "P_0_create"
  expect_said "declare main's template without \`parallel\`, or give the circuit's --wasm output"
  # What circom's C++ output leaves unchecked, driven by inputs: an index too large for Fr_toInt (fr.asm calls
  # Fr_fail), indices that fit an int but point 86 GB away, a division by zero (SIGFPE from GMP) and a recursion
  # too deep for the stack, the last two in a `parallel` component, with an assert there too. Each fails its own
  # witness, said as such, and the generator computes the others in the same process, among forty failures of
  # each kind and on the threads that failed before.
  rm -rf unchecked out-unchecked && mkdir -p unchecked && cp "$here/unchecked.circom" unchecked/
  run circom2 unchecked/unchecked.circom --c --wasm --r1cs --prime bls12381 -o unchecked
  local k inputs=() fine='"d": "8", "n": "5", "spins": "3", "branches": "3"'
  for k in $(seq 10 49); do
    echo "{\"i\": \"10995116277$k\", $fine}" >"unchecked/big$k.json"
    echo "{\"i\": \"-2147483648\", $fine}" >"unchecked/below$k.json"
    echo "{\"i\": \"2147483647\", $fine}" >"unchecked/above$k.json"
    echo '{"i": "1", "d": "0", "n": "5", "spins": "3", "branches": "3"}' >"unchecked/zero$k.json"
    echo '{"i": "1", "d": "8", "n": "100000000", "spins": "3", "branches": "3"}' >"unchecked/deep$k.json"
    echo '{"i": "1", "d": "7", "n": "5", "spins": "3", "branches": "3"}' >"unchecked/seven$k.json"
    inputs+=("unchecked/big$k.json" "unchecked/below$k.json" "unchecked/above$k.json" "unchecked/zero$k.json"
      "unchecked/deep$k.json" "unchecked/seven$k.json")
  done
  echo "{\"i\": \"2\", $fine}" >unchecked/two.json
  echo '{"i": "3", "d": "-1", "n": "0", "spins": "0", "branches": "0"}' >unchecked/three.json
  expect_exit 1 "$proofline" witness --circuit unchecked/unchecked_cpp --input unchecked/two.json "${inputs[@]}" \
    unchecked/three.json --out out-unchecked --cache-dir "$cache"
  expect_said "unchecked/big10.json: a field element too large to convert to an integer (circom's Fr_toInt)"
  expect_said "unchecked/big49.json: a field element too large to convert to an integer (circom's Fr_toInt)"
  expect_said "unchecked/below10.json: the circuit's code accessed memory outside its own (SIGSEGV)"
  expect_said "unchecked/above49.json: the circuit's code accessed memory outside its own (SIGSEGV)"
  expect_said "unchecked/zero10.json: the circuit's code raised an arithmetic exception (SIGFPE)"
  expect_said "unchecked/deep49.json: the circuit's code accessed memory outside its own (SIGSEGV)"
  expect_said \
    "unchecked/seven10.json: witness does not satisfy the circuit: Failed assert in template/function Divide"
  [ "$(ls out-unchecked)" = "$(printf 'three.wtns\ntwo.wtns')" ] ||
    die "expected two.wtns and three.wtns in out-unchecked"
  run snarkjs wtns export json out-unchecked/two.wtns out-unchecked/two.json
  run snarkjs wtns export json out-unchecked/three.wtns out-unchecked/three.json
  # 1000 \ 8 = 125; 1000 \ (r - 1) = 0 (circom's integer division takes the field element as an integer).
  [ "$(publics out-unchecked/two.json) $(publics out-unchecked/three.json)" = \
    '["1","7","125","5","3","49"] ["1","11","0","0","0","121"]' ] ||
    die "the generator's witnesses beside failed ones: $(publics out-unchecked/two.json)" \
      "$(publics out-unchecked/three.json)"
  # A loop as long as the input says (2^64 turns) and a recursion that branches without looping (2^200
  # calls): --job-timeout fails each such job when its time is up, and its witness stops being computed (or
  # the batch would never end), with either generator; the others are proven.
  run snarkjs groth16 setup unchecked/unchecked.r1cs pot.ptau unchecked/key.zkey
  echo '{"i": "1", "d": "8", "n": "5", "spins": "18446744073709551616", "branches": "0"}' >unchecked/spin.json
  echo '{"i": "1", "d": "8", "n": "5", "spins": "3", "branches": "200"}' >unchecked/fork.json
  local generator
  for generator in unchecked_cpp unchecked_js; do
    rm -rf out-spin
    expect_exit 1 timeout 120 "$proofline" batch unchecked/key.zkey --circuit "unchecked/$generator" \
      --input unchecked/two.json unchecked/three.json unchecked/spin.json unchecked/fork.json --job-timeout 2 \
      --out out-spin --cache-dir "$cache" --no-progress
    expect_said "unchecked/spin.json failed: synthesis: timed out after 2000 ms"
    expect_said "unchecked/fork.json failed: synthesis: timed out after 2000 ms"
    [ -f out-spin/two.proof.json ] && [ -f out-spin/three.proof.json ] ||
      die "the proofs beside a timed-out witness ($generator) were not written"
  done
  # An index just past the array's end reads what circom's wasm memory holds there: what a fresh instance
  # holds, as snarkjs wtns calculate (one witness a process) reads it, not what earlier inputs left behind.
  local i peeks=()
  for i in 1 2 3 4; do
    echo '{"i": "1", "d": "8", "n": "5", "spins": "123456", "branches": "0"}' >"unchecked/busy$i.json"
  done
  for i in 4 5 6 7; do
    echo "{\"i\": \"$i\", \"d\": \"8\", \"n\": \"5\", \"spins\": \"0\", \"branches\": \"0\"}" \
      >"unchecked/peek$i.json"
    peeks+=("unchecked/peek$i.json")
    run snarkjs wtns calculate unchecked/unchecked_js/unchecked.wasm "unchecked/peek$i.json" \
      "unchecked/peek$i.wtns"
  done
  rm -rf out-peek
  run "$proofline" witness --circuit unchecked/unchecked_js --input unchecked/busy{1,2,3,4}.json "${peeks[@]}" \
    --out out-peek --cache-dir "$cache"
  for i in 4 5 6 7; do
    cmp -s "out-peek/peek$i.wtns" "unchecked/peek$i.wtns" ||
      die "peek$i.json's witness differs from snarkjs's: memory an earlier input wrote was read"
  done
  # Without a timeout, SIGINT lets a batch's running jobs finish; a second one stops the witness still being
  # computed, and the batch ends (exit 130) with what was proven written. One SIGINT stops `proofline witness`.
  rm -rf out-spin out-spin-wtns
  expect_interrupted 2 "$proofline" batch unchecked/key.zkey --circuit unchecked/unchecked_cpp \
    --input unchecked/two.json unchecked/spin.json --out out-spin --cache-dir "$cache" --no-progress
  expect_said "a second signal: 1 witness computation stopped"
  expect_said "1 of 2 proofs written"
  expect_said "; 1 not proven (stopped by SIGINT)"
  [ -f out-spin/two.proof.json ] || die "the proof made before the signals was not written"
  expect_interrupted 1 "$proofline" witness --circuit unchecked/unchecked_cpp --input unchecked/two.json \
    unchecked/spin.json --out out-spin-wtns --cache-dir "$cache"
  [ "$(ls out-spin-wtns)" = two.wtns ] || die "expected two.wtns alone in out-spin-wtns"
  # A .wtns that does not satisfy the circuit (another circuit's values, same length): its job fails.
  node -e 'const fs=require("fs");const b=fs.readFileSync(process.argv[1]);const n=b.length;
    b[n-32]^=1;fs.writeFileSync(process.argv[2],b);' snarkjs/g1.wtns bad/flipped.wtns
  rm -rf out-wtns
  expect_exit 1 "$proofline" batch key.zkey --wtns snarkjs/g2.wtns bad/flipped.wtns --out out-wtns --no-progress
  expect_said "witness does not satisfy the circuit"
  [ -f out-wtns/g2.proof.json ] || die "the good witness of a batch with a bad one was not proven"
  # batch_prove --zkey with --inject-fault: that job fails, the others are written.
  rm -rf out-fault
  expect_exit 1 "$PROOFLINE_BIN/batch_prove" --backend cpu --no-progress --verify --zkey key.zkey \
    --wtns snarkjs/g1.wtns snarkjs/g2.wtns snarkjs/g3.wtns --out out-fault --inject-fault msm:1
  expect_said "fault injected by --inject-fault"
  [ -f out-fault/g1.proof.json ] && [ -f out-fault/g3.proof.json ] && [ ! -e out-fault/g2.proof.json ] ||
    die "batch_prove --inject-fault msm:1 did not fail exactly the second job"
  # A folder that is neither circom's --c nor its --wasm output says what --circuit takes.
  rm -rf bad/empty_dir && mkdir -p bad/empty_dir
  expect_exit 2 "$proofline" prove key.zkey --circuit bad/empty_dir --input inputs/g1.json bad/p.json bad/pub.json \
    --cache-dir "$cache"
  expect_said "bad/empty_dir: expected one CIRCUIT.dat (circom --c output) or one CIRCUIT.wasm (circom --wasm output)"
  say "bad inputs and witnesses fail their own jobs with circom's message; the others are proven"
}

outputs() {
  need_setup
  cd "$work" && rm -rf placed && mkdir -p placed/x placed/y other
  cp inputs/g1.json other/g1.json
  printf '{"input": "inputs/g1.json", "proof": "placed/x/one.json", "public": "placed/x/one.pub.json"}\n%s\n' \
    '{"witness": "snarkjs/g2.wtns", "proof": "placed/y/two.json", "public": "placed/y/two.pub.json"}' >jobs.jsonl
  run "$proofline" batch key.zkey --circuit check_cpp --manifest jobs.jsonl --cache-dir "$cache" --no-progress
  snarkjs_verify vk.json placed/x/one.pub.json placed/x/one.json || die "manifest job one"
  snarkjs_verify vk.json placed/y/two.pub.json placed/y/two.json || die "manifest job two"
  printf 'SOURCE,PROOF,PUBLIC\ninputs/g3.json,placed/three.json,placed/three.pub.json\n' >jobs.csv
  run "$proofline" batch key.zkey --circuit check_cpp --manifest jobs.csv --cache-dir "$cache" --no-progress
  snarkjs_verify vk.json placed/three.pub.json placed/three.json || die "csv manifest job"
  # A manifest saved with a byte-order mark and CRLF line ends (as Windows editors save UTF-8) reads as one
  # without: the mark is not part of its first line.
  printf '\xef\xbb\xbf{"witness": "snarkjs/g1.wtns", "proof": "placed/bom.json", "public": "placed/bom.pub.json"}\r\n' \
    >bom.jsonl
  run "$proofline" batch key.zkey --manifest bom.jsonl --no-progress
  snarkjs_verify vk.json placed/bom.pub.json placed/bom.json || die "the manifest with a byte-order mark"
  printf '\xef\xbb\xbfSOURCE,PROOF,PUBLIC\r\nsnarkjs/g2.wtns,placed/bom2.json,placed/bom2.pub.json\r\n' >bom.csv
  run "$proofline" batch key.zkey --manifest bom.csv --no-progress
  snarkjs_verify vk.json placed/bom2.pub.json placed/bom2.json || die "the csv manifest with a byte-order mark"
  expect_exit 2 "$proofline" batch key.zkey --circuit check_cpp --input inputs/g1.json other/g1.json --out placed
  expect_said "would overwrite those of"
  expect_exit 2 "$proofline" batch key.zkey --wtns snarkjs/g1.wtns
  expect_said "no place for the proofs"
  printf 'inputs/g1.json,placed/same.json,placed/a.pub.json\ninputs/g2.json,placed/same.json,placed/b.pub.json\n' \
    >collide.csv
  expect_exit 2 "$proofline" batch key.zkey --circuit check_cpp --manifest collide.csv
  expect_said "is also the output of"
  # A manifest's folders are created (as --out's is); one that cannot be, or an output that is a folder,
  # exits 2 before anything is proven.
  rm -rf fresh && printf 'inputs/g1.json,fresh/a/p.json,fresh/b/q.json\n' >fresh.csv
  run "$proofline" batch key.zkey --circuit check_cpp --manifest fresh.csv --cache-dir "$cache" --no-progress
  snarkjs_verify vk.json fresh/b/q.json fresh/a/p.json || die "a manifest's fresh folders"
  printf 'inputs/g1.json,jobs.csv/p.json,placed/q.json\n' >blocked.csv
  expect_exit 2 "$proofline" batch key.zkey --circuit check_cpp --manifest blocked.csv
  expect_said "cannot create the folder"
  mkdir -p placed/taken.json
  printf 'inputs/g1.json,placed/taken.json,placed/t.pub.json\n' >taken.csv
  expect_exit 2 "$proofline" batch key.zkey --circuit check_cpp --manifest taken.csv
  expect_said "is a folder"
  [ ! -e placed/t.pub.json ] || die "a public.json was written for a job refused before proving"
  # An output that names an input (the key, a witness, an input JSON) is refused, the input left whole.
  cp snarkjs/g1.wtns placed/w.wtns && cp key.zkey placed/k.zkey && cp inputs/g1.json placed/in.json
  expect_exit 2 "$proofline" prove placed/k.zkey placed/w.wtns placed/p.json placed/w.wtns
  expect_said "is its own witness, which would be overwritten"
  expect_exit 2 "$proofline" prove placed/k.zkey placed/w.wtns ./placed/../placed/k.zkey placed/pub.json
  expect_said "is the key, which would be overwritten"
  expect_exit 2 "$proofline" batch placed/k.zkey --wtns placed/w.wtns --out placed --report placed/k.zkey
  expect_exit 2 "$proofline" prove placed/k.zkey --circuit check_cpp --input placed/in.json placed/p.json \
    placed/in.json --cache-dir "$cache"
  expect_said "is its own input"
  printf '../snarkjs/g1.wtns,m.csv,m.pub.json\n' >placed/m.csv && cp placed/m.csv placed/m.csv.orig
  expect_exit 2 "$proofline" batch key.zkey --manifest placed/m.csv
  expect_said "is the manifest, which would be overwritten"
  printf '../snarkjs/g1.wtns,p.json,p.pub.json\n' >placed/r.csv && cp placed/r.csv placed/r.csv.orig
  expect_exit 2 "$proofline" batch key.zkey --manifest placed/r.csv --report placed/r.csv
  cmp -s placed/m.csv placed/m.csv.orig && cmp -s placed/r.csv placed/r.csv.orig || die "a manifest was overwritten"
  cmp -s snarkjs/g1.wtns placed/w.wtns && cmp -s key.zkey placed/k.zkey && cmp -s inputs/g1.json placed/in.json ||
    die "an input was overwritten"
  # Any name the file system takes is written (its temporary file's name is cut to fit); a longer one, an
  # output in /dev or a link to a descriptor (as /dev/stdout is) exits 2, the link left as it was.
  long=$(printf 'p%.0s' $(seq 250)).json
  printf 'inputs/g1.json,placed/%s,placed/long.pub.json\n' "$long" >long.csv
  run "$proofline" batch key.zkey --circuit check_cpp --manifest long.csv --cache-dir "$cache" --no-progress
  snarkjs_verify vk.json placed/long.pub.json "placed/$long" || die "the proof of a 255-byte name"
  expect_exit 2 "$proofline" prove key.zkey snarkjs/g1.wtns "placed/p$long" placed/p.pub.json
  expect_said "more than the 255 a file system takes"
  ln -sfn /proc/self/fd/1 placed/stdout.json
  expect_exit 2 "$proofline" prove key.zkey snarkjs/g1.wtns placed/stdout.json placed/p.pub.json
  expect_said "is a link to /proc/self/fd/1"
  [ -L placed/stdout.json ] || die "the link named as an output was replaced"
  expect_exit 2 "$proofline" prove key.zkey snarkjs/g1.wtns '' placed/p.pub.json
  expect_said "PROOF.json is empty"
  # An output that names a file of the circuit's generator (its .dat here) is refused like any input.
  expect_exit 2 "$proofline" prove key.zkey --circuit check_cpp --input inputs/g1.json check_cpp/check.dat \
    placed/p.pub.json --cache-dir "$cache"
  expect_said "is a file of the circuit"
  # A manifest that is a FIFO (a shell's <(...)) is refused, not waited on.
  rm -f fifo.csv && mkfifo fifo.csv
  expect_exit 2 timeout 60 "$proofline" batch key.zkey --manifest fifo.csv
  expect_said "not a regular file (a FIFO)"
  # A proof that cannot be written when it is made (a file size limit lets the short public.json through and
  # stops the proof) fails its job, and its public.json is taken back.
  printf 'inputs/g1.json,placed/big.json,placed/big.pub.json\n' >big.csv
  expect_exit 1 bash -c 'trap "" XFSZ; ulimit -f 1; exec "$@"' limited "$proofline" batch key.zkey \
    --circuit check_cpp --manifest big.csv --cache-dir "$cache" --no-progress
  expect_said "its proof was made but cannot be written"
  expect_said "0 of 1 proofs written"
  [ ! -e placed/big.pub.json ] || die "a public.json was left without its proof"
  say "outputs go where the manifest says; collisions, inputs named as outputs, folders in the way and uncreatable folders exit 2"
}

setup_bn128() {
  command -v node >/dev/null 2>&1 || skip "node is not installed (scripts/install-deps.sh installs nodejs)"
  "$here/../interop/setup.sh" "$node_dir" || skip "circom2 and snarkjs could not be installed from npm"
  rm -rf "$work_bn" && mkdir -p "$work_bn" && cd "$work_bn"
  cp "$here/check.circom" .
  # No --prime: circom's default, bn128.
  run circom2 check.circom --c --wasm --r1cs -o .
  run "$PROOFLINE_TEST_TOOLS/proofline_test_ptau" 8 pot.ptau --seed 11 --curve bn128
  run snarkjs groth16 setup check.r1cs pot.ptau key.zkey
  run snarkjs zkey export verificationkey key.zkey vk.json
  grep -q '"curve": "bn128"' vk.json || die "snarkjs did not make a bn128 key"
  mkdir -p inputs snarkjs
  while read -r name json; do
    echo "$json" >"inputs/$name.json"
    run snarkjs groth16 fullprove "inputs/$name.json" check_js/check.wasm key.zkey "snarkjs/$name.proof.json" \
      "snarkjs/$name.public.json"
  done < <(good_inputs)
  touch .done
}

bn128() {
  need_bn128
  cd "$work_bn" && rm -rf out-inputs out-prove out-wtns && mkdir out-prove
  local name names=()
  while read -r name _; do names+=("inputs/$name.json"); done < <(good_inputs)
  run "$proofline" batch key.zkey --circuit check_cpp --input "${names[@]}" --out out-inputs --cache-dir "$cache_bn" \
    --synth-threads 2 --no-progress
  while read -r name _; do
    grep -q '"curve": "bn128"' "out-inputs/$name.proof.json" || die "$name: the proof does not name bn128"
    expect_as_snarkjs "out-inputs/$name" "snarkjs/$name.public.json" "proofline's bn128 proof of $name"
  done < <(good_inputs)
  run "$proofline" prove key.zkey --circuit check_cpp --input inputs/g3.json out-prove/g3.proof.json \
    out-prove/g3.public.json --cache-dir "$cache_bn"
  snarkjs_verify vk.json out-prove/g3.public.json out-prove/g3.proof.json || die "snarkjs rejected prove's g3"
  # The in-process witnesses as files: bn128 .wtns that satisfy the r1cs by snarkjs's own check.
  run "$proofline" witness --circuit check_cpp --input inputs/g1.json inputs/g2.json --out out-wtns \
    --cache-dir "$cache_bn"
  for name in g1 g2; do run snarkjs wtns check check.r1cs "out-wtns/$name.wtns"; done
  # circom --c --no_asm writes the field arithmetic in C++ (fr.cpp alone, no fr.asm): proven the same way.
  rm -rf noasm && mkdir noasm
  run circom2 check.circom --c --no_asm -o noasm
  [ ! -e noasm/check_cpp/fr.asm ] || die "circom --no_asm wrote fr.asm"
  run "$proofline" prove key.zkey --circuit noasm/check_cpp --input inputs/g3.json out-prove/noasm.proof.json \
    out-prove/noasm.public.json --cache-dir "$cache_bn"
  [ "$(publics out-prove/noasm.public.json)" = "$(publics snarkjs/g3.public.json)" ] ||
    die "the --no_asm generator's public signals differ from snarkjs fullprove's"
  snarkjs_verify vk.json out-prove/noasm.public.json out-prove/noasm.proof.json || die "snarkjs rejected --no_asm's"
  # A violated constraint fails its job with circom's message, as on BLS12-381.
  echo '{"a": "3", "b": "7", "c": "50"}' >out-prove/bad.json
  expect_exit 1 "$proofline" prove key.zkey --circuit check_cpp --input out-prove/bad.json \
    out-prove/bad.proof.json out-prove/bad.public.json --cache-dir "$cache_bn"
  expect_said "witness does not satisfy the circuit"
  # A generator of the other prime is refused before anything is proven, naming both primes.
  need_setup
  expect_exit 2 "$proofline" batch key.zkey --circuit "$work/check_cpp" --input inputs/g1.json --out out-wrong \
    --cache-dir "$cache"
  expect_said "was compiled for the prime bls12381 (52435875175126190479447740508185965837690552500527637822603658699938581184513)"
  expect_said "is a BN254 key, whose prime is bn128 (21888242871839275222246405745257275088548364400416034343698204186575808495617)"
  expect_exit 2 "$proofline" prove "$work/key.zkey" --circuit check_cpp --input inputs/g1.json out-wrong.json \
    out-wrong.public.json --cache-dir "$cache_bn"
  expect_said "was compiled for the prime bn128 (21888242871839275222246405745257275088548364400416034343698204186575808495617)"
  expect_said "is a BLS12-381 key, whose prime is bls12381"
  expect_said "circom --prime bls12381"
  [ ! -e out-wrong ] || [ -z "$(ls out-wrong)" ] || die "a proof was written with a generator of the wrong prime"
  say "bn128 circuits prove from input JSON in-process; generators of the other prime are refused"
}

work_mx=$CIRCOM_TEST_DIR/work-matrix
cache_mx=$CIRCOM_TEST_DIR/generator-cache-matrix
matrix_inputs() {
  echo 'm1 {"m": [[1, 2, 3], [4, 5, 6]], "v": [7, 8, 9], "k": "10", "c": [[[1, 2], [3, 4]], [[5, 6], [7, 8]]]}'
  echo 'm2 {"m": [["11", "12", "13"], ["14", "15", "16"]], "v": ["1", "0", "-1"], "k": 0, "c": [[["-1", 0], [2, "3"]], [[4, 5], [6, "-7"]]]}'
}

# A bn128 circuit of this folder compiled (C++ generator, wasm, r1cs and --sym: NAME.sym beside NAME_cpp/
# names the signals proofline's messages speak of) in WORK, with a key over a 2^POWER ptau: WORK/key.zkey and
# WORK/vk.json. Leaves the shell in WORK, with WORK/inputs and WORK/snarkjs made.
setup_bn128_circuit() {
  local name=$1 work=$2 power=$3 seed=$4
  command -v node >/dev/null 2>&1 || skip "node is not installed (scripts/install-deps.sh installs nodejs)"
  "$here/../interop/setup.sh" "$node_dir" || skip "circom2 and snarkjs could not be installed from npm"
  rm -rf "$work" && mkdir -p "$work/inputs" "$work/snarkjs" && cd "$work"
  cp "$here/$name.circom" .
  # circom2 runs under WASI, where include paths that climb out of the working directory do not resolve:
  # circomlib's circuits are copied next to a circuit that includes them, where circom looks first.
  if grep -q '^include "circomlib/' "$name.circom"; then
    mkdir -p circomlib && cp -r "$node_dir/node_modules/circomlib/circuits" circomlib/
  fi
  run circom2 "$name.circom" --c --wasm --r1cs --sym -o .
  run "$PROOFLINE_TEST_TOOLS/proofline_test_ptau" "$power" pot.ptau --seed "$seed" --curve bn128
  run snarkjs groth16 setup "$name.r1cs" pot.ptau key.zkey
  run snarkjs zkey export verificationkey key.zkey vk.json
}

setup_matrix() {
  setup_bn128_circuit matrix "$work_mx" 6 13
  while read -r name json; do
    echo "$json" >"inputs/$name.json"
    run snarkjs wtns calculate matrix_js/matrix.wasm "inputs/$name.json" "snarkjs/$name.wtns"
  done < <(matrix_inputs)
  run snarkjs groth16 fullprove inputs/m1.json matrix_js/matrix.wasm key.zkey snarkjs/m1.proof.json \
    snarkjs/m1.public.json
  touch .done
}

# expect_refused_input JSON SAID SNARKJS_SAID: proofline prove with the generator $mx_generator (matrix_cpp
# unless set) refuses the input (exit 2, nothing written) saying SAID; snarkjs wtns calculate fails on it too,
# saying SNARKJS_SAID.
expect_refused_input() {
  echo "$1" >bad/input.json
  expect_exit 2 "$proofline" prove key.zkey --circuit "${mx_generator:-matrix_cpp}" --input bad/input.json \
    bad/p.json bad/pub.json --cache-dir "$cache_mx"
  expect_said "bad/input.json: $2"
  [ ! -e bad/p.json ] && [ ! -e bad/pub.json ] || die "prove wrote outputs for a refused input"
  local out
  out=$(snarkjs wtns calculate matrix_js/matrix.wasm bad/input.json bad/w.wtns 2>&1) || true
  case $out in *"$3"*) ;; *) die "snarkjs wtns calculate did not fail with '$3': $out" ;; esac
}

# novalues.circom, whose only input has no values: whatever empty input is given, the generator runs the circuit
# (no value set would have run it) and gives snarkjs's witness. Run in the matrix's work folder.
no_values() {
  rm -rf novalues && mkdir -p novalues/in novalues/out
  cp "$here/novalues.circom" novalues/
  (cd novalues && run circom2 novalues.circom --c --wasm --sym -o .)
  echo '{}' >novalues/in/nothing.json
  echo '{"none": []}' >novalues/in/none.json
  echo '{"none": [], "unknown": [[]]}' >novalues/in/unknown.json
  local name generator
  # circom's --c output and its --wasm output (through wasm2c, when there is one) alike.
  for generator in novalues_cpp novalues_js; do
    [ "$generator" = novalues_cpp ] || command -v wasm2c >/dev/null 2>&1 || continue
    rm -rf novalues/out && mkdir -p novalues/out
    run "$proofline" witness --circuit "novalues/$generator" --input novalues/in/*.json --out novalues/out \
      --cache-dir "$cache_mx"
    for name in nothing none unknown; do
      [ -f "novalues/$name.snarkjs.json" ] || {
        run snarkjs wtns calculate novalues/novalues_js/novalues.wasm "novalues/in/$name.json" "novalues/$name.wtns"
        run snarkjs wtns export json "novalues/$name.wtns" "novalues/$name.snarkjs.json"
      }
      run snarkjs wtns export json "novalues/out/$name.wtns" "novalues/$name.proofline.json"
      [ "$(publics "novalues/$name.proofline.json")" = "$(publics "novalues/$name.snarkjs.json")" ] ||
        die "$name: the witness of a main without input values ($generator) differs from snarkjs's"
    done
    echo '{"unknown": 1}' >novalues/in/bad.json
    expect_exit 1 "$proofline" witness --circuit "novalues/$generator" --input novalues/in/bad.json \
      --out novalues/out --cache-dir "$cache_mx"
    expect_said 'signal "unknown" is not an input of main (main has no input values)'
    rm novalues/in/bad.json
  done
}

# The values of matrix.circom's 2 x 2 x 2 input, for inputs that get the other signals wrong.
mx_c='"c": [[[1, 2], [3, 4]], [[5, 6], [7, 8]]]'

# Inputs the generator $mx_generator refuses, each problem named with the signal and both counts (snarkjs says
# less: no name for a missing signal), and inputs it accepts as snarkjs does. Run in the matrix's work folder.
matrix_refusals() {
  local its='(its inputs: v[3], k, c[2][2][2], m[2][3])'
  expect_refused_input "{\"m\": [[1, 2, 3], [4, 5, 6]], \"v\": [7, 8, 9], $mx_c}" \
    'signal "k" of main is missing (expects 1 value)' "Not all inputs have been set. Only 17 out of 18"
  expect_refused_input "{\"m\": [[1, 2, 3], [4, 5, 6]], \"v\": [7, 8], \"k\": 1, $mx_c}" \
    'signal "v" of main expects 3 values (v[3]), got 2' "Not enough values for input signal v"
  expect_refused_input "{\"m\": [[1, 2, 3], [4, 5]], \"v\": [7, 8, 9], \"k\": 1, $mx_c}" \
    'signal "m" of main expects 6 values (m[2][3]), got 5' "Not enough values for input signal m"
  expect_refused_input '{"m": [[1, 2, 3], [4, 5, 6]], "v": [7, 8, 9], "k": 1, "c": [[[1, 2], [3, 4]], [[5, 6], [7]]]}' \
    'signal "c" of main expects 8 values (c[2][2][2]), got 7' "Not enough values for input signal c"
  expect_refused_input '{"m": [[1, 2, 3], [4, 5, 6]], "v": [7, 8, 9], "k": 1}' \
    'signal "c" of main is missing (expects 8 values, c[2][2][2])' "Not all inputs have been set. Only 10 out of 18"
  expect_refused_input "{\"m\": [[1, 2, 3], [4, 5, 6]], \"v\": [7, 8, 9], \"k\": 1, $mx_c, \"extra\": 5}" \
    "signal \"extra\" is not an input of main $its" "input signal extra"
  expect_refused_input "{\"M\": [[1, 2, 3], [4, 5, 6]], \"v\": [7, 8, 9], \"k\": 1, $mx_c}" \
    "signal \"M\" is not an input of main $its; signal \"m\" of main is missing (expects 6 values, m[2][3])" \
    "input signal M"
  # A number beyond a double's range: JSON.parse makes it Infinity, which snarkjs cannot convert.
  expect_refused_input "{\"m\": [[1e400, 2, 3], [4, 5, 6]], \"v\": [7, 8, 9], \"k\": 1, $mx_c}" \
    "a JSON number beyond a double's range (JavaScript reads it as Infinity, which is no field element; write the value as a string of digits): [json.exception.out_of_range.406] number overflow parsing '1e400'" \
    "The number Infinity cannot be converted to a BigInt"
  # An unknown signal given no value ([], [[], []]): snarkjs takes its size as 0 and accepts it, and so does
  # proofline; given a value it is still refused (above), and so is one within an object.
  echo "{\"m\": [[1, 2, 3], [4, 5, 6]], \"v\": [7, 8, 9], \"k\": \"10\", $mx_c, \"extra\": [], \"more\": [[], []]}" \
    >bad/empty.json
  run snarkjs wtns calculate matrix_js/matrix.wasm bad/empty.json bad/empty.wtns
  run "$proofline" prove key.zkey --circuit "$mx_generator" --input bad/empty.json out/empty.proof.json \
    out/empty.public.json --cache-dir "$cache_mx"
  [ "$(publics out/empty.public.json)" = "$(publics snarkjs/m1.public.json)" ] ||
    die "an unknown signal given [] changed the public signals ($mx_generator)"
  snarkjs_verify vk.json out/empty.public.json out/empty.proof.json || die "snarkjs rejected the proof with []"
  # Within an object, snarkjs reads {"q": []} as one value, and refuses it.
  expect_refused_input "{\"m\": [[1, 2, 3], [4, 5, 6]], \"v\": [7, 8, 9], \"k\": 1, $mx_c, \"extra\": {\"q\": []}}" \
    "signal \"extra.q\" is not an input of main $its" "input signal extra"
  # The same count in another shape is read in order, as snarkjs flattens it: a flat c, a 3 x 2 m.
  echo '{"m": [[1, 2], [3, 4], [5, 6]], "v": [7, 8, 9], "k": 1, "c": [1, 2, 3, 4, 5, 6, 7, 8]}' >bad/shape.json
  run "$proofline" witness --circuit "$mx_generator" --input bad/shape.json --out out/shape --cache-dir "$cache_mx"
  run snarkjs wtns calculate matrix_js/matrix.wasm bad/shape.json bad/shape.wtns
  cmp out/shape/shape.wtns bad/shape.wtns || die "an input of another shape gave another witness ($mx_generator)"
}

matrix() {
  [ -f "$work_mx/.done" ] || die "no matrix circuit and key (the 'circom/setup-matrix' test makes them; did it fail?)"
  mkdir -p "$work"  # expect_exit keeps stderr there
  cd "$work_mx" && rm -rf out bad && mkdir -p out bad
  run "$proofline" prove key.zkey --circuit matrix_cpp --input inputs/m1.json out/m1.proof.json out/m1.public.json \
    --cache-dir "$cache_mx"
  [ "$(publics out/m1.public.json)" = "$(publics snarkjs/m1.public.json)" ] ||
    die "the public signals (five outputs, then v, k and c) differ from snarkjs fullprove's"
  run "$proofline" batch key.zkey --circuit matrix_cpp --input inputs/m1.json inputs/m2.json --out out/json \
    --cache-dir "$cache_mx" --no-progress
  run "$proofline" batch key.zkey --wtns snarkjs/m1.wtns snarkjs/m2.wtns --out out/wtns --no-progress
  for proof in out/m1 out/json/m1 out/json/m2 out/wtns/m2; do
    snarkjs_verify vk.json "$proof.public.json" "$proof.proof.json" || die "snarkjs rejected $proof"
    run "$proofline" verify vk.json "$proof.public.json" "$proof.proof.json"
  done
  mx_generator=matrix_cpp matrix_refusals
  no_values
  # In a batch the bad input fails its own job (exit 1) with the same words.
  echo "{\"m\": [[1, 2, 3], [4, 5, 6]], \"v\": [7, 8, 9], $mx_c}" >bad/nok.json
  expect_exit 1 "$proofline" batch key.zkey --circuit matrix_cpp --input bad/nok.json inputs/m2.json \
    --out out/mixed --cache-dir "$cache_mx" --no-progress
  expect_said 'bad/nok.json: signal "k" of main is missing (expects 1 value)'
  expect_said "1 of 2 proofs written"
  # Without the .sym file the missing signal is counted, with how to have it named.
  mv matrix.sym matrix.sym.away
  expect_exit 2 "$proofline" prove key.zkey --circuit matrix_cpp --input bad/nok.json bad/p.json bad/pub.json \
    --cache-dir "$cache_mx"
  mv matrix.sym.away matrix.sym
  expect_said "bad/nok.json: 1 input signal of main missing (1 value; circom's C++ output keeps no signal names: compile with --sym"
  # A public signal not below bn128's r: invalid for snarkjs and proofline alike.
  beyond_r out/m1.public.json bad/r.public.json 21888242871839275222246405745257275088548364400416034343698204186575808495617
  expect_invalid_as_snarkjs vk.json bad/r.public.json out/m1.proof.json "is not below r (BN254"
  # snarkjs's witness with a stray byte after its last section: prove exits 2, a batch fails that job.
  cp snarkjs/m1.wtns bad/stray.wtns && printf 'x' >>bad/stray.wtns
  expect_exit 2 "$proofline" prove key.zkey bad/stray.wtns bad/p.json bad/pub.json
  expect_said "bad/stray.wtns: 1 unexpected byte after the last section, at offset $(stat -c %s snarkjs/m1.wtns) of"
  expect_exit 1 "$proofline" batch key.zkey --wtns bad/stray.wtns snarkjs/m2.wtns --out out/stray --no-progress
  expect_said "bad/stray.wtns: 1 unexpected byte after the last section"
  say "array inputs are checked by name and count; the verifiers agree on signals not below r"
}

# expect_same_words JSON: proofline prove refuses the input (exit 2) with the generators of nosym/ (matrix_cpp/
# and matrix_js/ without the .sym file) in the same words, but for the output each names.
expect_same_words() {
  echo "$1" >bad/input.json
  expect_exit 2 "$proofline" prove key.zkey --circuit nosym/matrix_cpp --input bad/input.json bad/p.json \
    bad/pub.json --cache-dir "$cache_mx"
  local cpp
  cpp=$(sed -e "s/circom's C++ output/circom's wasm output/" -e 's|CIRCUIT_cpp/|CIRCUIT_js/|' "$work/last.err")
  expect_exit 2 "$proofline" prove key.zkey --circuit nosym/matrix_js --input bad/input.json bad/p.json \
    bad/pub.json --cache-dir "$cache_mx"
  [ "$(cat "$work/last.err")" = "$cpp" ] || die "the wasm generator's words differ from the --c generator's"
}

# matrix.circom's --wasm output (matrix_js/, beside matrix.sym) through wasm2c: its 2-D and 3-D inputs give
# snarkjs's witnesses and proofs both verifiers accept, and every input the --c generator refuses is refused
# in its words; without the .sym file, too.
matrix_wasm() {
  [ -f "$work_mx/.done" ] || die "no matrix circuit and key (the 'circom/setup-matrix' test makes them; did it fail?)"
  command -v wasm2c >/dev/null 2>&1 || skip "wasm2c is not installed (scripts/install-deps.sh installs wabt)"
  mkdir -p "$work"  # expect_exit keeps stderr there
  cd "$work_mx" && rm -rf out bad nosym && mkdir -p out bad nosym
  local name
  run "$proofline" witness --circuit matrix_js --input inputs/m1.json inputs/m2.json --out out/wtns \
    --cache-dir "$cache_mx"
  for name in m1 m2; do
    cmp "out/wtns/$name.wtns" "snarkjs/$name.wtns" || die "$name: the wasm generator's .wtns differs from snarkjs's"
  done
  run "$proofline" batch key.zkey --circuit matrix_js --input inputs/m1.json inputs/m2.json --out out/json \
    --cache-dir "$cache_mx" --no-progress
  run "$proofline" prove key.zkey --circuit matrix_js/matrix.wasm --input inputs/m1.json out/m1.proof.json \
    out/m1.public.json --cache-dir "$cache_mx"
  for name in out/m1 out/json/m1; do
    [ "$(publics "$name.public.json")" = "$(publics snarkjs/m1.public.json)" ] ||
      die "$name: the public signals (five outputs, then v, k and c) differ from snarkjs fullprove's"
  done
  for name in out/m1 out/json/m1 out/json/m2; do
    snarkjs_verify vk.json "$name.public.json" "$name.proof.json" || die "snarkjs rejected $name"
    run "$proofline" verify vk.json "$name.public.json" "$name.proof.json"
  done
  mx_generator=matrix_js matrix_refusals
  # In a batch the bad input fails its own job (exit 1) with the same words.
  echo "{\"m\": [[1, 2, 3], [4, 5, 6]], \"v\": [7, 8, 9], $mx_c}" >bad/nok.json
  expect_exit 1 "$proofline" batch key.zkey --circuit matrix_js --input bad/nok.json inputs/m2.json \
    --out out/mixed --cache-dir "$cache_mx" --no-progress
  expect_said 'bad/nok.json: signal "k" of main is missing (expects 1 value)'
  expect_said "1 of 2 proofs written"
  # Without the .sym file both generators count the signals left out (not their values) in the same words.
  cp -r matrix_cpp matrix_js nosym/
  for name in matrix_cpp matrix_js; do
    run "$proofline" witness --circuit "nosym/$name" --input inputs/m2.json --out "out/$name" --cache-dir "$cache_mx"
    cmp "out/$name/m2.wtns" snarkjs/m2.wtns || die "m2: the .wtns of nosym/$name differs from snarkjs's"
  done
  expect_same_words "{\"m\": [[1, 2, 3], [4, 5, 6]], \"v\": [7, 8, 9], $mx_c}"
  expect_said "bad/input.json: 1 input signal of main missing (1 value; circom's wasm output keeps no signal names: compile with --sym and keep CIRCUIT.sym beside CIRCUIT_js/"
  expect_same_words '{"v": [7, 8, 9], "k": 1}'
  expect_said "bad/input.json: 2 input signals of main missing (14 values; circom's wasm output"
  expect_same_words "{\"v\": [7, 8, 9], \"k\": 1, $mx_c, \"extra\": 5}"
  expect_said 'bad/input.json: signal "extra" is not an input of main; 1 input signal of main missing (6 values;'
  expect_same_words '{"m": [[1, 2, 3], [4, 5, 6]], "v": [7, 8, 9], "k": 1, "c": [[[1, 2], [3, 4]], [[5, 6], [7]]]}'
  expect_said 'bad/input.json: signal "c" of main expects 8 values, got 7'
  say "2-D and 3-D inputs through wasm2c: snarkjs's witnesses and verdicts, the --c generator's words"
}

work_bus=$CIRCOM_TEST_DIR/work-bus
cache_bus=$CIRCOM_TEST_DIR/generator-cache-bus
setup_bus() {
  setup_bn128_circuit bus "$work_bus" 4 17
  # snarkjs reads a bus as the array of its values, in the order of its fields; it refuses nested objects.
  echo '{"s": [2, 3, 4, 5, 6, 7], "p": ["8", 9], "k": 10}' >inputs/flat.json
  run snarkjs groth16 fullprove inputs/flat.json bus_js/bus.wasm key.zkey snarkjs/flat.proof.json \
    snarkjs/flat.public.json
  touch .done
}

bus() {
  [ -f "$work_bus/.done" ] || die "no bus circuit and key (the 'circom/setup-bus' test makes them; did it fail?)"
  mkdir -p "$work"  # expect_exit keeps stderr there
  cd "$work_bus" && rm -rf out bad && mkdir -p out bad
  # The same values in circom's forms: nested objects, and the fields' qualified names.
  echo '{"s": {"a": {"x": 2, "y": 3}, "b": [{"x": 4, "y": 5}, {"x": 6, "y": 7}]}, "p": {"x": 8, "y": 9}, "k": 10}' \
    >inputs/nested.json
  echo '{"s.a.x": 2, "s.a.y": 3, "s.b[0].x": 4, "s.b[0].y": 5, "s.b[1].x": 6, "s.b[1].y": 7, "p": [8, 9], "k": 10}' \
    >inputs/qualified.json
  # The array of no values given as such.
  echo '{"s": [2, 3, 4, 5, 6, 7], "p": ["8", 9], "k": 10, "none": []}' >inputs/none.json
  for name in flat nested qualified none; do
    expect_exit 0 "$proofline" prove key.zkey --circuit bus_cpp --input "inputs/$name.json" "out/$name.proof.json" \
      "out/$name.public.json" --cache-dir "$cache_bus"
    # The .sym file is this circuit's: it names every input, the buses too.
    ! grep -q "names .* of the .* inputs of main" "$work/last.err" || die "the .sym file was called another's"
    expect_as_snarkjs "out/$name" snarkjs/flat.public.json "$name's proof"
  done
  # A bus given whole and field by field sets its values twice; a bus left out is named.
  echo '{"s": [2, 3, 4, 5, 6, 7], "s.a.x": 2, "p": [8, 9], "k": 10}' >bad/twice.json
  expect_exit 2 "$proofline" prove key.zkey --circuit bus_cpp --input bad/twice.json bad/p.json bad/pub.json \
    --cache-dir "$cache_bus"
  expect_said 'signal "s.a.x" of main is given twice: alone and within "s"'
  echo '{"s": [2, 3, 4, 5, 6, 7], "k": 10}' >bad/no-p.json
  expect_exit 2 "$proofline" prove key.zkey --circuit bus_cpp --input bad/no-p.json bad/p.json bad/pub.json \
    --cache-dir "$cache_bus"
  expect_said 'bad/no-p.json: signal "p" of main is missing (expects 2 values)'
  echo '{"s.a.x": 2, "s.a.y": 3, "s.b[0].x": 4, "s.b[0].y": 5, "p": [8, 9], "k": 10}' >bad/part.json
  expect_exit 2 "$proofline" prove key.zkey --circuit bus_cpp --input bad/part.json bad/p.json bad/pub.json \
    --cache-dir "$cache_bus"
  expect_said 'signal "s.b[1].x" of main is missing (expects 1 value); signal "s.b[1].y" of main is missing'
  [ ! -e bad/p.json ] || die "a proof was written for a refused input"
  say "buses are read whole or field by field, as snarkjs and circom read them; an empty array may be left out"
}

# circomlib's Poseidon in a Merkle membership circuit (membership.circom, bn128): the witnesses of both
# generators byte for byte as snarkjs wtns calculate writes them, proofs snarkjs verifies, and a side that is not
# boolean failing its own job with circom's words.
circomlib() {
  local wl=$CIRCOM_TEST_DIR/work-circomlib own_cache=$CIRCOM_TEST_DIR/generator-cache-circomlib
  setup_bn128_circuit membership "$wl" 13 23
  rm -rf "$own_cache"
  local work=$wl  # expect_exit's stderr stays in this step's folder: it runs beside the other steps
  # Fresh random leaves and paths each run (field elements below 2^250), the sides random bits.
  node -e 'const c=require("crypto");const fs=require("fs");const r=()=>(BigInt("0x"+c.randomBytes(32).toString("hex"))>>6n).toString();
    for (const n of ["m1","m2","m3"]) fs.writeFileSync(`inputs/${n}.json`, JSON.stringify({leaf: r(),
      path: Array.from({length: 8}, r), side: Array.from({length: 8}, () => String(c.randomInt(2)))}));
    const bad=JSON.parse(fs.readFileSync("inputs/m1.json")); bad.side[5]="2";
    fs.writeFileSync("bad.json", JSON.stringify(bad));'
  local name generators=(membership_cpp)
  for name in m1 m2 m3; do
    run snarkjs wtns calculate membership_js/membership.wasm "inputs/$name.json" "snarkjs/$name.wtns"
  done
  if command -v wasm2c >/dev/null 2>&1; then generators+=(membership_js); else say "wasm2c is not installed"; fi
  local generator
  for generator in "${generators[@]}"; do
    run "$proofline" witness --circuit "$generator" --input inputs/m1.json inputs/m2.json inputs/m3.json \
      --out "wtns-$generator" --cache-dir "$own_cache"
    for name in m1 m2 m3; do
      cmp "wtns-$generator/$name.wtns" "snarkjs/$name.wtns" || die "$generator: $name.wtns differs from snarkjs's"
    done
    expect_exit 1 "$proofline" batch key.zkey --circuit "$generator" --input inputs/m1.json bad.json \
      inputs/m2.json inputs/m3.json --out "out-$generator" --cache-dir "$own_cache" --no-progress
    expect_said "bad.json: witness does not satisfy the circuit"
    case $generator in
      *_cpp) expect_said "Failed assert in template/function Membership line 22" ;;
      *) expect_said "Error in template Membership" ;;
    esac
    [ ! -e "out-$generator/bad.proof.json" ] || die "$generator: a proof was written for bad.json"
    for name in m1 m2 m3; do
      snarkjs_verify vk.json "out-$generator/$name.public.json" "out-$generator/$name.proof.json" ||
        die "snarkjs groth16 verify rejected $generator's proof of $name"
    done
  done
  say "circomlib's Poseidon membership circuit: snarkjs's witnesses, proofs snarkjs accepts, circom's assert named"
}

# circom's --wasm output given to --circuit: translated by wasm2c, built once, run in-process. check.circom
# compiled with --wasm only (no --c), at bls12381 without --sym and with it, and setup-bn128's check_js/.
wasm() {
  need_setup
  need_bn128
  command -v wasm2c >/dev/null 2>&1 || skip "wasm2c is not installed (scripts/install-deps.sh installs wabt)"
  local ww=$CIRCOM_TEST_DIR/work-wasm own_cache=$CIRCOM_TEST_DIR/generator-cache-wasm
  rm -rf "$ww" "$own_cache" && mkdir -p "$ww/plain" "$ww/sym" && cd "$ww"
  cp "$here/check.circom" .
  run circom2 check.circom --wasm --prime bls12381 -o plain
  run circom2 check.circom --wasm --sym --prime bls12381 -o sym
  [ ! -e plain/check_cpp ] && [ -f plain/check_js/check.wasm ] || die "circom2 --wasm wrote C++ or no .wasm"
  ln -s "$work/key.zkey" key.zkey && ln -s "$work/vk.json" vk.json && ln -s "$work/inputs" inputs &&
    ln -s "$work/snarkjs" snarkjs
  local name names=()
  while read -r name _; do names+=("inputs/$name.json"); done < <(good_inputs)
  # A batch from the folder, several witnesses computed at once: snarkjs's public signals, proofs it accepts.
  run "$proofline" batch key.zkey --circuit plain/check_js --input "${names[@]}" --out out-batch \
    --cache-dir "$own_cache" --synth-threads 3 --threads 3 --no-progress
  while read -r name _; do
    expect_as_snarkjs "out-batch/$name" "snarkjs/$name.public.json" "the proof of $name from the wasm generator"
  done < <(good_inputs)
  [ "$(find "$own_cache" -maxdepth 2 -name witness.so | wc -l)" = 1 ] || die "expected one cached wasm generator"
  # One proof from the .wasm file itself: the same cached generator (the same .wasm), snarkjs accepts it.
  run "$proofline" prove key.zkey --circuit plain/check_js/check.wasm --input inputs/g3.json out-prove.proof.json \
    out-prove.public.json --cache-dir "$own_cache"
  [ "$(find "$own_cache" -maxdepth 2 -name witness.so | wc -l)" = 1 ] || die "the .wasm path built it again"
  [ "$(publics out-prove.public.json)" = "$(publics snarkjs/g3.public.json)" ] || die "prove's g3 signals differ"
  snarkjs_verify vk.json out-prove.public.json out-prove.proof.json || die "snarkjs rejected prove's g3 from wasm"
  # The witnesses byte for byte as snarkjs wtns calculate writes them (setup computed those).
  run "$proofline" witness --circuit plain/check_js --input "${names[@]}" --out out-wtns --cache-dir "$own_cache"
  while read -r name _; do
    cmp "out-wtns/$name.wtns" "snarkjs/$name.wtns" || die "$name: the wasm generator's .wtns differs from snarkjs's"
  done < <(good_inputs)
  # Bad inputs fail their own jobs with circom's words (exit 1), the good ones are proven.
  mkdir -p bad
  echo '{"a": "3", "b": "7", "c": "50"}' >bad/violated.json
  echo '{"a": "0", "b": "7", "c": "49"}' >bad/zero.json
  echo '{"a": "3", "b": "7", "c": "49", "d": "1"}' >bad/unknown.json
  echo '{"a": "3", "b": "7"}' >bad/missing.json
  echo '{"a": ["3", "4"], "b": "7", "c": "49"}' >bad/sized.json
  echo '{"a": "3", "b": ' >bad/truncated.json
  expect_exit 1 "$proofline" batch key.zkey --circuit plain/check_js --input inputs/g1.json bad/violated.json \
    bad/zero.json bad/unknown.json bad/missing.json bad/sized.json bad/truncated.json inputs/g2.json \
    --out out-fail --cache-dir "$own_cache" --no-progress
  expect_said "bad/violated.json: witness does not satisfy the circuit: Assert Failed. Error in template Check_0 line: 16"
  expect_said "bad/zero.json: witness does not satisfy the circuit: Assert Failed. Error in template Check_0 line: 11"
  expect_said 'bad/unknown.json: signal "d" is not an input of main'
  expect_said "bad/missing.json: 1 input signal of main missing (1 value; circom's wasm output keeps no signal names: compile with --sym"
  expect_said 'bad/sized.json: signal "a" of main expects 1 value, got 2'
  expect_said "bad/truncated.json: not JSON"
  expect_said "2 of 8 proofs written"
  for name in g1 g2; do
    snarkjs_verify vk.json "out-fail/$name.public.json" "out-fail/$name.proof.json" || die "good job $name not proven"
  done
  # With CIRCUIT.sym beside CIRCUIT_js/, signals are named as for --c output.
  expect_exit 1 "$proofline" batch key.zkey --circuit sym/check_js --input bad/missing.json bad/unknown.json \
    --out out-sym --cache-dir "$own_cache" --no-progress
  expect_said 'bad/missing.json: signal "c" of main is missing (expects 1 value)'
  expect_said 'bad/unknown.json: signal "d" is not an input of main (its inputs: b, a, c)'
  # prove's exit codes as for --c output: 1 for a failing assert, 2 for unusable input.
  expect_exit 1 "$proofline" prove key.zkey --circuit plain/check_js --input bad/violated.json bad/p.json \
    bad/pub.json --cache-dir "$own_cache"
  expect_said "witness does not satisfy the circuit: Assert Failed."
  expect_exit 2 "$proofline" prove key.zkey --circuit plain/check_js --input bad/unknown.json bad/p.json \
    bad/pub.json --cache-dir "$own_cache"
  [ ! -e bad/p.json ] || die "a proof was written for a failed witness"
  # bn128: setup-bn128's check_js/ proves with its key, its witnesses are snarkjs's byte for byte.
  run "$proofline" batch "$work_bn/key.zkey" --circuit "$work_bn/check_js" --input "${names[@]}" --out out-bn \
    --cache-dir "$own_cache" --no-progress
  while read -r name _; do
    [ "$(publics "out-bn/$name.public.json")" = "$(publics "$work_bn/snarkjs/$name.public.json")" ] ||
      die "$name: bn128 public signals from the wasm generator differ from snarkjs fullprove's"
    snarkjs_verify "$work_bn/vk.json" "out-bn/$name.public.json" "out-bn/$name.proof.json" ||
      die "snarkjs rejected the bn128 proof of $name from the wasm generator"
  done < <(good_inputs)
  run "$proofline" witness --circuit "$work_bn/check_js/check.wasm" --input inputs/g1.json inputs/g5.json \
    --out out-wtns-bn --cache-dir "$own_cache"
  for name in g1 g5; do
    run snarkjs wtns calculate "$work_bn/check_js/check.wasm" "inputs/$name.json" "out-wtns-bn/$name.snarkjs.wtns"
    cmp "out-wtns-bn/$name.wtns" "out-wtns-bn/$name.snarkjs.wtns" || die "$name: bn128 .wtns differs from snarkjs's"
  done
  # A wasm of the other prime is refused before anything is proven (exit 2), naming both primes.
  expect_exit 2 "$proofline" batch "$work_bn/key.zkey" --circuit plain/check_js --input inputs/g1.json \
    --out out-wrong --cache-dir "$own_cache" --no-progress
  expect_said "plain/check_js: the circuit was compiled for the prime bls12381"
  expect_said "is a BN254 key, whose prime is bn128"
  expect_exit 2 "$proofline" prove key.zkey --circuit "$work_bn/check_js" --input inputs/g1.json bad/p.json \
    bad/pub.json --cache-dir "$own_cache"
  expect_said "was compiled for the prime bn128"
  [ ! -e out-wrong ] || [ -z "$(ls out-wrong)" ] || die "a proof was written with a wasm of the wrong prime"
  say "circom's --wasm output proves in-process like --c output: snarkjs's witnesses, signals and verdicts"
}

serve() {
  need_setup
  need_bn128
  cd "$work" && rm -rf out-serve && mkdir out-serve
  command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
  # The bn128 key of setup-bn128 beside check's: its .wtns made by proofline witness (snarkjs's are checked
  # equal to those in the wasm step).
  local out_bn=$work/out-serve-bn128 name
  rm -rf "$out_bn" && mkdir -p "$out_bn/wtns"
  local bn_inputs=()
  while read -r name _; do bn_inputs+=("$work_bn/inputs/$name.json"); done < <(good_inputs)
  run "$proofline" witness --circuit "$work_bn/check_cpp" --input "${bn_inputs[@]}" --out "$out_bn/wtns" \
    --cache-dir "$cache"
  run python3 "$here/serve.py" "$proofline" "$work" "$cache" out-serve "$work_bn" "$out_bn"
  local proof count=0
  for proof in out-serve/*.proof.json; do
    name=$(basename "$proof" .proof.json)
    # g1-0, g2-sigterm3: the proof of input g1 (g2), checked against snarkjs fullprove's signals for it.
    expect_as_snarkjs "out-serve/$name" "snarkjs/${name%%-*}.public.json" "the served proof $name"
    count=$((count + 1))
  done
  [ "$count" = 28 ] || die "expected 28 served proofs, found $count"
  for proof in "$out_bn"/*.proof.json; do
    name=$(basename "$proof" .proof.json)
    [ "$(publics "$out_bn/$name.public.json")" = "$(publics "$work_bn/snarkjs/${name%%-*}.public.json")" ] ||
      die "the served bn128 proof $name: public signals differ from snarkjs fullprove's"
    snarkjs_verify "$work_bn/vk.json" "$out_bn/$name.public.json" "$proof" ||
      die "snarkjs groth16 verify rejected the served bn128 proof $name"
    count=$((count + 1))
  done
  [ "$count" = 40 ] || die "expected 12 served bn128 proofs, found $((count - 28))"
  say "proofline serve's proofs (both curves) pass snarkjs groth16 verify with fullprove's public signals"
}

reload() {
  need_setup
  : "${CIRCOM_RELOAD_TOOL:?}"
  local dir=$CIRCOM_TEST_DIR/work-reload own_cache=$CIRCOM_TEST_DIR/generator-cache-reload
  rm -rf "$dir" && mkdir -p "$dir" && cd "$dir"
  cp "$here/iomap.circom" .
  run circom2 iomap.circom --c --wasm -o .
  echo '{"a": ["1", "2", "3"], "p": ["4", "5"]}' >iomap.json
  # The I/O maps are read right: the witness is snarkjs's, byte for byte.
  run "$proofline" witness --circuit iomap_cpp --input iomap.json --out out-wtns --cache-dir "$own_cache"
  run snarkjs wtns calculate iomap_js/iomap.wasm iomap.json iomap.snarkjs.wtns
  cmp out-wtns/iomap.wtns iomap.snarkjs.wtns || die "iomap_cpp's witness differs from snarkjs's"
  run "$CIRCOM_RELOAD_TOOL" iomap_cpp iomap.json "$own_cache"
  # A cached generator damaged after it was built (a shared object cut short would die of SIGBUS when
  # loaded; an empty one would not load) is built again, and its witness is still snarkjs's.
  local entry
  for cut in 5000 0; do
    entry=$(ls -td "$own_cache"/iomap-* | head -n 1)  # the one in use, the latest built
    [ -f "$entry/witness.so" ] || die "no cached iomap generator in $own_cache"
    truncate -s "$cut" "$entry/witness.so"
    rm -rf out-wtns
    run "$proofline" witness --circuit iomap_cpp --input iomap.json --out out-wtns --cache-dir "$own_cache"
    cmp out-wtns/iomap.wtns iomap.snarkjs.wtns || die "the rebuilt generator's witness differs from snarkjs's"
    [ "$(stat -c %s "$entry/witness.so")" -gt 5000 ] || die "the damaged generator was not built again"
  done
  run "$CIRCOM_RELOAD_TOOL" "$work/check_cpp" "$work/inputs/g1.json" "$cache"
  if command -v wasm2c >/dev/null 2>&1; then
    run "$CIRCOM_RELOAD_TOOL" "$work/check_js" "$work/inputs/g1.json" "$own_cache"
  else
    say "wasm2c is not installed: the wasm generator is not reloaded"
  fi
  say "circuits loaded and freed, or refused a .dat cut short, leave nothing of the shim's behind"
}

case $step in
  setup) setup ;;
  inputs) inputs ;;
  drop-in) drop_in ;;
  failures) failures ;;
  outputs) outputs ;;
  setup-bn128) setup_bn128 ;;
  bn128) bn128 ;;
  setup-matrix) setup_matrix ;;
  matrix) matrix ;;
  matrix-wasm) matrix_wasm ;;
  setup-bus) setup_bus ;;
  bus) bus ;;
  circomlib) circomlib ;;
  wasm) wasm ;;
  serve) serve ;;
  reload) reload ;;
  *) die "unknown step '$step'" ;;
esac
