// Internal: host-only twins of the field and curve types whose multiplication runs on mulx/adcx/adox
// (detail/mont_mul_x86.hpp), so the CPU MSM can instantiate its templates on them without touching arith/
// (whose headers are also device code).
//
// MulxField<F> has F's exact layout (the Montgomery limbs) and value semantics; only * and squared() differ
// in how they compute (the same result, checked against F in the tests). Additions, subtractions and the rare
// inversion delegate to F. MulxCurve<Curve> is Curve with its Field (Fp, or Fp2 over Fp) swapped for the
// twin; its points have the original points' layout, so the MSM reads a span of Curve's affine points as
// MulxCurve's (mulx_points) and hands its result back the same way (from_mulx).
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>

#include <proofline/arith/curve.hpp>
#include <proofline/arith/fp2.hpp>
#include <proofline/cpu/detail/mont_mul_x86.hpp>

namespace proofline::cpu::detail {

// Forced inline like arith/'s PL_HD_INLINE: the MSM's bucket code is large enough for GCC to leave these
// small wrappers as calls otherwise.
#define PL_MULX_INLINE inline __attribute__((always_inline))

template <class F>
struct alignas(alignof(F)) MulxField {
  static constexpr std::size_t N = F::N;
  using Int = typename F::Int;
  static constexpr Int modulus = F::modulus;

  std::uint64_t limb[N];

  PL_MULX_INLINE static constexpr MulxField from(const F& value) { return std::bit_cast<MulxField>(value); }
  PL_MULX_INLINE constexpr F base() const { return std::bit_cast<F>(*this); }

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
  MulxField inverse() const { return from(base().inverse()); }
};

#undef PL_MULX_INLINE

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
  static constexpr Field b = std::bit_cast<Field>(Curve::b);
  static constexpr Field generator_x = std::bit_cast<Field>(Curve::generator_x);
  static constexpr Field generator_y = std::bit_cast<Field>(Curve::generator_y);
};

/// Curve's affine points read as MulxCurve's: the same bytes (the types are layout twins, checked here).
template <class Curve>
std::span<const AffinePoint<MulxCurve<Curve>>> mulx_points(std::span<const AffinePoint<Curve>> points) {
  using Twin = AffinePoint<MulxCurve<Curve>>;
  static_assert(sizeof(Twin) == sizeof(AffinePoint<Curve>) && std::is_standard_layout_v<Twin> &&
                std::is_trivially_copyable_v<Twin>);
  return {reinterpret_cast<const Twin*>(points.data()), points.size()};
}

template <class Curve>
JacobianPoint<Curve> from_mulx(const JacobianPoint<MulxCurve<Curve>>& point) {
  return std::bit_cast<JacobianPoint<Curve>>(point);
}

}  // namespace proofline::cpu::detail
