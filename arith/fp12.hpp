// Fp12 = Fp6[w] / (w^2 - v): the pairing target field, for any Fp2T (Fp12T<Fp2>; BLS12-381's is Fp12 below,
// BN254's in bn254/fp12.hpp). Host only.
//
// Over Fp2 the basis is 1, w, w^2 = v, w^3, w^4 = v^2, w^5 with w^6 = xi (1 + u for BLS12-381), so c0 holds
// the even powers (w^0, w^2, w^4) and c1 the odd ones (w^1, w^3, w^5). zkcrypto/bls12_381 and ffjavascript
// (snarkjs) build the same tower, so their values compare slot for slot (tests/arith/test_pairing.cpp does).
// ffjavascript's JSON writes an element as [[c0.c0, c0.c1, c0.c2], [c1.c0, c1.c1, c1.c2]] with each Fp2 as
// [real, u].
#pragma once

#include <cstddef>

#include <proofline/arith/bigint.hpp>
#include <proofline/arith/fp6.hpp>

namespace proofline {

template <class Fp2>
struct Fp12T {
  using Fp6 = Fp6T<Fp2>;

  Fp6 c0;  ///< even powers of w
  Fp6 c1;  ///< coefficient of w

  static Fp12T zero() { return {Fp6::zero(), Fp6::zero()}; }
  static Fp12T one() { return {Fp6::one(), Fp6::zero()}; }

  bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  bool is_one() const { return *this == one(); }
  friend bool operator==(const Fp12T& a, const Fp12T& b) { return a.c0 == b.c0 && a.c1 == b.c1; }
  friend bool operator!=(const Fp12T& a, const Fp12T& b) { return !(a == b); }

  friend Fp12T operator+(const Fp12T& a, const Fp12T& b) { return {a.c0 + b.c0, a.c1 + b.c1}; }
  friend Fp12T operator-(const Fp12T& a, const Fp12T& b) { return {a.c0 - b.c0, a.c1 - b.c1}; }
  Fp12T operator-() const { return {-c0, -c1}; }
  Fp12T& operator+=(const Fp12T& other) { return *this = *this + other; }
  Fp12T& operator-=(const Fp12T& other) { return *this = *this - other; }
  Fp12T& operator*=(const Fp12T& other) { return *this = *this * other; }

  /// Karatsuba: 3 Fp6 multiplications.
  friend Fp12T operator*(const Fp12T& a, const Fp12T& b) {
    const Fp6 t0 = a.c0 * b.c0;
    const Fp6 t1 = a.c1 * b.c1;
    return {t1.mul_by_nonresidue() + t0, (a.c0 + a.c1) * (b.c0 + b.c1) - t0 - t1};
  }

  /// Complex squaring: (c0 + c1 w)^2 = (c0 + c1)(c0 + v c1) - (1 + v) c0 c1 + 2 c0 c1 w, 2 Fp6
  /// multiplications.
  Fp12T squared() const {
    const Fp6 product = c0 * c1;
    return {(c0 + c1) * (c0 + c1.mul_by_nonresidue()) - product - product.mul_by_nonresidue(),
            product + product};
  }

  /// this^(p^6), which is the inverse on the cyclotomic subgroup (norm 1 over Fp6), where pairing values
  /// live.
  Fp12T conjugate() const { return {c0, -c1}; }

  /// 1 / (c0 + c1 w) = (c0 - c1 w) / (c0^2 - v c1^2); the inverse of zero is zero.
  Fp12T inverse() const {
    const Fp6 norm_inv = (c0.squared() - c1.squared().mul_by_nonresidue()).inverse();
    return {c0 * norm_inv, -(c1 * norm_inv)};
  }

  /// this * (a + b w^2 + c w^3), the shape of a Miller-loop line value (a, b, c in Fp2): 13 Fp2
  /// multiplications instead of 18. In storage order the nonzero slots are c0.c0, c0.c1 and c1.c1.
  Fp12T mul_by_line(const Fp2& a, const Fp2& b, const Fp2& c) const {
    const Fp6 t0 = c0.mul_by_01(a, b);
    const Fp6 t1 = c1.mul_by_1(c);
    return {t1.mul_by_nonresidue() + t0, (c0 + c1).mul_by_01(a, b + c) - t0 - t1};
  }

  /// this * (a + b w + c w^3), the shape of a line value on a D-type twist (BN254): with w^3 = v w the
  /// factor is a + (b + c v) w, 13 Fp2 multiplications. In storage order the nonzero slots are c0.c0, c1.c0
  /// and c1.c1.
  Fp12T mul_by_line_d(const Fp2& a, const Fp2& b, const Fp2& c) const {
    const Fp6 t0 = c0 * a;
    const Fp6 t1 = c1.mul_by_01(b, c);
    return {t1.mul_by_nonresidue() + t0, (c0 + c1).mul_by_01(a + b, c) - t0 - t1};
  }

  /// Granger-Scott squaring, valid only on the cyclotomic subgroup (elements with this^(p^4 - p^2 + 1) in
  /// its image, i.e. after the easy part of the final exponentiation): Fp12T is viewed as Fp4^3 with
  /// Fp4 = Fp2[w^3], and each Fp4 square costs 3 Fp2 squarings.
  Fp12T cyclotomic_squared() const;

  /// this^(p^power); the coefficients xi^((p^k - 1) / 6) are computed from their definition on first use.
  Fp12T frobenius_map(unsigned power) const;

  /// Left-to-right square-and-multiply with the generic squaring (variable time: exponents are public).
  template <std::size_t M>
  Fp12T pow(const BigInt<M>& exponent) const {
    Fp12T result = one();
    for (std::size_t i = exponent.bit_length(); i-- > 0;) {
      result = result.squared();
      if (exponent.bit(i)) result *= *this;
    }
    return result;
  }
};

/// BLS12-381's pairing target field.
using Fp12 = Fp12T<Fp2>;

}  // namespace proofline
