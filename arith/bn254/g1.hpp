// BN254 G1: E(Fp): y^2 = x^3 + 3, generator (1, 2) (EIP-197, snarkjs bn128). #E(Fp) = r, so every point on
// the curve is in G1. The curve templates of arith/curve.hpp over BN254's fields.
#pragma once

#include <type_traits>

#include <proofline/arith/bn254/fp.hpp>
#include <proofline/arith/bn254/fr.hpp>
#include <proofline/arith/curve.hpp>

namespace proofline::bn254 {

struct G1Params {
  using Field = Fp;
  using Scalar = Fr;
  static constexpr Fp b = Fp::from_u64(3);
  static constexpr Fp generator_x = Fp::from_u64(1);
  static constexpr Fp generator_y = Fp::from_u64(2);
};

using G1Affine = AffinePoint<G1Params>;
using G1Jacobian = JacobianPoint<G1Params>;
using G1Xyzz = XyzzPoint<G1Params>;

// snarkjs stores bn128 G1 points as x || y in Montgomery form, little-endian: exactly this layout.
static_assert(sizeof(G1Affine) == 64 && sizeof(G1Jacobian) == 96 && sizeof(G1Xyzz) == 128);
static_assert(std::is_trivially_copyable_v<G1Affine> && std::is_standard_layout_v<G1Affine>);

/// The cofactor is 1 (tests check #E(Fp) = r through [r]G = O and the Hasse bound), so a point on the curve
/// is in G1. P must be on the curve.
PL_HD constexpr bool is_in_subgroup(const G1Affine&) {
  return true;
}
PL_HD constexpr bool is_in_subgroup(const G1Jacobian&) {
  return true;
}

}  // namespace proofline::bn254
