// Internal: the per-thread work of the GPU fixed-base multiplication [s_i]·B (setup), for the CUDA kernels
// (cuda/kernels/detail/fixed_base_kernels.cuh) and the host emulation in the CPU tests.
//
// The base's window table holds T[w][d - 1] = d·2^(c w)·B in affine form for c = 8-bit windows (32 of them)
// and digit magnitudes d = 1..128. A scalar is made canonical, the abs trick and Booth recoding give 32
// signed digits (see msm_body.hpp), and [s]B = sum_w +-T[w][|d_w| - 1]: at most 32 mixed additions and no
// doubling. The XYZZ results become affine in groups of consecutive outputs with one inversion per group
// (Montgomery's trick), the prefix products kept in the output's x coordinates until they are overwritten.
#pragma once

#include <cstdint>

#include <proofline/arith/config.hpp>
#include <proofline/arith/curve.hpp>
#include <proofline/cuda/kernels/detail/msm_body.hpp>

namespace proofline::cuda::detail {

inline constexpr int kFixedBaseWindowBits = 8;
/// Enough windows for scalars below 2^255, BLS12-381's and BN254's alike: one table layout for both.
inline constexpr int kFixedBaseWindows = msm_windows(kFixedBaseWindowBits, 255);                   // 32
inline constexpr std::uint32_t kFixedBaseDigits = std::uint32_t{1} << (kFixedBaseWindowBits - 1);  // 128
inline constexpr std::uint32_t kFixedBaseTableSize = kFixedBaseWindows * kFixedBaseDigits;
/// Outputs per inversion in the affine conversion.
inline constexpr std::uint32_t kAffineGroup = 32;

/// Table thread w: writes d·2^(c w)·B for d = 1..128 (XYZZ; to_affine_body makes them affine).
template <class Curve>
PL_HD_INLINE void table_window_body(const AffinePoint<Curve>& base, XyzzPoint<Curve>* table, int w) {
  XyzzPoint<Curve> step = base.to_xyzz();
  for (int i = 0; i < w * kFixedBaseWindowBits; ++i) step = point_dbl(step);
  XyzzPoint<Curve> multiple = step;
  XyzzPoint<Curve>* row = table + static_cast<std::size_t>(w) * kFixedBaseDigits;
  row[0] = multiple;
  for (std::uint32_t d = 1; d < kFixedBaseDigits; ++d) {
    multiple = point_add(multiple, step);
    row[d] = multiple;
  }
}

/// Scalar j (Montgomery form): [s]B in XYZZ.
template <class Curve>
PL_HD_INLINE XyzzPoint<Curve> fixed_base_body(const AffinePoint<Curve>* table,
                                              const typename Curve::Scalar& scalar) {
  const AbsScalar s = abs_scalar(scalar, true);
  XyzzPoint<Curve> acc = XyzzPoint<Curve>::infinity();
  for (int w = 0; w < kFixedBaseWindows; ++w) {
    const int d = booth_digit(s.value, w, kFixedBaseWindowBits);
    if (d != 0) {
      const std::uint32_t magnitude = static_cast<std::uint32_t>(d < 0 ? -d : d);
      bucket_add(acc, table[static_cast<std::uint32_t>(w) * kFixedBaseDigits + magnitude - 1],
                 (d < 0) != s.negate);
    }
  }
  return acc;
}

/// Group g: out[j] = points[j] in affine for j in [g G, min(g G + G, n)), with one inversion. Infinity (ZZZ =
/// 0) becomes (0, 0).
template <class Curve>
PL_HD_INLINE void to_affine_body(const XyzzPoint<Curve>* points, AffinePoint<Curve>* out, std::uint32_t n,
                                 std::uint32_t g) {
  using Field = typename Curve::Field;
  const std::uint32_t lo = g * kAffineGroup;
  if (lo >= n) return;
  const std::uint32_t hi = n - lo < kAffineGroup ? n : lo + kAffineGroup;
  // out[j].x = prod of the nonzero ZZZ of [lo, j].
  Field product = Field::one();
  for (std::uint32_t j = lo; j < hi; ++j) {
    const Field zzz = points[j].zzz;
    if (!zzz.is_zero()) product = product * zzz;
    out[j].x = product;
  }
  Field inverse = product.inverse();  // of the whole group's product
  for (std::uint32_t j = hi; j-- > lo;) {
    const XyzzPoint<Curve> p = points[j];
    if (p.zzz.is_zero()) {
      out[j] = AffinePoint<Curve>::infinity();
      continue;
    }
    const Field zzz_inverse = j > lo ? inverse * out[j - 1].x : inverse;  // 1 / ZZZ_j
    inverse = inverse * p.zzz;                                            // 1 / prod over [lo, j)
    const Field z_inverse = p.zz * zzz_inverse;                           // 1 / Z
    out[j] = AffinePoint<Curve>{p.x * z_inverse.squared(), p.y * zzz_inverse};
  }
}

}  // namespace proofline::cuda::detail
