// The full (unreduced) product of two n-limb values (L = Limbs32<Params>, n = L::kLimbs) as 2n limbs, for
// products whose reduction is deferred (the lazy Fp2 product in fp2_mul_limbs32.hpp).
#pragma once

#include <cstdint>

#include <proofline/arith/config.hpp>

namespace proofline::detail::limbs32 {

/// t = a·b as 2n limbs for any n-limb a, b. Two accumulators indexed by absolute position take the runs of
/// non-overlapping products: row i's products a_j b_i with even j start at position i, odd j at i + 1, and a
/// run goes to E when it starts at an even position, to O otherwise; each run's carry lands in the limb just
/// past it, which holds at most earlier runs' carries. t = E + O.
template <class L, class Ops>
PL_HD_INLINE void mul_wide(Ops& ops, std::uint32_t* t, const std::uint32_t* a, const std::uint32_t* b) {
  constexpr int n = L::kLimbs;
  constexpr int kWide = 2 * n + 1;
  std::uint32_t e[kWide], o[kWide];
  PL_UNROLL for (int k = 0; k < kWide; ++k) e[k] = o[k] = 0u;
  PL_UNROLL for (int i = 0; i < n; ++i) {
    PL_UNROLL for (int parity = 0; parity < 2; ++parity) {
      std::uint32_t* acc = ((i + parity) % 2 == 0) ? e : o;
      const int start = i + parity;
      ops.mad_lo_cc(acc[start], a[parity], b[i], acc[start]);
      ops.madc_hi_cc(acc[start + 1], a[parity], b[i], acc[start + 1]);
      PL_UNROLL for (int j = parity + 2; j < n; j += 2) {
        ops.madc_lo_cc(acc[i + j], a[j], b[i], acc[i + j]);
        ops.madc_hi_cc(acc[i + j + 1], a[j], b[i], acc[i + j + 1]);
      }
      ops.addc(acc[start + n], acc[start + n], 0u);
    }
  }
  ops.add_cc(t[0], e[0], o[0]);
  PL_UNROLL for (int k = 1; k < 2 * n - 1; ++k) ops.addc_cc(t[k], e[k], o[k]);
  ops.addc(t[2 * n - 1], e[2 * n - 1], o[2 * n - 1]);
}

}  // namespace proofline::detail::limbs32
