// verify_proof: checks a snarkjs Groth16 proof on bls12381 (what `snarkjs groth16 verify` checks).
//
//   verify_proof VK.json PUBLIC.json PROOF.json
//
// Exit codes: 0 the proof is valid, 1 it is not (a point off the curve or outside the subgroup, a wrong
// number of public inputs, or the pairing equation fails), 2 unusable input (a file that is missing, not
// JSON, not in snarkjs's format, for another curve, or a key that is itself invalid). Always one line: the
// verdict on stdout, or the reason the input is unusable on stderr.
#include <cstdio>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include <proofline/groth16/snarkjs_json.hpp>
#include <proofline/groth16/verifier.hpp>
#include <proofline/groth16/verifying_key.hpp>
#include <proofline/util/error.hpp>

namespace {

using namespace proofline;

constexpr const char* usage =
    "usage: verify_proof VK.json PUBLIC.json PROOF.json\n"
    "Verifies a snarkjs Groth16 proof on bls12381 (snarkjs's verification_key.json, public.json, "
    "proof.json).\n"
    "Exit codes: 0 valid, 1 invalid, 2 unusable input.\n";

int unusable(const std::string& reason) {
  std::fprintf(stderr, "verify_proof: %s\n", reason.c_str());
  return 2;
}

int run(int argc, char** argv) {
  std::vector<std::string_view> args(argv + 1, argv + argc);
  if (args.size() == 1 && (args[0] == "--help" || args[0] == "-h")) {
    std::fputs(usage, stdout);
    return 0;
  }
  if (args.size() != 3)
    return unusable("expected 3 arguments (VK.json PUBLIC.json PROOF.json), got " +
                    std::to_string(args.size()));
  const groth16::VerifyingKey vk = groth16::read_snarkjs_verifying_key(std::string(args[0]));
  const std::vector<Fr> inputs = groth16::read_snarkjs_public(std::string(args[1]));
  // Points off the curve or outside the subgroup make an invalid proof (exit 1), not an unusable file.
  const groth16::Proof proof =
      groth16::read_snarkjs_proof(std::string(args[2]), groth16::ProofPointCheck::shape_only);
  const groth16::VerifyStatus status = groth16::verify_status(groth16::prepare(vk), inputs, proof);
  if (status == groth16::VerifyStatus::ok) {
    std::printf("valid: the proof verifies for %zu public input%s\n", inputs.size(),
                inputs.size() == 1 ? "" : "s");
    return 0;
  }
  std::string reason = groth16::to_string(status);
  if (status == groth16::VerifyStatus::wrong_input_count)
    reason += " (" + std::string(args[1]) + " has " + std::to_string(inputs.size()) + ", the key expects " +
              std::to_string(vk.num_public()) + ")";
  std::printf("invalid: %s\n", reason.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    return unusable(e.what());
  }
}
