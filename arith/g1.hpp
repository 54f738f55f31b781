// G1: the order-r subgroup of E(Fp): y^2 = x^3 + 4. Points of the proving key's A, B1, C, H, IC and the
// proof's A and C live here.
#pragma once

#include <type_traits>

#include <proofline/arith/curve.hpp>
#include <proofline/arith/curve_params.hpp>
#include <proofline/arith/fp.hpp>
#include <proofline/arith/fr.hpp>

namespace proofline {

struct G1Params {
  using Field = Fp;
  using Scalar = Fr;
  static constexpr Fp b = Fp::from_u64(4);
  static constexpr Fp generator_x = Fp::from_canonical(BigInt<6>::from_hex(
      "0x17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb"));
  static constexpr Fp generator_y = Fp::from_canonical(BigInt<6>::from_hex(
      "0x08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1"));
};

using G1Affine = AffinePoint<G1Params>;
using G1Jacobian = JacobianPoint<G1Params>;
using G1Xyzz = XyzzPoint<G1Params>;

// snarkjs stores G1 points as x || y in Montgomery form, little-endian: exactly this layout.
static_assert(sizeof(G1Affine) == 96 && sizeof(G1Jacobian) == 144 && sizeof(G1Xyzz) == 192);
static_assert(std::is_trivially_copyable_v<G1Affine> && std::is_standard_layout_v<G1Affine>);

/// h1 = #E(Fp) / r = (z - 1)^2 / 3 (tests check it against z and p).
inline constexpr BigInt<2> g1_cofactor = BigInt<2>::from_hex("0x396c8c005555e1568c00aaab0000aaab");

/// beta = 2^((p - 1) / 3), a primitive cube root of unity in Fp. phi(x, y) = (beta x, y) is an endomorphism
/// of E(Fp) that acts on G1 as multiplication by -z^2; the other cube root, beta^2, would give z^2 - 1
/// instead. Tests derive beta from this definition and check the eigenvalue.
inline constexpr Fp g1_beta = Fp::from_canonical(BigInt<6>::from_hex(
    "0x5f19672fdf76ce51ba69c6076a0f77eaddb3a93be6f89688de17d813620a00022e01fffffffefffe"));

PL_HD_INLINE constexpr G1Affine g1_endomorphism(const G1Affine& p) {
  constexpr Fp beta = g1_beta;
  return {p.x * beta, p.y};  // keeps (0, 0)
}
PL_HD_INLINE constexpr G1Jacobian g1_endomorphism(const G1Jacobian& p) {
  constexpr Fp beta = g1_beta;
  return {p.x * beta, p.y, p.z};
}

/// P in G1 iff phi(P) == [-z^2]P (M. Scott, "A note on group membership tests for G1, G2 and GT on BLS
/// pairing-friendly curves", eprint 2021/1130): a 128-bit scalar instead of the 255-bit r. P must be on the
/// curve; infinity is in the subgroup.
PL_HD constexpr bool is_in_subgroup(const G1Affine& p) {
  constexpr BigInt<2> z2 = bls_z_squared;
  return g1_endomorphism(p) == -p.mul(z2);
}
PL_HD constexpr bool is_in_subgroup(const G1Jacobian& p) {
  constexpr BigInt<2> z2 = bls_z_squared;
  return g1_endomorphism(p) == -p.mul(z2);
}

}  // namespace proofline
