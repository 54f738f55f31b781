// Fp6 = Fp2[v] / (v^3 - xi): the middle floor of the pairing tower, for any Fp2T (xi is its non-residue:
// 1 + u for BLS12-381, 9 + u for BN254). Host only (the pairing runs in the verifier, on the CPU).
#pragma once

#include <proofline/arith/fp2.hpp>

namespace proofline {

template <class Fp2>
struct Fp6T {
  Fp2 c0;  ///< constant term
  Fp2 c1;  ///< coefficient of v
  Fp2 c2;  ///< coefficient of v^2

  static Fp6T zero() { return {Fp2::zero(), Fp2::zero(), Fp2::zero()}; }
  static Fp6T one() { return {Fp2::one(), Fp2::zero(), Fp2::zero()}; }

  bool is_zero() const { return c0.is_zero() && c1.is_zero() && c2.is_zero(); }
  friend bool operator==(const Fp6T& a, const Fp6T& b) {
    return a.c0 == b.c0 && a.c1 == b.c1 && a.c2 == b.c2;
  }
  friend bool operator!=(const Fp6T& a, const Fp6T& b) { return !(a == b); }

  friend Fp6T operator+(const Fp6T& a, const Fp6T& b) { return {a.c0 + b.c0, a.c1 + b.c1, a.c2 + b.c2}; }
  friend Fp6T operator-(const Fp6T& a, const Fp6T& b) { return {a.c0 - b.c0, a.c1 - b.c1, a.c2 - b.c2}; }
  Fp6T operator-() const { return {-c0, -c1, -c2}; }
  Fp6T& operator+=(const Fp6T& other) { return *this = *this + other; }
  Fp6T& operator-=(const Fp6T& other) { return *this = *this - other; }
  Fp6T& operator*=(const Fp6T& other) { return *this = *this * other; }

  /// Karatsuba over the three coefficients: 6 Fp2 multiplications instead of 9.
  friend Fp6T operator*(const Fp6T& a, const Fp6T& b) {
    const Fp2 t0 = a.c0 * b.c0;
    const Fp2 t1 = a.c1 * b.c1;
    const Fp2 t2 = a.c2 * b.c2;
    return {((a.c1 + a.c2) * (b.c1 + b.c2) - t1 - t2).mul_by_nonresidue() + t0,
            (a.c0 + a.c1) * (b.c0 + b.c1) - t0 - t1 + t2.mul_by_nonresidue(),
            (a.c0 + a.c2) * (b.c0 + b.c2) - t0 - t2 + t1};
  }

  /// Multiplication by an element of Fp2 (each coefficient scaled).
  friend Fp6T operator*(const Fp6T& a, const Fp2& b) { return {a.c0 * b, a.c1 * b, a.c2 * b}; }

  /// Chung-Hasan SQR2: 2 multiplications and 3 squarings in Fp2.
  Fp6T squared() const {
    const Fp2 s0 = c0.squared();
    const Fp2 s1 = (c0 * c1).doubled();
    const Fp2 s2 = (c0 - c1 + c2).squared();
    const Fp2 s3 = (c1 * c2).doubled();
    const Fp2 s4 = c2.squared();
    return {s3.mul_by_nonresidue() + s0, s4.mul_by_nonresidue() + s1, s1 + s2 + s3 - s0 - s4};
  }

  /// Multiplication by v, the non-residue that builds Fp12 over Fp6T (v^3 = xi).
  Fp6T mul_by_nonresidue() const { return {c2.mul_by_nonresidue(), c0, c1}; }

  /// this * (b0 + b1 v): 5 Fp2 multiplications (line values have no v^2 term).
  Fp6T mul_by_01(const Fp2& b0, const Fp2& b1) const {
    const Fp2 t0 = c0 * b0;
    const Fp2 t1 = c1 * b1;
    return {((c1 + c2) * b1 - t1).mul_by_nonresidue() + t0, (c0 + c1) * (b0 + b1) - t0 - t1,
            (c0 + c2) * b0 - t0 + t1};
  }

  /// this * (b1 v): 3 Fp2 multiplications.
  Fp6T mul_by_1(const Fp2& b1) const { return {(c2 * b1).mul_by_nonresidue(), c0 * b1, c1 * b1}; }

  /// 1 / this via the adjugate: with A = c0^2 - xi c1 c2, B = xi c2^2 - c0 c1, C = c1^2 - c0 c2, the product
  /// this * (A + B v + C v^2) = c0 A + xi (c2 B + c1 C) lies in Fp2. The inverse of zero is zero.
  Fp6T inverse() const {
    const Fp2 a = c0.squared() - (c1 * c2).mul_by_nonresidue();
    const Fp2 b = c2.squared().mul_by_nonresidue() - c0 * c1;
    const Fp2 c = c1.squared() - c0 * c2;
    const Fp2 norm = c0 * a + (c2 * b + c1 * c).mul_by_nonresidue();
    const Fp2 norm_inv = norm.inverse();
    return {a * norm_inv, b * norm_inv, c * norm_inv};
  }

  /// this^(p^power); the coefficients xi^((p^k - 1) / 3) are computed from their definition on first use.
  Fp6T frobenius_map(unsigned power) const;
};

/// BLS12-381's sextic extension.
using Fp6 = Fp6T<Fp2>;

}  // namespace proofline
