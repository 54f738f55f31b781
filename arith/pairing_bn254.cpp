// Optimal ate pairing on BN254.
//
// Miller loop: f_{6u+2,Q}(P) over the signed binary (NAF) digits of 6u + 2, computed here from u, then the
// two Frobenius lines of the optimal ate pairing: T + psi(Q) and T - psi^2(Q), with T = [6u + 2]Q
// (Vercauteren, "Optimal pairings", IEEE Trans. Inf. Theory 2010; u > 0, so nothing is conjugated). T is kept
// in homogeneous coordinates on the D-type twist E': y^2 = x^3 + b' with b' = 3 / xi, xi = 9 + u; untwisting
// maps (x', y') to (x' w^2, y' w^3), so a line a + b xP + c yP of detail/miller_steps.hpp lands on 1, w and
// w^3 as c yP + b xP w + a w^3 (Fp12T::mul_by_line_d).
//
// Final exponentiation: f^((p^6 - 1)(p^2 + 1)) (easy part, by conjugation, one inversion and a Frobenius),
// then the hard part (p^4 - p^2 + 1) / r exactly, decomposed in base p with coefficients in u (see
// final_exponentiation): three 63-bit cyclotomic powers instead of one 761-bit one. Tests compare the
// result with f^((p^12 - 1) / r) computed by GMP from the definition. (The Fuentes-Castaneda et al. chain
// is shorter still but raises to a multiple of the exponent, which would change the pairing's value.)
#include <proofline/arith/bn254/pairing.hpp>

#include <array>
#include <bit>
#include <cstdint>
#include <vector>

#include <proofline/arith/bn254/curve_params.hpp>
#include <proofline/arith/detail/miller_steps.hpp>

namespace proofline::bn254 {

namespace {

using Line = detail::MillerLine<Fp2>;
using Homogeneous = detail::HomogeneousPoint<Fp2>;

/// Non-adjacent form of 6u + 2, least significant digit first (66 digits at most for a 65-bit value).
struct LoopDigits {
  std::array<std::int8_t, 66> digit{};
  unsigned count = 0;
};

constexpr LoopDigits ate_loop_naf() {
  LoopDigits out;
  detail::uint128 value = (detail::uint128{ate_loop_count.limb[1]} << 64) | ate_loop_count.limb[0];
  while (value != 0) {
    std::int8_t d = 0;
    if (value & 1) {
      d = (value & 3) == 1 ? 1 : -1;
      value = d == 1 ? value - 1 : value + 1;
    }
    out.digit[out.count++] = d;
    value >>= 1;
  }
  return out;
}

constexpr LoopDigits loop_naf = ate_loop_naf();
static_assert(loop_naf.count == 66 && loop_naf.digit[65] == 1);

/// 3 b' = 9 / (9 + u) times value.
Fp2 mul_by_3b(const Fp2& value) {
  static const Fp2 three_b = G2Params::b + G2Params::b + G2Params::b;
  return value * three_b;
}

Fp12 mul_by_line(const Fp12& f, const Line& line, const G1Affine& p) {
  return f.mul_by_line_d(line.c * p.y, line.b * p.x, line.a);
}

/// f^k for f in the cyclotomic subgroup, by cyclotomic square-and-multiply (variable time: k is public).
Fp12 cyclotomic_pow(const Fp12& f, std::uint64_t k) {
  Fp12 result = Fp12::one();
  for (unsigned i = 64 - std::countl_zero(k); i-- > 0;) {
    result = result.cyclotomic_squared();
    if ((k >> i) & 1u) result *= f;
  }
  return result;
}

}  // namespace

Fp12 multi_miller_loop(std::span<const std::pair<G1Affine, G2Affine>> pairs) {
  auto active = detail::miller_terms<Fp2>(pairs);
  Fp12 f = Fp12::one();
  if (active.empty()) return f;
  const unsigned top = loop_naf.count - 1;
  for (unsigned i = top; i-- > 0;) {
    if (i + 1 != top) f = f.squared();  // f is still 1 on the first step
    for (auto& term : active)
      f = mul_by_line(f, detail::miller_doubling_step(term.t, [](const Fp2& v) { return mul_by_3b(v); }),
                      term.p);
    const int digit = loop_naf.digit[i];
    if (digit == 0) continue;
    for (auto& term : active) {
      const G2Affine q = digit > 0 ? term.q : -term.q;
      f = mul_by_line(f, detail::miller_addition_step(term.t, q), term.p);
    }
  }
  // The optimal ate correction: lines through T and psi(Q), then through T + psi(Q) and -psi^2(Q).
  for (auto& term : active) {
    const G2Affine q1 = g2_psi(term.q);
    const G2Affine q2 = g2_psi(q1);
    f = mul_by_line(f, detail::miller_addition_step(term.t, q1), term.p);
    f = mul_by_line(f, detail::miller_addition_step(term.t, -q2), term.p);
  }
  return f;
}

Fp12 miller_loop(const G1Affine& p, const G2Affine& q) {
  const std::pair<G1Affine, G2Affine> pair{p, q};
  return multi_miller_loop(std::span(&pair, 1));
}

Fp12 final_exponentiation(const Fp12& f) {
  // Easy part: f^(p^6 - 1) has norm 1 over Fp6; raising to p^2 + 1 lands in the cyclotomic subgroup.
  Fp12 t = f.conjugate() * f.inverse();
  t = t.frobenius_map(2) * t;
  // Hard part: (p^4 - p^2 + 1) / r = l0 + l1 p + l2 p^2 + l3 p^3 with l3 = 1, l2 = 6u^2 + 1,
  // l1 = -36u^3 - 18u^2 - 12u + 1, l0 = -36u^3 - 30u^2 - 18u - 2 (Scott, Benger, Charlemagne, Dominguez
  // Perez, Kachisa, "On the final exponentiation for calculating pairings on ordinary elliptic curves",
  // Pairing 2009): three powers by u and small exponents, inverses by conjugation.
  const Fp12 t_u = cyclotomic_pow(t, ate_u);
  const Fp12 t_u2 = cyclotomic_pow(t_u, ate_u);
  const Fp12 t_u3 = cyclotomic_pow(t_u2, ate_u);
  const Fp12 t_u3_36 = cyclotomic_pow(t_u3, 36);
  const Fp12 l0 =
      (t_u3_36 * cyclotomic_pow(t_u2, 30) * cyclotomic_pow(t_u, 18) * t.cyclotomic_squared()).conjugate();
  const Fp12 l1 = (t_u3_36 * cyclotomic_pow(t_u2, 18) * cyclotomic_pow(t_u, 12)).conjugate() * t;
  const Fp12 l2 = cyclotomic_pow(t_u2, 6) * t;
  return l0 * l1.frobenius_map(1) * l2.frobenius_map(2) * t.frobenius_map(3);
}

Fp12 pairing(const G1Affine& p, const G2Affine& q) {
  return final_exponentiation(miller_loop(p, q));
}

bool pairing_product_is_one(std::span<const std::pair<G1Affine, G2Affine>> pairs) {
  return final_exponentiation(multi_miller_loop(pairs)).is_one();
}

}  // namespace proofline::bn254
