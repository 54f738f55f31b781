// BN254 G2: the order-r subgroup of the sextic D-type twist E'(Fp2): y^2 = x^3 + 3 / (9 + u), with the
// generator of EIP-197 and snarkjs's bn128. The curve templates of arith/curve.hpp over BN254's Fp2.
#pragma once

#include <type_traits>

#include <proofline/arith/bn254/curve_params.hpp>
#include <proofline/arith/bn254/fp2.hpp>
#include <proofline/arith/bn254/fr.hpp>
#include <proofline/arith/curve.hpp>

namespace proofline::bn254 {

struct G2Params {
  using Field = Fp2;
  using Scalar = Fr;
  /// b' = 3 / (9 + u), written out (a compile-time inversion costs every translation unit); tests derive it.
  static constexpr Fp2 b = {Fp::from_canonical(BigInt<4>::from_hex(
                                "0x2b149d40ceb8aaae81be18991be06ac3b5b4c5e559dbefa33267e6dc24a138e5")),
                            Fp::from_canonical(BigInt<4>::from_hex(
                                "0x009713b03af0fed4cd2cafadeed8fdf4a74fa084e52d1852e4a2bd0685c315d2"))};
  // EIP-197 writes these as (imaginary, real) pairs; here c0 is the real part.
  static constexpr Fp2 generator_x = {
      Fp::from_canonical(
          BigInt<4>::from_hex("0x1800deef121f1e76426a00665e5c4479674322d4f75edadd46debd5cd992f6ed")),
      Fp::from_canonical(
          BigInt<4>::from_hex("0x198e9393920d483a7260bfb731fb5d25f1aa493335a9e71297e485b7aef312c2"))};
  static constexpr Fp2 generator_y = {
      Fp::from_canonical(
          BigInt<4>::from_hex("0x12c85ea5db8c6deb4aab71808dcb408fe3d1e7690c43d37b4ce6cc0166fa7daa")),
      Fp::from_canonical(
          BigInt<4>::from_hex("0x090689d0585ff075ec9e99ad690c3395bc4b313370b38ef355acdadcd122975b"))};
};

using G2Affine = AffinePoint<G2Params>;
using G2Jacobian = JacobianPoint<G2Params>;
using G2Xyzz = XyzzPoint<G2Params>;

// snarkjs stores bn128 G2 points as x.c0 || x.c1 || y.c0 || y.c1 in Montgomery form, little-endian.
static_assert(sizeof(G2Affine) == 128 && sizeof(G2Jacobian) == 192 && sizeof(G2Xyzz) == 256);
static_assert(std::is_trivially_copyable_v<G2Affine> && std::is_standard_layout_v<G2Affine>);

/// psi = untwist o Frobenius o twist on the D-type twist: psi(x, y) = (conj(x) cx, conj(y) cy) with cx =
/// xi^((p
/// - 1) / 3) and cy = xi^((p - 1) / 2), xi = 9 + u (untwisting maps (x, y) to (x w^2, y w^3), and w^(p - 1) =
/// xi^((p - 1) / 6)). Written out; tests derive them. The Miller loop's two final lines use psi(Q), psi^2(Q).
inline constexpr Fp2 g2_psi_coeff_x = {
    Fp::from_canonical(
        BigInt<4>::from_hex("0x2fb347984f7911f74c0bec3cf559b143b78cc310c2c3330c99e39557176f553d")),
    Fp::from_canonical(
        BigInt<4>::from_hex("0x16c9e55061ebae204ba4cc8bd75a079432ae2a1d0b7c9dce1665d51c640fcba2"))};
inline constexpr Fp2 g2_psi_coeff_y = {
    Fp::from_canonical(
        BigInt<4>::from_hex("0x063cf305489af5dcdc5ec698b6e2f9b9dbaae0eda9c95998dc54014671a0135a")),
    Fp::from_canonical(
        BigInt<4>::from_hex("0x07c03cbcac41049a0704b5a7ec796f2b21807dc98fa25bd282d37f632623b0e3"))};

PL_HD_INLINE constexpr G2Affine g2_psi(const G2Affine& p) {
  constexpr Fp2 cx = g2_psi_coeff_x;
  constexpr Fp2 cy = g2_psi_coeff_y;
  return {p.x.conjugate() * cx, p.y.conjugate() * cy};  // keeps (0, 0)
}

/// [r]P == O by definition (a 254-bit scalar multiplication; host-side key and proof checks only). A
/// psi-based test (psi(P) == [6u^2]P on G2) is the faster candidate once its sufficiency for BN254 is
/// established for points outside G2. P must be on the curve; infinity is in the subgroup.
PL_HD constexpr bool is_in_subgroup(const G2Affine& p) {
  return is_in_subgroup_slow(p);
}
PL_HD constexpr bool is_in_subgroup(const G2Jacobian& p) {
  return is_in_subgroup_slow(p);
}

}  // namespace proofline::bn254
