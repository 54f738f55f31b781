// Montgomery squaring on 32-bit limbs (L = Limbs32<Params>, n = L::kLimbs): the square as 2n limbs with each
// cross product formed once, then a bare Montgomery reduction (redc_wide).
#pragma once

#include <cstdint>

#include <proofline/arith/config.hpp>
#include <proofline/arith/detail/mont_reduce_limbs32.hpp>

namespace proofline::detail::limbs32 {

/// out = a^2·2^-(32n) mod p for fully reduced a. The cross products a_i a_j (i < j) are formed once, in two
/// accumulators of non-overlapping runs (j - i odd starts at odd positions, even at even ones), doubled, and
/// the squares a_i^2 added: T = a^2 in 2n limbs with n(n+1)/2 products instead of n^2. T < p^2 < p·2^(32n),
/// so redc_wide returns it fully reduced.
template <class L, class Ops>
PL_HD_INLINE void mont_sqr(Ops& ops, std::uint32_t* out, const std::uint32_t* a) {
  constexpr int n = L::kLimbs;
  constexpr int kWide = 2 * n - 1;  // positions 0..2n-2 (E) and 1..2n-1 (O)
  std::uint32_t e[kWide], o[kWide];
  PL_UNROLL for (int k = 0; k < kWide; ++k) e[k] = o[k] = 0u;
  // Row i adds a_i a_j for j = i+1, i+3, ... at O index 2i (positions 2i+1..) and j = i+2, i+4, ... at E
  // index 2i+2. Each run's carry lands in the limb just past it, which holds at most earlier runs' carries.
  PL_UNROLL for (int i = 0; i < n - 1; ++i) {
    PL_UNROLL for (int j = i + 1, k = 2 * i; j < n; j += 2, k += 2) {
      if (j == i + 1) {
        ops.mad_lo_cc(o[k], a[i], a[j], o[k]);
      } else {
        ops.madc_lo_cc(o[k], a[i], a[j], o[k]);
      }
      ops.madc_hi_cc(o[k + 1], a[i], a[j], o[k + 1]);
      if (j + 2 >= n) ops.addc(o[k + 2], o[k + 2], 0u);
    }
    PL_UNROLL for (int j = i + 2, k = 2 * i + 2; j < n; j += 2, k += 2) {
      if (j == i + 2) {
        ops.mad_lo_cc(e[k], a[i], a[j], e[k]);
      } else {
        ops.madc_lo_cc(e[k], a[i], a[j], e[k]);
      }
      ops.madc_hi_cc(e[k + 1], a[i], a[j], e[k + 1]);
      if (j + 2 >= n) ops.addc(e[k + 2], e[k + 2], 0u);
    }
  }
  // t = 2 (E + O·2^32) + sum a_i^2 2^(64 i), 2n limbs; the cross sum is below a^2 / 2, so doubling it loses
  // no bit.
  std::uint32_t t[2 * n];
  t[0] = 0u;
  ops.add_cc(t[1], e[1], o[0]);
  PL_UNROLL for (int k = 2; k < kWide; ++k) ops.addc_cc(t[k], e[k], o[k - 1]);
  ops.addc(t[kWide], 0u, o[kWide - 1]);
  PL_UNROLL for (int k = 2 * n - 1; k > 0; --k) t[k] = (t[k] << 1) | (t[k - 1] >> 31);
  t[0] = 0u;
  ops.mad_lo_cc(t[0], a[0], a[0], t[0]);
  ops.madc_hi_cc(t[1], a[0], a[0], t[1]);
  PL_UNROLL for (int i = 1; i < n - 1; ++i) {
    ops.madc_lo_cc(t[2 * i], a[i], a[i], t[2 * i]);
    ops.madc_hi_cc(t[2 * i + 1], a[i], a[i], t[2 * i + 1]);
  }
  ops.madc_lo_cc(t[2 * n - 2], a[n - 1], a[n - 1], t[2 * n - 2]);
  ops.madc_hi(t[2 * n - 1], a[n - 1], a[n - 1], t[2 * n - 1]);
  redc_wide<L>(ops, out, t);
}

}  // namespace proofline::detail::limbs32
