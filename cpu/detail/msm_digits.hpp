// Internal: the CPU MSM's scalar recoding (abs trick, window layout, Booth digits) and its plan (window
// width, chunks of points, bucket representation). Exposed so the tests can check the recoding and the plan
// directly.
#pragma once

#include <cstddef>
#include <cstdint>

#include <proofline/arith/bigint.hpp>
#include <proofline/arith/fr.hpp>
#include <proofline/cpu/msm.hpp>

namespace proofline::cpu::detail {

/// Windows of at most c bits for scalars below 2^254: the top window must leave the Booth sign bit 254 clear,
/// so the windows cover 255 bits.
constexpr unsigned msm_windows(unsigned window_bits) {
  return (255 + window_bits - 1) / window_bits;
}

/// Where window w of `windows` starts and how wide it is. The 255 bits are shared out evenly (widths differ
/// by one at most, the wider ones at the bottom) rather than c bits a window and a narrow top window: every
/// window passes over all the points, and a narrow window spends that pass on a few buckets, which also
/// starves the batched affine additions of distinct buckets.
struct MsmWindow {
  unsigned low;    ///< first bit
  unsigned width;  ///< bits: digits in [−2^(width−1), 2^(width−1)], 2^(width−1) buckets
};
constexpr MsmWindow msm_window(unsigned windows, unsigned w) {
  const unsigned base = 255 / windows, wider = 255 % windows;
  return MsmWindow{w * base + (w < wider ? w : wider), base + (w < wider ? 1u : 0u)};
}

/// The abs trick on a canonical scalar s < r (r of the scalar field F, either curve's): writes min(s, r − s)
/// to out (below 2^254 since r < 2^255) and returns whether it is r − s, that is whether the point must be
/// negated.
template <class F = Fr>
inline bool msm_abs_scalar(const BigInt<4>& s, BigInt<4>& out) {
  constexpr BigInt<4> r = F::modulus;
  constexpr BigInt<4> half = [] {  // (r − 1) / 2
    BigInt<4> h = F::modulus;
    h.shift_right_1();
    return h;
  }();
  if (half < s) {
    out = r;
    out.sub_in_place(s);
    return true;
  }
  out = s;
  return false;
}

/// Booth digit of the window of width c (<= 31) starting at bit `low`, for a scalar below 2^254: the c + 1
/// bits [low − 1, low + c) with bit −1 = 0, v, give d = ((v + 1) >> 1) − 2^c·(top bit of v) in
/// [−2^(c−1), 2^(c−1)]. Σ_w d_w·2^(low_w) = s when the windows tile the bits: the −2^c of a set top bit is
/// repaid by the +1 it adds to the window above (the overlap bit).
inline std::int32_t msm_booth_digit(const std::uint64_t* limbs, unsigned low, unsigned c) {
  std::uint64_t v;
  if (low == 0) {
    v = limbs[0] << 1;
  } else {
    const unsigned offset = low - 1, index = offset / 64, shift = offset % 64;
    v = limbs[index] >> shift;
    if (shift + c + 1 > 64 && index + 1 < 4) v |= limbs[index + 1] << (64 - shift);
  }
  v &= (std::uint64_t{1} << (c + 1)) - 1;
  return static_cast<std::int32_t>((v + 1) >> 1) - static_cast<std::int32_t>((v >> c) << c);
}

/// How one call runs the windows.
struct MsmPlan {
  unsigned window_bits = 1;  ///< the widest window; msm_window gives each window's bits
  unsigned windows = 255;
  unsigned chunks = 1;        ///< chunks of the dense points per window, each a task with its own buckets
  bool batch_affine = false;  ///< affine buckets with batched inversions
  std::size_t batch = 0;      ///< additions per shared inversion (batch_affine only)
};

/// The plan for `dense` scalars on `threads` threads: fixed fields of options are kept, the others minimise
/// the cost model described in msm.hpp. Throws Error(invalid_argument) for options out of range.
MsmPlan msm_plan(std::size_t dense, unsigned threads, const MsmOptions& options);

}  // namespace proofline::cpu::detail
