// The verdict of `snarkjs groth16 verify` on bls12381, shared by verify_proof and `proofline verify`: a
// well-formed file set gets 0 (valid) or 1 (invalid, the reason on stdout); input that is not one throws
// (the caller reports it and exits 2).
#pragma once

#include <string>

namespace proofline::apps {

struct SnarkjsProofFiles {
  std::string vk, pub, proof;
};

constexpr const char* verify_exit_codes =
    "Exit codes: 0 valid; 1 invalid (a public signal that is an integer but negative or not below the "
    "curve's r, as snarkjs judges it: \"Public inputs are not valid.\"; a point off the curve or outside the "
    "subgroup, a wrong number of public inputs, a failed pairing check); 2 unusable input (a file missing, "
    "not JSON, not snarkjs's format - a public signal that is no integer at all -, for another curve, or an "
    "invalid key).";

/// 0 valid, 1 invalid, with one line on stdout saying which. Throws proofline::Error for unusable input.
int verify_snarkjs_proof(const SnarkjsProofFiles& files);

}  // namespace proofline::apps
