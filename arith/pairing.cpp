// Optimal ate pairing on BLS12-381.
//
// Miller loop: f_{|z|,Q}(P) over the bits of |z| = 0xd201000000010000 (63 doublings, 5 additions), with T
// kept in homogeneous projective coordinates on the twist E': y^2 = x^3 + 4 xi (an M-type twist, xi = 1 + u).
// Untwisting maps (x', y') to (x' w^-2, y' w^-3); a line through untwisted points, multiplied by w^3 and by
// an Fp2 factor, becomes a + b xP w^2 + c yP w^3. Factors in proper subfields (Fp2, Fp4, Fp6) and the
// vertical lines (which lie in Fp6) vanish in the final exponentiation, so they are dropped. Because z < 0,
// the loop result is conjugated: f_{z,Q} = 1 / f_{|z|,Q} up to such factors, and conjugation is the
// inverse after the easy part (the pairing values have norm 1 over Fp6).
//
// Doubling and addition steps are detail/miller_steps.hpp's (shared with BN254's pairing): Aranha, Karabina,
// Longa, Gebotys, Lopez, "Faster explicit formulas for computing pairings over ordinary curves" (Eurocrypt
// 2011), equations for homogeneous coordinates and a = 0, with b' = 4 xi for this twist.
//
// Final exponentiation: f^((p^6 - 1)(p^2 + 1)) (easy part), then the hard part by Hayashida, Hayasaka,
// Teruya, "Efficient final exponentiation via cyclotomic structure for pairings over families of elliptic
// curves" (eprint 2020/875): 3 (p^4 - p^2 + 1) / r = (z - 1)^2 (z + p)(z^2 + p^2 - 1) + 3. The result is the
// cube of f^((p^12 - 1) / r); since 3 does not divide r this is still a non-degenerate bilinear pairing, and
// it is the same value zkcrypto/bls12_381 and ffjavascript (snarkjs, whose wasmcurves ports zkcrypto's chain)
// compute: their hard part is the decomposition lambda_0 + lambda_1 p + lambda_2 p^2 + lambda_3 p^3 of the
// same exponent 3 (p^4 - p^2 + 1) / r.
#include <proofline/arith/pairing.hpp>

#include <proofline/arith/curve_params.hpp>
#include <proofline/arith/detail/miller_steps.hpp>

#include <bit>
#include <cstdint>

namespace proofline {

namespace {

/// Bits of |z| below the leading one, from the top: the loop's steps.
constexpr unsigned loop_top_bit = 63 - std::countl_zero(bls_z_abs);
constexpr std::size_t loop_line_count = loop_top_bit + std::popcount(bls_z_abs) - 1;

using Homogeneous = detail::HomogeneousPoint<Fp2>;

/// 12 xi * value (3 b' with b' = 4 xi), by additions.
Fp2 mul_by_3b(const Fp2& value) {
  const Fp2 twice = value.mul_by_nonresidue().doubled();
  const Fp2 four = twice.doubled();
  return (four + twice).doubled();
}

/// T <- 2T; returns the tangent line at T (detail/miller_steps.hpp), placed as a + b xP w^2 + c yP w^3.
PreparedG2::Line doubling_step(Homogeneous& t) {
  const detail::MillerLine<Fp2> line =
      detail::miller_doubling_step(t, [](const Fp2& v) { return mul_by_3b(v); });
  return {line.a, line.b, line.c};
}

/// T <- T + Q (Q affine, T != +-Q, which holds for Q of order r and the multiples |z| visits); returns the
/// line through T and Q.
PreparedG2::Line addition_step(Homogeneous& t, const G2Affine& q) {
  const detail::MillerLine<Fp2> line = detail::miller_addition_step(t, q);
  return {line.a, line.b, line.c};
}

Fp12 mul_by_line(const Fp12& f, const PreparedG2::Line& line, const G1Affine& p) {
  return f.mul_by_line(line.a, line.b * p.x, line.c * p.y);
}

/// f^|z| for f in the cyclotomic subgroup.
Fp12 cyclotomic_pow_z_abs(const Fp12& f) {
  Fp12 result = f;
  for (unsigned i = loop_top_bit; i-- > 0;) {
    result = result.cyclotomic_squared();
    if ((bls_z_abs >> i) & 1u) result *= f;
  }
  return result;
}

/// f^z for f in the cyclotomic subgroup (z < 0: the conjugate is the inverse there).
Fp12 cyclotomic_pow_z(const Fp12& f) {
  const Fp12 result = cyclotomic_pow_z_abs(f);
  return bls_z_is_negative ? result.conjugate() : result;
}

}  // namespace

PreparedG2::PreparedG2(const G2Affine& q) {
  if (q.is_infinity()) return;
  lines_.reserve(loop_line_count);
  Homogeneous t{q.x, q.y, Fp2::one()};
  for (unsigned i = loop_top_bit; i-- > 0;) {
    lines_.push_back(doubling_step(t));
    if ((bls_z_abs >> i) & 1u) lines_.push_back(addition_step(t, q));
  }
}

Fp12 multi_miller_loop(std::span<const std::pair<G1Affine, G2Affine>> pairs) {
  auto active = detail::miller_terms<Fp2>(pairs);
  Fp12 f = Fp12::one();
  if (active.empty()) return f;
  for (unsigned i = loop_top_bit; i-- > 0;) {
    if (i + 1 != loop_top_bit) f = f.squared();  // f is still 1 on the first step
    for (auto& term : active) f = mul_by_line(f, doubling_step(term.t), term.p);
    if ((bls_z_abs >> i) & 1u) {
      for (auto& term : active) f = mul_by_line(f, addition_step(term.t, term.q), term.p);
    }
  }
  return bls_z_is_negative ? f.conjugate() : f;
}

Fp12 multi_miller_loop(std::span<const std::pair<G1Affine, std::reference_wrapper<const PreparedG2>>> pairs) {
  struct Active {
    G1Affine p;
    const PreparedG2::Line* lines;
  };
  std::vector<Active> active;
  active.reserve(pairs.size());
  for (const auto& [p, q] : pairs) {
    if (!p.is_infinity() && !q.get().is_infinity()) active.push_back({p, q.get().lines().data()});
  }
  Fp12 f = Fp12::one();
  if (active.empty()) return f;
  std::size_t index = 0;
  for (unsigned i = loop_top_bit; i-- > 0;) {
    if (i + 1 != loop_top_bit) f = f.squared();
    for (const auto& term : active) f = mul_by_line(f, term.lines[index], term.p);
    ++index;
    if ((bls_z_abs >> i) & 1u) {
      for (const auto& term : active) f = mul_by_line(f, term.lines[index], term.p);
      ++index;
    }
  }
  return bls_z_is_negative ? f.conjugate() : f;
}

Fp12 miller_loop(const G1Affine& p, const G2Affine& q) {
  const std::pair<G1Affine, G2Affine> pair{p, q};
  return multi_miller_loop(std::span(&pair, 1));
}

Fp12 final_exponentiation(const Fp12& f) {
  // Easy part: f^(p^6 - 1) has norm 1 over Fp6; raising to p^2 + 1 lands in the cyclotomic subgroup, where
  // conjugation inverts and the cyclotomic squaring applies.
  Fp12 t = f.conjugate() * f.inverse();
  t = t.frobenius_map(2) * t;
  // Hard part, t^((z - 1)^2 (z + p)(z^2 + p^2 - 1) + 3).
  const auto pow_z_minus_1 = [](const Fp12& x) { return cyclotomic_pow_z(x) * x.conjugate(); };
  const Fp12 a = pow_z_minus_1(pow_z_minus_1(t));
  const Fp12 b = cyclotomic_pow_z(a) * a.frobenius_map(1);
  const Fp12 c = cyclotomic_pow_z(cyclotomic_pow_z(b)) * b.frobenius_map(2) * b.conjugate();
  return c * t.cyclotomic_squared() * t;
}

Fp12 pairing(const G1Affine& p, const G2Affine& q) {
  return final_exponentiation(miller_loop(p, q));
}

}  // namespace proofline
