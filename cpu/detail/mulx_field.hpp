// Internal: host-only twins of the field and curve types whose multiplication runs on mulx/adcx/adox
// (detail/mont_mul_x86.hpp), so the CPU MSM and NTT can instantiate their templates on them without touching
// arith/ (whose headers are also device code).
//
// MulxField<F> has F's exact layout (the Montgomery limbs) and value semantics; only *, squared() and
// inverse() differ in how they compute (the same result, checked against F in the tests). Additions and
// subtractions delegate to F. MulxCurve<Curve> is Curve with its Field (Fp, or Fp2 over Fp) swapped for the
// twin; its points have the original points' layout.
//
// A twin and its original are distinct types, so memory holding one is never read or written as the other
// (a pointer cast would break strict aliasing, and GCC may then reorder the accesses): callers keep the
// caller's type in memory and convert each element with twin_cast as they load it into, or store it from,
// the arithmetic. The conversion copies the bytes, which the compiler turns into the plain loads and stores.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <proofline/arith/fp2.hpp>
#include <proofline/cpu/detail/binary_gcd_inverse.hpp>
#include <proofline/cpu/detail/mont_mul_x86.hpp>

namespace proofline::cpu::detail {

// Forced inline like arith/'s PL_HD_INLINE: the MSM's bucket code is large enough for GCC to leave these
// small wrappers as calls otherwise.
#define PL_MULX_INLINE inline __attribute__((always_inline))

/// `value` as To, which is From itself or a layout twin of it: the same bytes, copied.
template <class To, class From>
PL_MULX_INLINE constexpr To twin_cast(const From& value) {
  static_assert(sizeof(To) == sizeof(From) && alignof(To) == alignof(From), "twins share their layout");
  static_assert(std::is_trivially_copyable_v<To> && std::is_trivially_copyable_v<From>);
  if constexpr (std::is_same_v<To, From>)
    return value;
  else
    return std::bit_cast<To>(value);
}

template <class F>
struct alignas(alignof(F)) MulxField {
  static constexpr std::size_t N = F::N;
  using Int = typename F::Int;
  static constexpr Int modulus = F::modulus;

  std::uint64_t limb[N];

  PL_MULX_INLINE static constexpr MulxField from(const F& value) { return twin_cast<MulxField>(value); }
  PL_MULX_INLINE constexpr F base() const { return twin_cast<F>(*this); }

  PL_MULX_INLINE static constexpr MulxField zero() { return from(F::zero()); }
  PL_MULX_INLINE static constexpr MulxField one() { return from(F::one()); }

  PL_MULX_INLINE constexpr bool is_zero() const { return base().is_zero(); }
  PL_MULX_INLINE friend constexpr bool operator==(const MulxField& a, const MulxField& b) {
    return a.base() == b.base();
  }
  PL_MULX_INLINE friend constexpr bool operator!=(const MulxField& a, const MulxField& b) {
    return !(a == b);
  }

  PL_MULX_INLINE friend constexpr MulxField operator+(const MulxField& a, const MulxField& b) {
    return from(a.base() + b.base());
  }
  PL_MULX_INLINE friend constexpr MulxField operator-(const MulxField& a, const MulxField& b) {
    return from(a.base() - b.base());
  }
  PL_MULX_INLINE constexpr MulxField operator-() const { return from(-base()); }

  PL_MULX_INLINE friend MulxField operator*(const MulxField& a, const MulxField& b) {
    MulxField out;
    mont_mul_mulx<F>(out.limb, a.limb, b.limb);
    return out;
  }

  PL_MULX_INLINE constexpr MulxField& operator+=(const MulxField& other) { return *this = *this + other; }
  PL_MULX_INLINE constexpr MulxField& operator-=(const MulxField& other) { return *this = *this - other; }
  PL_MULX_INLINE MulxField& operator*=(const MulxField& other) { return *this = *this * other; }

  PL_MULX_INLINE MulxField squared() const { return *this * *this; }
  PL_MULX_INLINE constexpr MulxField doubled() const { return *this + *this; }
  /// The inverse, zero for zero: the MSM inverts once per batch of bucket additions. By the binary GCD
  /// (binary_gcd_inverse.hpp), whose result v = y^-1 2^(-33 k) for the Montgomery image y = x R is turned
  /// into (x^-1) R by one product with 2^(33 k) R^3; Fermat's power should the GCD ever not end at one.
  MulxField inverse() const {
    if (is_zero()) return zero();
    MulxField v;
    if (!bingcd::inverse_scaled<N>(v.limb, limb, modulus.limb, F::inv)) return fermat_inverse();
    return v * gcd_factor();
  }

  /// a^(p − 2) with mulx products and a fixed 4-bit window (about twice as fast as F's square-and-multiply).
  MulxField fermat_inverse() const {
    constexpr Int exponent = [] {
      Int e = modulus;
      e.sub_in_place(Int::from_u64(2));
      return e;
    }();
    MulxField powers[16];  // powers[k] = a^k
    powers[0] = one();
    for (int k = 1; k < 16; ++k) powers[k] = powers[k - 1] * *this;
    MulxField result = one();
    for (std::size_t window = (exponent.bit_length() + 3) / 4; window-- > 0;) {
      for (int s = 0; s < 4; ++s) result = result.squared();
      unsigned digit = 0;
      for (std::size_t b = 4; b-- > 0;) digit = 2 * digit + (exponent.bit(4 * window + b) ? 1u : 0u);
      if (digit != 0) result *= powers[digit];
    }
    return result;
  }

 private:
  /// The Montgomery image of 2^(128 N + 33 k), whose limbs are 2^(33 k) R^3 mod p (R = 2^(64 N), k the
  /// GCD's iterations): the product v · it is v 2^(33 k) R^2, the image of x^-1.
  static const MulxField& gcd_factor() {
    static const MulxField factor = [] {
      F power = F::one();
      const int doublings =
          128 * static_cast<int>(N) + 33 * bingcd::iterations(static_cast<int>(modulus.bit_length()));
      for (int i = 0; i < doublings; ++i) power = power + power;
      return from(power);
    }();
    return factor;
  }
};

/// Fp2 over the twin of Config's base field, with Config's non-residue.
template <class Config>
struct MulxFp2Config {
  using Base = MulxField<typename Config::Base>;
  static constexpr unsigned xi_real = Config::xi_real;
};

template <class F>
struct MulxTwin {
  using type = MulxField<F>;
};
template <class Config>
struct MulxTwin<Fp2T<Config>> {
  using type = Fp2T<MulxFp2Config<Config>>;
};

/// Whether a field has a mulx twin: prime fields of kMulxLimbs limbs, and Fp2 over one.
template <class F>
constexpr bool has_mulx_twin() {
  if constexpr (requires { typename F::Base; })
    return mulx_supported_limbs(F::Base::N);
  else
    return mulx_supported_limbs(F::N);
}

template <class Curve>
struct MulxCurve {
  using Field = typename MulxTwin<typename Curve::Field>::type;
  using Scalar = typename Curve::Scalar;
  static_assert(sizeof(Field) == sizeof(typename Curve::Field) &&
                alignof(Field) == alignof(typename Curve::Field));
  static constexpr Field b = twin_cast<Field>(Curve::b);
  static constexpr Field generator_x = twin_cast<Field>(Curve::generator_x);
  static constexpr Field generator_y = twin_cast<Field>(Curve::generator_y);
};

}  // namespace proofline::cpu::detail

#undef PL_MULX_INLINE
