// proofline prove: one proof, in rapidsnark's argument order, so a script that calls rapidsnark's prover
// can call this instead:
//
//   proofline prove KEY.zkey WITNESS.wtns PROOF.json PUBLIC.json
//   proofline prove KEY.zkey --circuit CIRCUIT_cpp/|CIRCUIT_js/ --input INPUT.json PROOF.json PUBLIC.json
//
// Exit 0 only when the proof was made, verified with the key's verifying key and written (atomically);
// 1 when the witness does not satisfy the circuit (the reason on stderr); 2 for unusable input or options,
// the witness file or input JSON included.
#include <optional>
#include <string>
#include <string_view>

#include "batch_common.hpp"
#include "proofline_commands.hpp"
#include "proofline_options.hpp"

namespace proofline::apps {

namespace {

constexpr const char* about =
    "Proves one circom witness with a snarkjs Groth16 key (bls12381 or bn128, on either backend), as "
    "rapidsnark's prover does: from a .wtns file, or from input JSON with the witness computed in-process by "
    "the circuit's circom --c generator or its circom --wasm output (built once and cached; compiled for the "
    "key's "
    "prime). The proof is "
    "verified with the key before PROOF.json and PUBLIC.json (snarkjs's formats) are written.";
constexpr const char* exit_codes =
    "Exit codes: 0 proof written (and verified); 1 the witness does not satisfy the circuit (a circom assert "
    "or constraint fails, or the proof does not verify); 2 unusable key, witness, input or options (not a "
    ".wtns, not JSON, an input signal unknown, missing or with the wrong number of values, ...). Input "
    "signals are named from CIRCUIT.sym beside CIRCUIT_cpp/ or CIRCUIT_js/ when circom wrote one (--sym).";

/// Whether the command line computes the witness from input JSON (then one positional fewer).
bool from_input(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    for (const std::string_view option : {"--circuit", "--input"})
      if (arg == option ||
          (arg.starts_with(option) && arg.size() > option.size() && arg[option.size()] == '='))
        return true;
  }
  return false;
}

std::optional<CircomBatch> parse(int argc, char** argv) {
  CircomBatch batch;
  set_prover_defaults(batch);
  const bool input = from_input(argc, argv);
  std::string zkey, witness, proof, pub;
  std::optional<std::filesystem::path> circuit, input_json;
  OptionParser cli(
      "proofline prove",
      "usage: proofline prove KEY.zkey WITNESS.wtns PROOF.json PUBLIC.json\n"
      "       proofline prove KEY.zkey --circuit CIRCUIT --input INPUT.json PROOF.json PUBLIC.json",
      about);
  cli.positional(
      "KEY.zkey",
      "snarkjs's Groth16 key: bls12381 (circom --prime bls12381) or bn128 (circom's default prime)", zkey);
  if (!input)
    cli.positional("WITNESS.wtns", "the witness (snarkjs wtns calculate, or circom's generator)", witness);
  cli.positional("PROOF.json", "where the proof goes (snarkjs's proof.json)", proof);
  cli.positional("PUBLIC.json", "where the public signals go (snarkjs's public.json)", pub);
  cli.group("from input JSON instead of a .wtns");
  cli.path("--circuit", "CIRCUIT",
           "the folder circom --c wrote (CIRCUIT_cpp/), or circom --wasm's CIRCUIT_js/ or its .wasm",
           circuit);
  cli.path("--input", "INPUT.json", "the circuit's input signals", input_json);
  add_prover_options(cli, batch);
  cli.epilog(exit_codes);
  if (!cli.parse(argc, argv)) return std::nullopt;
  if (input && (!circuit || !input_json))
    throw OptionError(circuit ? "--circuit needs --input INPUT.json"
                              : "--input needs --circuit CIRCUIT (CIRCUIT_cpp/ or CIRCUIT_js/)");
  batch.program = "proofline prove";
  batch.zkey = zkey;
  batch.circuit = circuit;
  const std::filesystem::path source = input ? *input_json : std::filesystem::path(witness);
  batch.jobs.push_back(CircomJobSpec{source, input, proof, pub, source.string()});
  batch.quiet = true;
  batch.refuse_unusable = true;
  batch.progress = false;
  return batch;
}

}  // namespace

int run_prove_command(int argc, char** argv) {
  const std::optional<CircomBatch> batch = parse(argc, argv);
  if (!batch) return 0;
  return run_until_stopped(batch->program, [&] { return run_circom_batch(*batch); });
}

}  // namespace proofline::apps
