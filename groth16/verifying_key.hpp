// The Groth16 verifying key and its prepared form for the pairing check.
//
//   alpha1 = [α]1, beta2 = [β]2, gamma2 = [γ]2, delta2 = [δ]2,
//   ic[j] = [(β·u_j + α·v_j + w_j)/γ]1 for j = 0 .. num_public (z[0] = 1 and the public inputs),
// with u_j, v_j, w_j as in proving_key.hpp. A proof (A, B, C) for public inputs x is valid when
//   e(A, B) = e(α, β) · e(IC_0 + Σ x_i·IC_i, γ) · e(C, δ).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include <proofline/arith/fp12.hpp>
#include <proofline/arith/g1.hpp>
#include <proofline/arith/g2.hpp>
#include <proofline/arith/pairing.hpp>
#include <proofline/util/error.hpp>

namespace proofline::groth16 {

struct VerifyingKey {
  G1Affine alpha1{};
  G2Affine beta2{}, gamma2{}, delta2{};
  std::vector<G1Affine> ic;  ///< num_public + 1

  std::uint64_t num_public() const noexcept { return ic.empty() ? 0 : ic.size() - 1; }
  friend bool operator==(const VerifyingKey&, const VerifyingKey&) = default;
};

/// Throws Error(code, "<context>: <what is wrong>") unless ic is non-empty and every point is on its curve
/// and in the prime-order subgroup.
void validate(const VerifyingKey& vk, Errc code = Errc::invalid_argument,
              std::string_view context = "verifying key");

/// What verify() needs, computed once per key: e(α, β), and the Miller-loop lines of −γ and −δ, so a
/// verification costs one Miller loop over three pairs and one final exponentiation.
struct PreparedVerifyingKey {
  Fp12 alpha_beta;
  PreparedG2 neg_gamma2;
  PreparedG2 neg_delta2;
  std::vector<G1Affine> ic;
};

/// Validates vk (Error(invalid_argument) if it is malformed) and prepares it.
PreparedVerifyingKey prepare(const VerifyingKey& vk);

}  // namespace proofline::groth16
