// The Groth16 verifier: checks the proof's points (reduced coordinates, on the curve, in the prime-order
// subgroup), then e(A, B) · e(IC(x), −γ) · e(C, −δ) = e(α, β) with one multi Miller loop over the three pairs
// and a single final exponentiation (e(α, β) is precomputed in the prepared key).
#pragma once

#include <span>

#include <proofline/arith/curves.hpp>
#include <proofline/groth16/proof.hpp>
#include <proofline/groth16/verifying_key.hpp>

namespace proofline::groth16 {

enum class VerifyStatus {
  ok,
  wrong_input_count,  ///< not num_public public inputs
  a_invalid,          ///< A is not a valid G1 element (coordinates, curve, subgroup)
  b_invalid,
  c_invalid,
  pairing_failed,  ///< well-formed, but the equation does not hold
};

const char* to_string(VerifyStatus status) noexcept;

/// The full outcome. public_inputs are z[1..num_public].
template <class Curve>
VerifyStatus verify_status(const BasicPreparedVerifyingKey<Curve>& pvk,
                           std::span<const typename Curve::Fr> public_inputs, const BasicProof<Curve>& proof);

template <class Curve>
bool verify(const BasicPreparedVerifyingKey<Curve>& pvk, std::span<const typename Curve::Fr> public_inputs,
            const BasicProof<Curve>& proof) {
  return verify_status(pvk, public_inputs, proof) == VerifyStatus::ok;
}

}  // namespace proofline::groth16
