// Points on the curves but outside their prime-order subgroups, for the key-check tests (CPU and GPU): a
// subgroup point shifted by a small-order point (BLS12-381's G1 3-torsion, G2 13-torsion), and points hashed
// to the curve without clearing the cofactor (BLS12-381's G1 and G2, BN254's twist).
#pragma once

#include <cstdint>

#include <doctest/doctest.h>

#include <proofline/arith/bigint.hpp>
#include <proofline/arith/curves.hpp>

namespace proofline::test_support {

/// Q + (0, 2): on E(Fp), its non-G1 part the 3-torsion point (0, 2) (a flex of y^2 = x^3 + 4).
inline G1Affine g1_with_order3_component(const G1Affine& q) {
  const G1Affine t{Fp::zero(), Fp::from_u64(2)};
  return (q.to_jacobian() + t).to_affine();
}

/// Hashing x = first, first + 1, ... to the curve without clearing the cofactor.
inline G1Affine g1_outside_subgroup(std::uint64_t first = 1) {
  for (std::uint64_t x = first;; ++x) {
    G1Affine p{Fp::from_u64(x), Fp::zero()};
    if ((p.x.squared() * p.x + Fp::from_u64(4)).sqrt(p.y) && !is_in_subgroup(p)) return p;
  }
}
/// BN254's twist: (x + i, y) for the first small x on the curve, its cofactor not cleared.
inline bn254::G2Affine bn254_g2_outside_subgroup() {
  for (std::uint64_t x = 1;; ++x) {
    bn254::G2Affine p{bn254::Fp2{bn254::Fp::from_u64(x), bn254::Fp::one()}, bn254::Fp2{}};
    if ((p.x.squared() * p.x + bn254::G2Params::b).sqrt(p.y) && !is_in_subgroup(p)) return p;
  }
}

inline G2Affine g2_outside_subgroup(std::uint64_t first = 1) {
  for (std::uint64_t x = first;; ++x) {
    G2Affine p{Fp2{Fp::from_u64(x), Fp::one()}, Fp2{}};
    if ((p.x.squared() * p.x + Fp2{Fp::from_u64(4), Fp::from_u64(4)}).sqrt(p.y) && !is_in_subgroup(p))
      return p;
  }
}

/// Q + T with T of order 13 in E'(Fp2): #E' = h2·r with 13² | h2, so [h2/13²]·[r]·P lies in the 13-part of
/// the cofactor group; multiplied by 13 until the next step would give O, it has order exactly 13.
inline G2Affine g2_with_order13_component(const G2Affine& q) {
  constexpr auto h2_over_169 = BigInt<8>::from_hex(
      "0x8d5fc7522f6c4d5a3c5663541d68b60a5f9bdc250555d81be2a9b0c6483045a5b213dcb71085945e0aef29c5e8629edf404"
      "6db800a8373336b3150941cfdd");
  const BigInt<1> thirteen{{13}};
  for (std::uint64_t x = 1;; x += 1) {
    G2Affine t = g2_outside_subgroup(x).mul(Fr::modulus).to_affine().mul(h2_over_169).to_affine();
    if (t.is_infinity()) continue;
    for (G2Affine next = t.mul(thirteen).to_affine(); !next.is_infinity(); next = t.mul(thirteen).to_affine())
      t = next;
    REQUIRE(t.mul(thirteen).is_infinity());
    return (q.to_jacobian() + t).to_affine();
  }
}

}  // namespace proofline::test_support
