// Fp2 = Fp[u] / (u^2 + 1): coordinates of G2 points. One source for host and device.
#pragma once

#include <proofline/arith/fp.hpp>

#if defined(__CUDACC__)
#include <proofline/arith/detail/fp2_mul_device.cuh>  // the device product and square used below
#endif

namespace proofline {

struct alignas(16) Fp2 {
  Fp c0;  ///< real part
  Fp c1;  ///< coefficient of u

  PL_HD_INLINE static constexpr Fp2 zero() { return {Fp::zero(), Fp::zero()}; }
  PL_HD_INLINE static constexpr Fp2 one() { return {Fp::one(), Fp::zero()}; }

  PL_HD_INLINE constexpr bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  PL_HD_INLINE friend constexpr bool operator==(const Fp2& a, const Fp2& b) {
    return a.c0 == b.c0 && a.c1 == b.c1;
  }
  PL_HD_INLINE friend constexpr bool operator!=(const Fp2& a, const Fp2& b) { return !(a == b); }

  PL_HD_INLINE friend constexpr Fp2 operator+(const Fp2& a, const Fp2& b) {
    return {a.c0 + b.c0, a.c1 + b.c1};
  }
  PL_HD_INLINE friend constexpr Fp2 operator-(const Fp2& a, const Fp2& b) {
    return {a.c0 - b.c0, a.c1 - b.c1};
  }
  PL_HD_INLINE constexpr Fp2 operator-() const { return {-c0, -c1}; }

  /// Karatsuba: 3 base-field multiplications.
  PL_HD_INLINE friend constexpr Fp2 operator*(const Fp2& a, const Fp2& b) {
#if defined(__CUDA_ARCH__)
    if (!__builtin_is_constant_evaluated()) return detail::fp2_mul_device(a, b);
#endif
    const Fp v0 = a.c0 * b.c0;
    const Fp v1 = a.c1 * b.c1;
    return {v0 - v1, (a.c0 + a.c1) * (b.c0 + b.c1) - v0 - v1};
  }
  /// Multiplication by an element of the base field.
  PL_HD_INLINE friend constexpr Fp2 operator*(const Fp2& a, const Fp& b) {
    return {a.c0 * b, a.c1 * b};
  }

  PL_HD_INLINE constexpr Fp2& operator+=(const Fp2& other) {
    return *this = *this + other;
  }
  PL_HD_INLINE constexpr Fp2& operator-=(const Fp2& other) {
    return *this = *this - other;
  }
  PL_HD_INLINE constexpr Fp2& operator*=(const Fp2& other) {
    return *this = *this * other;
  }

  /// (c0 + c1 u)^2 = (c0 + c1)(c0 - c1) + 2 c0 c1 u: 2 multiplications.
  PL_HD_INLINE constexpr Fp2 squared() const {
#if defined(__CUDA_ARCH__)
    if (!__builtin_is_constant_evaluated()) return detail::fp2_sqr_device(*this);
#endif
    const Fp product = c0 * c1;
    return {(c0 + c1) * (c0 - c1), product + product};
  }
  PL_HD_INLINE constexpr Fp2 doubled() const {
    return {c0.doubled(), c1.doubled()};
  }

  /// Complex conjugate, which is also the p-power Frobenius map on Fp2.
  PL_HD_INLINE constexpr Fp2 conjugate() const {
    return {c0, -c1};
  }

  /// Multiplication by the non-residue 1 + u used to build Fp6 and Fp12 and the G2 twist.
  PL_HD_INLINE constexpr Fp2 mul_by_nonresidue() const {
    return {c0 - c1, c0 + c1};
  }

  /// Norm c0^2 + c1^2, an element of Fp.
  PL_HD_INLINE constexpr Fp norm() const {
    return c0.squared() + c1.squared();
  }

  /// 1 / (c0 + c1 u) = (c0 - c1 u) / (c0^2 + c1^2); the inverse of zero is zero.
  PL_HD constexpr Fp2 inverse() const {
    return conjugate() * norm().inverse();
  }

  template <std::size_t M>
  PL_HD constexpr Fp2 pow(const BigInt<M>& exponent) const {
    Fp2 result = one();
    for (std::size_t i = exponent.bit_length(); i-- > 0;) {
      result = result.squared();
      if (exponent.bit(i)) result *= *this;
    }
    return result;
  }

  /// Square root for p = 3 (mod 4) (Adj and Rodriguez-Henriquez, "Square root computation over even extension
  /// fields", algorithm 9). Returns false when this is not a square in Fp2.
  PL_HD constexpr bool sqrt(Fp2& root) const {
    if (is_zero()) {
      root = zero();
      return true;
    }
    constexpr Fp::Int p = Fp::modulus;
    Fp::Int exp_a1 = p;  // (p - 3) / 4
    exp_a1.sub_in_place(Fp::Int::from_u64(3));
    exp_a1.shift_right_1();
    exp_a1.shift_right_1();
    const Fp2 a1 = pow(exp_a1);
    const Fp2 alpha = a1 * (a1 * *this);
    const Fp2 x0 = a1 * *this;
    const Fp2 minus_one = {-Fp::one(), Fp::zero()};
    Fp2 candidate;
    if (alpha == minus_one) {
      candidate = Fp2{-x0.c1, x0.c0};  // u * x0
    } else {
      Fp::Int exp_b = p;  // (p - 1) / 2
      exp_b.sub_in_place(Fp::Int::from_u64(1));
      exp_b.shift_right_1();
      const Fp2 b = (alpha + one()).pow(exp_b);
      candidate = b * x0;
    }
    if (candidate.squared() != *this) return false;
    root = candidate;
    return true;
  }
};

static_assert(sizeof(Fp2) == 96);

}  // namespace proofline
