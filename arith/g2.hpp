// G2: the order-r subgroup of the sextic twist E'(Fp2): y^2 = x^3 + 4(1 + u). Points of the proving key's B2
// and the proof's B live here.
#pragma once

#include <type_traits>

#include <proofline/arith/curve.hpp>
#include <proofline/arith/curve_params.hpp>
#include <proofline/arith/fp2.hpp>
#include <proofline/arith/fr.hpp>

namespace proofline {

struct G2Params {
  using Field = Fp2;
  using Scalar = Fr;
  static constexpr Fp2 b = {Fp::from_u64(4), Fp::from_u64(4)};
  static constexpr Fp2 generator_x = {
      Fp::from_canonical(BigInt<6>::from_hex("0x024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d"
                                             "1770bac0326a805bbefd48056c8c121bdb8")),
      Fp::from_canonical(BigInt<6>::from_hex("0x13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5"
                                             "049334cf11213945d57e5ac7d055d042b7e"))};
  static constexpr Fp2 generator_y = {
      Fp::from_canonical(BigInt<6>::from_hex("0x0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d"
                                             "12c923ac9cc3baca289e193548608b82801")),
      Fp::from_canonical(BigInt<6>::from_hex("0x0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e9"
                                             "9ab3f370d275cec1da1aaa9075ff05f79be"))};
};

using G2Affine = AffinePoint<G2Params>;
using G2Jacobian = JacobianPoint<G2Params>;
using G2Xyzz = XyzzPoint<G2Params>;

// snarkjs stores G2 points as x.c0 || x.c1 || y.c0 || y.c1 in Montgomery form, little-endian: this layout.
static_assert(sizeof(G2Affine) == 192 && sizeof(G2Jacobian) == 288 && sizeof(G2Xyzz) == 384);
static_assert(std::is_trivially_copyable_v<G2Affine> && std::is_standard_layout_v<G2Affine>);

/// psi = untwist o Frobenius o twist: psi(x, y) = (conj(x) cx, conj(y) cy) with cx = 1 / (1 + u)^((p - 1) /
/// 3) and cy = 1 / (1 + u)^((p - 1) / 2). Computing them at compile time costs about a second per translation
/// unit, so they are written out here and tests derive them from this definition.
inline constexpr Fp2 g2_psi_coeff_x = {
    Fp::zero(), Fp::from_canonical(BigInt<6>::from_hex("0x1a0111ea397fe699ec02408663d4de85aa0d857d89759ad4897"
                                                       "d29650fb85f9b409427eb4f49fffd8bfd00000000aaad"))};
inline constexpr Fp2 g2_psi_coeff_y = {
    Fp::from_canonical(BigInt<6>::from_hex("0x135203e60180a68ee2e9c448d77a2cd91c3dedd930b1cf60ef396489f61eb45"
                                           "e304466cf3e67fa0af1ee7b04121bdea2")),
    Fp::from_canonical(BigInt<6>::from_hex("0x06af0e0437ff400b6831e36d6bd17ffe48395dabc2d3435e77f76e17009241c"
                                           "5ee67992f72ec05f4c81084fbede3cc09"))};

PL_HD_INLINE constexpr G2Affine g2_psi(const G2Affine& p) {
  constexpr Fp2 cx = g2_psi_coeff_x;
  constexpr Fp2 cy = g2_psi_coeff_y;
  return {p.x.conjugate() * cx, p.y.conjugate() * cy};  // keeps (0, 0)
}
/// Conjugation is a field automorphism, so it commutes with the division by Z^2 and Z^3.
PL_HD_INLINE constexpr G2Jacobian g2_psi(const G2Jacobian& p) {
  constexpr Fp2 cx = g2_psi_coeff_x;
  constexpr Fp2 cy = g2_psi_coeff_y;
  return {p.x.conjugate() * cx, p.y.conjugate() * cy, p.z.conjugate()};
}

/// P in G2 iff psi(P) == [z]P (M. Scott, eprint 2021/1130): a 64-bit scalar instead of the 255-bit r. z < 0,
/// so [z]P = -[|z|]P. P must be on the curve; infinity is in the subgroup.
PL_HD constexpr bool is_in_subgroup(const G2Affine& p) {
  constexpr BigInt<1> z = bls_z_abs_int;
  static_assert(bls_z_is_negative);
  return g2_psi(p) == -p.mul(z);
}
PL_HD constexpr bool is_in_subgroup(const G2Jacobian& p) {
  constexpr BigInt<1> z = bls_z_abs_int;
  static_assert(bls_z_is_negative);
  return g2_psi(p) == -p.mul(z);
}

}  // namespace proofline
