// The Miller-loop doubling and addition steps on a sextic twist with a = 0, in homogeneous projective
// coordinates, shared by the pairings of both curves (Fp2 is the twist's field, an Fp2T). Aranha, Karabina,
// Longa, Gebotys, Lopez, "Faster explicit formulas for computing pairings over ordinary curves" (Eurocrypt
// 2011), with the doubling scaled by 4 so that it needs no halving.
//
// A step returns the line's three Fp2 coefficients: `a` (free of P), `b` (to be multiplied by xP) and `c` (by
// yP). Where they land in Fp12 depends on the twist type: a + b xP w^2 + c yP w^3 on an M-type twist
// (BLS12-381), c yP + b xP w + a w^3 on a D-type twist (BN254). Factors in proper subfields are dropped,
// since the final exponentiation removes them.
#pragma once

#include <span>
#include <utility>
#include <vector>

namespace proofline::detail {

template <class Fp2>
struct MillerLine {
  Fp2 a, b, c;
};

/// (X : Y : Z) for the affine point (X / Z, Y / Z) of the twist.
template <class Fp2>
struct HomogeneousPoint {
  Fp2 x, y, z;
};

/// One pair of a multi-Miller loop: P, Q and the running multiple T of Q (starting at Q).
template <class G1Affine, class G2Affine, class Fp2>
struct MillerTerm {
  G1Affine p;
  G2Affine q;
  HomogeneousPoint<Fp2> t;
};

/// The pairs that contribute to a multi-Miller loop: those with neither point at infinity (e(O, Q) = e(P, O)
/// = 1), each with T = Q.
template <class Fp2, class G1Affine, class G2Affine>
std::vector<MillerTerm<G1Affine, G2Affine, Fp2>> miller_terms(
    std::span<const std::pair<G1Affine, G2Affine>> pairs) {
  std::vector<MillerTerm<G1Affine, G2Affine, Fp2>> terms;
  terms.reserve(pairs.size());
  for (const auto& [p, q] : pairs)
    if (!p.is_infinity() && !q.is_infinity()) terms.push_back({p, q, {q.x, q.y, Fp2::one()}});
  return terms;
}

/// T <- 2T; returns the tangent line at T, times -2 y Z^2 (for M-type placement; the D-type placement is the
/// same line times a power of w): (3 b' Z^2 - Y^2), 3 X^2, -2 Y Z. mul_by_3b multiplies by 3 b' for the
/// twist's b'.
template <class Fp2, class MulBy3b>
MillerLine<Fp2> miller_doubling_step(HomogeneousPoint<Fp2>& t, MulBy3b mul_by_3b) {
  const Fp2 b = t.y.squared();
  const Fp2 c = t.z.squared();
  const Fp2 e = mul_by_3b(c);
  const Fp2 f = e + e + e;
  const Fp2 h = (t.y + t.z).squared() - b - c;  // 2 Y Z
  const Fp2 x2 = t.x.squared();
  const MillerLine<Fp2> line{e - b, x2 + x2 + x2, -h};
  // Aranha et al.'s X3 = XY/2 (B - F), Y3 = ((B + F)/2)^2 - 3 E^2, Z3 = B H, all times 4.
  const Fp2 e2 = e.squared();
  const Fp2 e2_3 = e2 + e2 + e2;
  t.x = (t.x * t.y * (b - f)).doubled();
  t.y = (b + f).squared() - (e2_3 + e2_3).doubled();
  t.z = (b * h).doubled().doubled();
  return line;
}

/// T <- T + Q (Q affine, T != +-Q); returns the line through T and Q times lambda = Z (x_T - x_Q):
/// (theta x_Q - lambda y_Q), -theta, lambda.
template <class Fp2, class Affine>
MillerLine<Fp2> miller_addition_step(HomogeneousPoint<Fp2>& t, const Affine& q) {
  const Fp2 theta = t.y - q.y * t.z;
  const Fp2 lambda = t.x - q.x * t.z;
  const Fp2 c = theta.squared();
  const Fp2 d = lambda.squared();
  const Fp2 e = lambda * d;
  const Fp2 f = t.z * c;
  const Fp2 g = t.x * d;
  const Fp2 h = e + f - g.doubled();
  const MillerLine<Fp2> line{theta * q.x - lambda * q.y, -theta, lambda};
  t.x = lambda * h;
  t.y = theta * (g - h) - e * t.y;
  t.z = t.z * e;
  return line;
}

}  // namespace proofline::detail
