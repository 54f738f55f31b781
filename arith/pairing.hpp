// The optimal ate pairing on BLS12-381, host only (the Groth16 verifier's pairing check).
//
// Convention: pairing(P, Q) = f_{z,Q}(P)^(3 (p^12 - 1) / r), the cube of the textbook reduced pairing (still
// bilinear and non-degenerate, since 3 does not divide r). It is the value zkcrypto/bls12_381 and
// snarkjs/ffjavascript compute: the tests reproduce snarkjs's published vk_alphabeta_12 = e(alpha, beta) and
// zkcrypto's Gt generator e(G1, G2) bit for bit. See pairing.cpp for the algorithms.
#pragma once

#include <cstddef>
#include <functional>
#include <span>
#include <utility>
#include <vector>

#include <proofline/arith/fp12.hpp>
#include <proofline/arith/fp2.hpp>
#include <proofline/arith/g1.hpp>
#include <proofline/arith/g2.hpp>

namespace proofline {

/// The Miller-loop line coefficients of one fixed G2 point, as a verifying key keeps for gamma and delta:
/// the multi Miller loop then only evaluates them at the G1 points. 68 lines of 288 bytes (63 doublings and
/// 5 additions for |z|). The point at infinity prepares to an empty set that the loop skips.
class PreparedG2 {
 public:
  /// A line through points of the twist, evaluated at P = (x, y) in G1: a + (b x) w^2 + (c y) w^3.
  struct Line {
    Fp2 a, b, c;
  };

  PreparedG2() = default;  // the point at infinity
  explicit PreparedG2(const G2Affine& q);

  bool is_infinity() const { return lines_.empty(); }
  std::span<const Line> lines() const { return lines_; }

 private:
  std::vector<Line> lines_;
};

/// f_{z,Q}(P) (up to factors the final exponentiation removes); 1 when P or Q is the point at infinity.
/// Inputs must be on their curves and in the prime-order subgroups (the caller checks untrusted points).
Fp12 miller_loop(const G1Affine& p, const G2Affine& q);

/// The product of the Miller loops of all pairs, sharing the squarings; pairs with a point at infinity are
/// skipped, and an empty span gives 1.
Fp12 multi_miller_loop(std::span<const std::pair<G1Affine, G2Affine>> pairs);
Fp12 multi_miller_loop(std::span<const std::pair<G1Affine, std::reference_wrapper<const PreparedG2>>> pairs);

/// f^(3 (p^12 - 1) / r): the easy part (p^6 - 1)(p^2 + 1), then the hard part 3 (p^4 - p^2 + 1) / r by the
/// Hayashida-Hayasaka-Teruya chain. A zero input (never a Miller-loop output) gives zero.
Fp12 final_exponentiation(const Fp12& f);

/// e(P, Q) = final_exponentiation(miller_loop(P, Q)).
Fp12 pairing(const G1Affine& p, const G2Affine& q);

/// The pairing check of a verifier: whether a final-exponentiated product equals 1.
inline bool is_one(const Fp12& value) {
  return value.is_one();
}

}  // namespace proofline
