// verify_proof: checks a snarkjs Groth16 proof on bn128 or bls12381 (what `snarkjs groth16 verify` checks).
//
//   verify_proof VK.json PUBLIC.json PROOF.json
//
// One rule for the exit code: a well-formed file set gets a verdict, 0 valid or 1 invalid (a proof point off
// the curve or outside the subgroup, (0, 0) included, a wrong number of public inputs, or a failed pairing
// equation); input that is not a well-formed file set is 2 (a file missing or unreadable, not JSON, not in
// snarkjs's format, for another curve, a number out of range, or a key that is itself invalid). Always one
// line: the verdict on stdout, or the reason the input is unusable on stderr. `proofline verify` is the same
// check (snarkjs_verify.hpp).
#include <exception>
#include <optional>

#include <proofline/util/options.hpp>

#include "snarkjs_verify.hpp"

namespace {

using namespace proofline;

/// The three files; none after printing --help.
std::optional<apps::SnarkjsProofFiles> parse_arguments(int argc, char** argv) {
  apps::SnarkjsProofFiles files;
  OptionParser cli("verify_proof", "usage: verify_proof VK.json PUBLIC.json PROOF.json",
                   "Verifies a snarkjs Groth16 proof on bn128 or bls12381 (the curve the key names).");
  cli.positional("VK.json", "snarkjs's verification_key.json", files.vk);
  cli.positional("PUBLIC.json", "the public inputs, snarkjs's public.json", files.pub);
  cli.positional("PROOF.json", "the proof, snarkjs's proof.json", files.proof);
  cli.epilog(apps::verify_exit_codes);
  if (!cli.parse(argc, argv)) return std::nullopt;
  return files;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::optional<apps::SnarkjsProofFiles> files = parse_arguments(argc, argv);
    return files ? apps::verify_snarkjs_proof(*files) : 0;
  } catch (const std::exception& e) {
    return report_bad_options("verify_proof", e);
  }
}
