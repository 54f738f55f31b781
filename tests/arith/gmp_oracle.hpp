// GMP reference for the arithmetic tests. Conversions between proofline integers or field elements and
// mpz_class go through GMP alone (Montgomery limbs are decoded with R^-1 computed by GMP), never through
// canonical()/from_canonical(), so the oracle does not share code with what it checks.
#pragma once

#include <doctest/doctest.h>
#include <gmpxx.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <proofline/arith/bigint.hpp>
#include <proofline/arith/fp.hpp>
#include <proofline/arith/fp2.hpp>
#include <proofline/arith/fr.hpp>
#include <proofline/arith/mont_field.hpp>

namespace proofline::test {

using Rng = std::mt19937_64;

inline mpz_class pow2(unsigned long exponent) {
  mpz_class out;
  mpz_ui_pow_ui(out.get_mpz_t(), 2, exponent);
  return out;
}

/// Least non-negative residue (mpz_class's % truncates towards zero).
inline mpz_class mod(const mpz_class& value, const mpz_class& modulus) {
  mpz_class out;
  mpz_mod(out.get_mpz_t(), value.get_mpz_t(), modulus.get_mpz_t());
  return out;
}

inline mpz_class powm(const mpz_class& base, const mpz_class& exponent, const mpz_class& modulus) {
  mpz_class out;
  mpz_powm(out.get_mpz_t(), base.get_mpz_t(), exponent.get_mpz_t(), modulus.get_mpz_t());
  return out;
}

inline mpz_class invert(const mpz_class& value, const mpz_class& modulus) {
  mpz_class out;
  if (mpz_invert(out.get_mpz_t(), value.get_mpz_t(), modulus.get_mpz_t()) == 0) out = 0;
  return out;
}

inline mpz_class from_hex_text(const char* text) {
  std::string digits = text;
  if (digits.size() >= 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) digits.erase(0, 2);
  return mpz_class(digits, 16);
}

inline std::string hex_text(const mpz_class& value) {
  return (value < 0 ? "-0x" : "0x") + mpz_class(abs(value)).get_str(16);
}

template <std::size_t N>
mpz_class to_mpz(const BigInt<N>& value) {
  mpz_class out;
  mpz_import(out.get_mpz_t(), N, -1, sizeof(std::uint64_t), 0, 0, value.limb);
  return out;
}

template <std::size_t N>
BigInt<N> to_bigint(const mpz_class& value) {
  if (value < 0 || mpz_sizeinbase(value.get_mpz_t(), 2) > 64 * N) {
    throw std::range_error("gmp_oracle: " + hex_text(value) + " does not fit BigInt<" + std::to_string(N) +
                           ">");
  }
  BigInt<N> out;
  std::size_t count = 0;
  mpz_export(out.limb, &count, -1, sizeof(std::uint64_t), 0, 0, value.get_mpz_t());
  return out;
}

/// Random N-limb integer whose limbs favour carry and borrow edges: 0, 1, all ones, the top bit alone, or a
/// uniform word.
template <std::size_t N>
BigInt<N> random_patterned(Rng& rng) {
  BigInt<N> out;
  for (std::size_t i = 0; i < N; ++i) {
    switch (rng() % 8) {
      case 0:
        out.limb[i] = 0;
        break;
      case 1:
        out.limb[i] = ~std::uint64_t{0};
        break;
      case 2:
        out.limb[i] = 1;
        break;
      case 3:
        out.limb[i] = std::uint64_t{1} << 63;
        break;
      case 4:
        out.limb[i] = ~std::uint64_t{0} >> (rng() % 64);
        break;
      default:
        out.limb[i] = rng();
        break;
    }
  }
  return out;
}

/// Uniform in [0, 2^bits).
inline mpz_class random_mpz_bits(Rng& rng, std::size_t bits) {
  std::vector<std::uint64_t> words((bits + 63) / 64);
  for (auto& word : words) word = rng();
  mpz_class out;
  mpz_import(out.get_mpz_t(), words.size(), -1, sizeof(std::uint64_t), 0, 0, words.data());
  return mod(out, pow2(bits));
}

/// GMP model of one prime field in Montgomery form.
template <class Field>
struct FieldOracle {
  static constexpr std::size_t N = Field::N;

  static const mpz_class& p() {
    static const mpz_class value = to_mpz(Field::modulus);
    return value;
  }
  /// R = 2^(64N) mod p, and its inverse.
  static const mpz_class& r() {
    static const mpz_class value = mod(pow2(64 * N), p());
    return value;
  }
  static const mpz_class& r_inv() {
    static const mpz_class value = invert(r(), p());
    return value;
  }

  /// The value an element stands for: its Montgomery limbs times R^-1.
  static mpz_class value(const Field& element) { return mod(to_mpz(element.montgomery()) * r_inv(), p()); }
  /// The element whose value is v mod p, with fully reduced Montgomery limbs.
  static Field element(const mpz_class& v) { return Field::from_montgomery(to_bigint<N>(mod(v * r(), p()))); }
  static bool reduced(const Field& element) { return to_mpz(element.montgomery()) < p(); }

  /// Uniform in [0, p) (64 extra bits before the reduction make the bias negligible) or, every other draw,
  /// limb patterns reduced mod p.
  static mpz_class random_value(Rng& rng) {
    if (rng() % 2 == 0) return mod(random_mpz_bits(rng, 64 * N + 64), p());
    return mod(to_mpz(random_patterned<N>(rng)), p());
  }
  static Field random_element(Rng& rng) { return element(random_value(rng)); }

  /// Values that stress carries, borrows and the final subtraction, and the values whose Montgomery limbs
  /// are those edges (so the multiplier sees them as raw operands), deduplicated, all in [0, p).
  static std::vector<mpz_class> edge_values() {
    const mpz_class& m = p();
    const std::size_t bits = mpz_sizeinbase(m.get_mpz_t(), 2);
    std::vector<mpz_class> base = {0,
                                   1,
                                   2,
                                   3,
                                   m - 1,
                                   m - 2,
                                   (m - 1) / 2,
                                   (m + 1) / 2,
                                   r(),
                                   m - r(),
                                   mod(r() * r(), m),
                                   r_inv(),
                                   pow2(64) - 1,
                                   pow2(64),
                                   pow2(64) + 1,
                                   pow2(bits - 1),
                                   pow2(bits - 1) - 1,
                                   pow2(bits - 1) + 1};
    const mpz_class top_limb = m >> (64 * (N - 1));
    base.push_back((top_limb - 1) * pow2(64 * (N - 1)) + pow2(64 * (N - 1)) - 1);  // low limbs all ones
    for (std::size_t k = 1; k < N; ++k) {
      base.push_back(pow2(64 * k) - 1);
      base.push_back(pow2(64 * k));
      base.push_back((pow2(64) - 1) * pow2(64 * (k - 1)));  // one all-ones limb
      base.push_back(m - pow2(64 * k));
    }
    std::vector<mpz_class> out;
    auto add = [&](const mpz_class& v) {
      const mpz_class reduced_value = mod(v, m);
      for (const auto& seen : out) {
        if (seen == reduced_value) return;
      }
      out.push_back(reduced_value);
    };
    for (const auto& v : base) add(v);
    for (const auto& v : base) add(mod(v, m) * r_inv());
    return out;
  }
};

using FrOracle = FieldOracle<Fr>;
using FpOracle = FieldOracle<Fp>;

/// GMP model of Fp2 = Fp[u] / (u^2 + 1), written from the definition.
struct MpzFp2 {
  mpz_class c0, c1;
};

struct Fp2Oracle {
  static const mpz_class& p() { return FpOracle::p(); }
  static MpzFp2 value(const Fp2& x) { return {FpOracle::value(x.c0), FpOracle::value(x.c1)}; }
  static Fp2 element(const MpzFp2& x) { return {FpOracle::element(x.c0), FpOracle::element(x.c1)}; }
  static MpzFp2 reduce(const MpzFp2& x) { return {mod(x.c0, p()), mod(x.c1, p())}; }

  static MpzFp2 add(const MpzFp2& a, const MpzFp2& b) { return reduce({a.c0 + b.c0, a.c1 + b.c1}); }
  static MpzFp2 sub(const MpzFp2& a, const MpzFp2& b) { return reduce({a.c0 - b.c0, a.c1 - b.c1}); }
  static MpzFp2 neg(const MpzFp2& a) { return reduce({-a.c0, -a.c1}); }
  /// (a0 + a1 u)(b0 + b1 u) = a0 b0 + a1 b1 u^2 + (a0 b1 + a1 b0) u, with u^2 = -1.
  static MpzFp2 mul(const MpzFp2& a, const MpzFp2& b) {
    return reduce({a.c0 * b.c0 - a.c1 * b.c1, a.c0 * b.c1 + a.c1 * b.c0});
  }
  static mpz_class norm(const MpzFp2& a) { return mod(a.c0 * a.c0 + a.c1 * a.c1, p()); }
  static MpzFp2 inverse(const MpzFp2& a) {
    const mpz_class n_inv = invert(norm(a), p());
    return reduce({a.c0 * n_inv, -a.c1 * n_inv});
  }
  /// Right-to-left binary powering (the code under test goes left to right).
  static MpzFp2 pow(MpzFp2 base, mpz_class exponent) {
    MpzFp2 result{1, 0};
    while (exponent > 0) {
      if (mpz_odd_p(exponent.get_mpz_t())) result = mul(result, base);
      base = mul(base, base);
      exponent >>= 1;
    }
    return result;
  }
  /// Euler's criterion through the norm: x != 0 is a square in Fp2 iff N(x) = x^(p+1) is a square in Fp.
  static bool is_square(const MpzFp2& a) {
    if (a.c0 == 0 && a.c1 == 0) return true;
    return mpz_legendre(norm(a).get_mpz_t(), p().get_mpz_t()) == 1;
  }
  static bool equal(const MpzFp2& a, const MpzFp2& b) { return a.c0 == b.c0 && a.c1 == b.c1; }
};

}  // namespace proofline::test

// Failure messages show values in hexadecimal, field elements with their Montgomery limbs.
namespace doctest {

template <>
struct StringMaker<mpz_class> {
  static String convert(const mpz_class& value) { return proofline::test::hex_text(value).c_str(); }
};

template <std::size_t N>
struct StringMaker<proofline::BigInt<N>> {
  static String convert(const proofline::BigInt<N>& value) {
    return proofline::test::hex_text(proofline::test::to_mpz(value)).c_str();
  }
};

template <class Params>
struct StringMaker<proofline::MontField<Params>> {
  static String convert(const proofline::MontField<Params>& element) {
    using Oracle = proofline::test::FieldOracle<proofline::MontField<Params>>;
    const std::string text = proofline::test::hex_text(Oracle::value(element)) + " (montgomery " +
                             proofline::test::hex_text(proofline::test::to_mpz(element.montgomery())) + ")";
    return text.c_str();
  }
};

template <>
struct StringMaker<proofline::Fp2> {
  static String convert(const proofline::Fp2& element) {
    std::string text = "(";
    text += StringMaker<proofline::Fp>::convert(element.c0).c_str();
    text += ", ";
    text += StringMaker<proofline::Fp>::convert(element.c1).c_str();
    text += ")";
    return text.c_str();
  }
};

}  // namespace doctest
