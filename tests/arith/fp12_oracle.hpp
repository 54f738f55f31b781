// GMP model of Fp12 for the pairing tests, written from the definition rather than from the tower: an
// element is sum c[i] w^i over Fp2 with w^6 = xi = 1 + u, multiplied by schoolbook convolution. It shares
// no code with Fp6/Fp12 beyond the slot map: w^0, w^2, w^4 are c0.c0, c0.c1, c0.c2 and w^1, w^3, w^5 are
// c1.c0, c1.c1, c1.c2 (w^2 = v, v^3 = xi).
#pragma once

#include <gmpxx.h>

#include <array>
#include <cstddef>
#include <random>
#include <string>

#include <proofline/arith/fp12.hpp>

#include "arith/gmp_oracle.hpp"

namespace proofline::test {

struct MpzFp12 {
  std::array<MpzFp2, 6> c;  ///< coefficient of w^i
};

struct Fp12Oracle {
  static const mpz_class& p() { return FpOracle::p(); }
  static mpz_class r() { return to_mpz(Fr::modulus); }

  static MpzFp12 zero() {
    MpzFp12 out;
    for (auto& coefficient : out.c) coefficient = {0, 0};
    return out;
  }
  static MpzFp12 one() {
    MpzFp12 out = zero();
    out.c[0] = {1, 0};
    return out;
  }

  static Fp2* slot(Fp12& x, std::size_t power) {
    Fp6& half = power % 2 == 0 ? x.c0 : x.c1;
    Fp2* slots[3] = {&half.c0, &half.c1, &half.c2};
    return slots[power / 2];
  }
  static const Fp2& slot(const Fp12& x, std::size_t power) { return *slot(const_cast<Fp12&>(x), power); }

  static MpzFp12 value(const Fp12& x) {
    MpzFp12 out;
    for (std::size_t i = 0; i < 6; ++i) out.c[i] = Fp2Oracle::value(slot(x, i));
    return out;
  }
  static Fp12 element(const MpzFp12& x) {
    Fp12 out = Fp12::zero();
    for (std::size_t i = 0; i < 6; ++i) *slot(out, i) = Fp2Oracle::element(x.c[i]);
    return out;
  }

  static MpzFp12 mul(const MpzFp12& a, const MpzFp12& b) {
    // Unreduced convolution, then w^(6 + k) = xi w^k with xi (c0 + c1 u) = (c0 - c1) + (c0 + c1) u.
    std::array<MpzFp2, 11> wide;
    for (auto& coefficient : wide) coefficient = {0, 0};
    for (std::size_t i = 0; i < 6; ++i) {
      for (std::size_t j = 0; j < 6; ++j) {
        wide[i + j].c0 += a.c[i].c0 * b.c[j].c0 - a.c[i].c1 * b.c[j].c1;
        wide[i + j].c1 += a.c[i].c0 * b.c[j].c1 + a.c[i].c1 * b.c[j].c0;
      }
    }
    MpzFp12 out;
    for (std::size_t k = 0; k < 6; ++k) {
      mpz_class c0 = wide[k].c0, c1 = wide[k].c1;
      if (k + 6 < 11) {
        c0 += wide[k + 6].c0 - wide[k + 6].c1;
        c1 += wide[k + 6].c0 + wide[k + 6].c1;
      }
      out.c[k] = {mod(c0, p()), mod(c1, p())};
    }
    return out;
  }

  static MpzFp12 add(const MpzFp12& a, const MpzFp12& b) {
    MpzFp12 out;
    for (std::size_t i = 0; i < 6; ++i) out.c[i] = Fp2Oracle::add(a.c[i], b.c[i]);
    return out;
  }
  static MpzFp12 sub(const MpzFp12& a, const MpzFp12& b) {
    MpzFp12 out;
    for (std::size_t i = 0; i < 6; ++i) out.c[i] = Fp2Oracle::sub(a.c[i], b.c[i]);
    return out;
  }

  /// Right-to-left binary powering; exponent >= 0.
  static MpzFp12 pow(MpzFp12 base, mpz_class exponent) {
    MpzFp12 result = one();
    while (exponent > 0) {
      if (mpz_odd_p(exponent.get_mpz_t())) result = mul(result, base);
      exponent >>= 1;
      if (exponent > 0) base = mul(base, base);
    }
    return result;
  }

  /// An element of Fp2 placed at w^power.
  static MpzFp12 monomial(const MpzFp2& coefficient, std::size_t power) {
    MpzFp12 out;
    for (auto& c : out.c) c = {0, 0};
    out.c[power] = Fp2Oracle::reduce(coefficient);
    return out;
  }

  static bool equal(const MpzFp12& a, const MpzFp12& b) {
    for (std::size_t i = 0; i < 6; ++i) {
      if (!Fp2Oracle::equal(a.c[i], b.c[i])) return false;
    }
    return true;
  }

  static mpz_class p_power(unsigned k) {
    mpz_class out;
    mpz_pow_ui(out.get_mpz_t(), p().get_mpz_t(), k);
    return out;
  }
  /// 3 (p^12 - 1) / r, the exponent of the final exponentiation (see pairing.cpp).
  static mpz_class final_exponent() {
    const mpz_class order = p_power(12) - 1;
    return 3 * (order / r());
  }
};

inline Fp2 random_fp2(Rng& rng) {
  return {FpOracle::random_element(rng), FpOracle::random_element(rng)};
}
inline Fp6 random_fp6(Rng& rng) {
  return {random_fp2(rng), random_fp2(rng), random_fp2(rng)};
}
inline Fp12 random_fp12(Rng& rng) {
  return {random_fp6(rng), random_fp6(rng)};
}

}  // namespace proofline::test

namespace doctest {

template <>
struct StringMaker<proofline::Fp12> {
  static String convert(const proofline::Fp12& x) {
    std::string text = "[";
    for (std::size_t i = 0; i < 6; ++i) {
      const proofline::Fp2& c = proofline::test::Fp12Oracle::slot(x, i);
      text += std::string(i ? ", " : "") + "w^" + std::to_string(i) + ": " +
              proofline::test::hex_text(proofline::test::FpOracle::value(c.c0)) + " + " +
              proofline::test::hex_text(proofline::test::FpOracle::value(c.c1)) + " u";
    }
    return (text + "]").c_str();
  }
};

}  // namespace doctest
