// proofline verify VK.json PUBLIC.json PROOF.json: snarkjs's argument order and verdict (verify_proof's
// check, snarkjs_verify.hpp). Exit 0 valid, 1 invalid, 2 unusable input.
#include <optional>

#include <proofline/util/options.hpp>

#include "batch_common.hpp"
#include "proofline_commands.hpp"
#include "snarkjs_verify.hpp"

namespace proofline::apps {

int run_verify_command(int argc, char** argv) {
  SnarkjsProofFiles files;
  OptionParser cli("proofline verify", "usage: proofline verify VK.json PUBLIC.json PROOF.json",
                   "Verifies a Groth16 proof of a circom circuit (bn128 or bls12381, as the key says) as "
                   "`snarkjs groth16 verify` does, with the same arguments: the key's verification_key.json, "
                   "public.json and proof.json.");
  cli.positional("VK.json", "snarkjs zkey export verificationkey's output", files.vk);
  cli.positional("PUBLIC.json", "the public signals", files.pub);
  cli.positional("PROOF.json", "the proof", files.proof);
  cli.epilog(verify_exit_codes);
  if (!cli.parse(argc, argv)) return 0;
  try {
    return verify_snarkjs_proof(files);
  } catch (const std::exception& e) {
    throw UnusableInput(e.what());  // no verdict: 1 would say the proof is invalid
  }
}

}  // namespace proofline::apps
