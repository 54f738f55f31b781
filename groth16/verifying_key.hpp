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

#include <proofline/arith/curve_pairing.hpp>
#include <proofline/arith/curves.hpp>
#include <proofline/groth16/fwd.hpp>
#include <proofline/util/error.hpp>

namespace proofline::groth16 {

/// The verifying key on either curve (VerifyingKey is BLS12-381's).
template <class Curve>
struct BasicVerifyingKey {
  typename Curve::G1Affine alpha1{};
  typename Curve::G2Affine beta2{}, gamma2{}, delta2{};
  std::vector<typename Curve::G1Affine> ic;  ///< num_public + 1

  std::uint64_t num_public() const noexcept { return ic.empty() ? 0 : ic.size() - 1; }
  friend bool operator==(const BasicVerifyingKey&, const BasicVerifyingKey&) = default;
};

/// Throws Error(code, "<context>: <what is wrong>") unless ic is non-empty and every point is on its curve
/// and in the prime-order subgroup.
template <class Curve>
void validate(const BasicVerifyingKey<Curve>& vk, Errc code = Errc::invalid_argument,
              std::string_view context = "verifying key");

/// What verify() needs, computed once per key: e(α, β), and −γ and −δ prepared for the Miller loop (on
/// BLS12-381 their lines), so a verification costs one Miller loop over three pairs and one final
/// exponentiation.
template <class Curve>
struct BasicPreparedVerifyingKey {
  using Pairing = CurvePairing<Curve>;
  typename Pairing::Gt alpha_beta;
  typename Pairing::PreparedG2 neg_gamma2;
  typename Pairing::PreparedG2 neg_delta2;
  std::vector<typename Curve::G1Affine> ic;
};

using PreparedVerifyingKey = BasicPreparedVerifyingKey<Bls12_381>;

/// Validates vk (Error(invalid_argument) if it is malformed) and prepares it.
template <class Curve>
BasicPreparedVerifyingKey<Curve> prepare(const BasicVerifyingKey<Curve>& vk);

}  // namespace proofline::groth16
