// Fp2 = Fp[u] / (u^2 + 1): coordinates of G2 points. One source for host and device, and for every curve
// whose base field has p = 3 (mod 4) (so -1 is a non-square): Fp2T<Config> takes the base field and the real
// part of the tower's non-residue xi = xi_real + u from Config. BLS12-381's Fp2 (xi = 1 + u) is defined
// below; BN254's (xi = 9 + u) in bn254/fp2.hpp.
#pragma once

#include <proofline/arith/fp.hpp>

#if defined(__CUDACC__)
#include <proofline/arith/detail/fp2_mul_device.cuh>  // the device product and square used below
#endif

namespace proofline {

template <class Config>
struct alignas(16) Fp2T {
  using Base = typename Config::Base;
  static_assert((Base::modulus.limb[0] & 3) == 3, "u^2 = -1 needs p = 3 (mod 4)");

  Base c0;  ///< real part
  Base c1;  ///< coefficient of u

  PL_HD_INLINE static constexpr Fp2T zero() { return {Base::zero(), Base::zero()}; }
  PL_HD_INLINE static constexpr Fp2T one() { return {Base::one(), Base::zero()}; }

  PL_HD_INLINE constexpr bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  PL_HD_INLINE friend constexpr bool operator==(const Fp2T& a, const Fp2T& b) {
    return a.c0 == b.c0 && a.c1 == b.c1;
  }
  PL_HD_INLINE friend constexpr bool operator!=(const Fp2T& a, const Fp2T& b) { return !(a == b); }

  PL_HD_INLINE friend constexpr Fp2T operator+(const Fp2T& a, const Fp2T& b) {
    return {a.c0 + b.c0, a.c1 + b.c1};
  }
  PL_HD_INLINE friend constexpr Fp2T operator-(const Fp2T& a, const Fp2T& b) {
    return {a.c0 - b.c0, a.c1 - b.c1};
  }
  PL_HD_INLINE constexpr Fp2T operator-() const { return {-c0, -c1}; }

  /// Karatsuba: 3 base-field multiplications.
  PL_HD_INLINE friend constexpr Fp2T operator*(const Fp2T& a, const Fp2T& b) {
#if defined(__CUDA_ARCH__)
    if (!__builtin_is_constant_evaluated()) return detail::fp2_mul_device(a, b);
#endif
    const Base v0 = a.c0 * b.c0;
    const Base v1 = a.c1 * b.c1;
    return {v0 - v1, (a.c0 + a.c1) * (b.c0 + b.c1) - v0 - v1};
  }
  /// Multiplication by an element of the base field.
  PL_HD_INLINE friend constexpr Fp2T operator*(const Fp2T& a, const Base& b) {
    return {a.c0 * b, a.c1 * b};
  }

  PL_HD_INLINE constexpr Fp2T& operator+=(const Fp2T& other) {
    return *this = *this + other;
  }
  PL_HD_INLINE constexpr Fp2T& operator-=(const Fp2T& other) {
    return *this = *this - other;
  }
  PL_HD_INLINE constexpr Fp2T& operator*=(const Fp2T& other) {
    return *this = *this * other;
  }

  /// (c0 + c1 u)^2 = (c0 + c1)(c0 - c1) + 2 c0 c1 u: 2 multiplications.
  PL_HD_INLINE constexpr Fp2T squared() const {
#if defined(__CUDA_ARCH__)
    if (!__builtin_is_constant_evaluated()) return detail::fp2_sqr_device(*this);
#endif
    const Base product = c0 * c1;
    return {(c0 + c1) * (c0 - c1), product + product};
  }
  PL_HD_INLINE constexpr Fp2T doubled() const {
    return {c0.doubled(), c1.doubled()};
  }

  /// Complex conjugate, which is also the p-power Frobenius map on Fp2T.
  PL_HD_INLINE constexpr Fp2T conjugate() const {
    return {c0, -c1};
  }

  /// Multiplication by the non-residue xi = xi_real + u used to build Fp6 and Fp12 and the G2 twist:
  /// (c0 + c1 u)(k + u) = (k c0 - c1) + (c0 + k c1) u, k times by additions.
  PL_HD_INLINE constexpr Fp2T mul_by_nonresidue() const {
    if constexpr (Config::xi_real == 1) {
      return {c0 - c1, c0 + c1};
    } else {
      static_assert(Config::xi_real == 9, "add an addition chain for this non-residue");
      const Fp2T eight = doubled().doubled().doubled();
      return {eight.c0 + c0 - c1, c0 + eight.c1 + c1};
    }
  }

  /// Norm c0^2 + c1^2, an element of Base.
  PL_HD_INLINE constexpr Base norm() const {
    return c0.squared() + c1.squared();
  }

  /// 1 / (c0 + c1 u) = (c0 - c1 u) / (c0^2 + c1^2); the inverse of zero is zero.
  PL_HD constexpr Fp2T inverse() const {
    return conjugate() * norm().inverse();
  }

  template <std::size_t M>
  PL_HD constexpr Fp2T pow(const BigInt<M>& exponent) const {
    Fp2T result = one();
    for (std::size_t i = exponent.bit_length(); i-- > 0;) {
      result = result.squared();
      if (exponent.bit(i)) result *= *this;
    }
    return result;
  }

  /// Square root for p = 3 (mod 4) (Adj and Rodriguez-Henriquez, "Square root computation over even extension
  /// fields", algorithm 9). Returns false when this is not a square in Fp2T.
  PL_HD constexpr bool sqrt(Fp2T& root) const {
    if (is_zero()) {
      root = zero();
      return true;
    }
    constexpr typename Base::Int p = Base::modulus;
    typename Base::Int exp_a1 = p;  // (p - 3) / 4
    exp_a1.sub_in_place(Base::Int::from_u64(3));
    exp_a1.shift_right_1();
    exp_a1.shift_right_1();
    const Fp2T a1 = pow(exp_a1);
    const Fp2T alpha = a1 * (a1 * *this);
    const Fp2T x0 = a1 * *this;
    const Fp2T minus_one = {-Base::one(), Base::zero()};
    Fp2T candidate;
    if (alpha == minus_one) {
      candidate = Fp2T{-x0.c1, x0.c0};  // u * x0
    } else {
      typename Base::Int exp_b = p;  // (p - 1) / 2
      exp_b.sub_in_place(Base::Int::from_u64(1));
      exp_b.shift_right_1();
      const Fp2T b = (alpha + one()).pow(exp_b);
      candidate = b * x0;
    }
    if (candidate.squared() != *this) return false;
    root = candidate;
    return true;
  }
};

/// BLS12-381's quadratic extension: base field Fp, non-residue xi = 1 + u.
struct Bls12381Fp2Config {
  using Base = Fp;
  static constexpr unsigned xi_real = 1;
};
using Fp2 = Fp2T<Bls12381Fp2Config>;

static_assert(sizeof(Fp2) == 96);

}  // namespace proofline
