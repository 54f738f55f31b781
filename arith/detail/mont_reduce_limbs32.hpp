// Montgomery reduction on 32-bit limbs (L = Limbs32<Params>, n = L::kLimbs), the half of CIOS shared by the
// product, the squaring and the lazy Fp2 product.
//
// The value being reduced lives in two accumulators of n limbs each, so that every row is two independent
// carry chains: E at position 0 (E[k] at limb position k) and O at position 1 (O[k] at position k + 1). A
// reduction row adds m·p with m = E[0]·(-p^-1) mod 2^32: the products with even limbs of p land on E, those
// with odd limbs on O, and afterwards E[0] is zero. The division by 2^32 that follows is a relabelling, not a
// move: O becomes the position-0 accumulator (taking E[1]) and E, read two limbs up, the position-1 one.
//
// The spare top bit of p keeps the top limbs of both accumulators far below 2^32: the odd chain's top word
// never carries out and the even chain's one carry lands in the odd accumulator's top limb (position n).
#pragma once

#include <cstdint>
#include <utility>

#include <proofline/arith/config.hpp>
#include <proofline/arith/detail/mod_add_limbs32.hpp>

namespace proofline::detail::limbs32 {

/// acc[2j] and acc[2j + 1] += m·p_(2j + Parity) for j = First + J, J in Js, continuing the carry chain: one
/// run of a reduction row's products, unrolled by the front end (see Limbs32::kP).
template <class L, int First, int Parity, class Ops, int... Js>
PL_HD_INLINE void madc_run_m_p(Ops& ops, std::uint32_t* acc, std::uint32_t m,
                               std::integer_sequence<int, Js...>) {
  ((ops.madc_lo_cc(acc[2 * (First + Js)], m, L::template kP<2 * (First + Js) + Parity>,
                   acc[2 * (First + Js)]),
    ops.madc_hi_cc(acc[2 * (First + Js) + 1], m, L::template kP<2 * (First + Js) + Parity>,
                   acc[2 * (First + Js) + 1])),
   ...);
}

/// Adds m·p to (E at position 0, O at position 1) with m = E[0]·(-p^-1) mod 2^32, which clears E[0].
///
/// When p mod 2^64 = 2^64 - 2^32 + 1 (L::kLowLimbsShortcut), m = -t0 and the products with the two low limbs
/// need no multiplier: t0 + m·p0 = z·2^32 with z = (t0 != 0), and m·p1 = m·2^32 - m contributes t0 at
/// position 1 and m - z at position 2. For BLS12-381's r that saves 2 of 8 products and the quotient's
/// multiplication per row.
template <class L, class Ops>
PL_HD_INLINE void reduce_row(Ops& ops, std::uint32_t* e, std::uint32_t* o) {
  constexpr int n = L::kLimbs;
  const std::uint32_t t0 = e[0];
  std::uint32_t m;
  [[maybe_unused]] std::uint32_t z;
  if constexpr (L::kLowLimbsShortcut) {
    m = 0u - t0;
    z = t0 != 0u ? 1u : 0u;
    const std::uint32_t w = m - z;
    ops.add_cc(o[0], o[0], t0);  // lo(m·p1) = t0 at position 1
    ops.addc_cc(o[1], o[1], w);  // hi(m·p1) = m - z at position 2
  } else {
    ops.mul_lo(m, t0, L::kM0);
    ops.mad_lo_cc(o[0], m, L::template kP<1>, o[0]);
    ops.madc_hi_cc(o[1], m, L::template kP<1>, o[1]);
  }
  madc_run_m_p<L, 1, 1>(ops, o, m, std::make_integer_sequence<int, n / 2 - 2>{});
  ops.madc_lo_cc(o[n - 2], m, L::template kP<n - 1>, o[n - 2]);
  ops.madc_hi(o[n - 1], m, L::template kP<n - 1>, o[n - 1]);  // position n: small, no carry out
  if constexpr (L::kLowLimbsShortcut) {
    ops.add_cc(e[1], e[1], z);  // t0 + m·p0 = z·2^32: e[0] is now zero and never read again
  } else {
    ops.mad_lo_cc(e[0], m, L::template kP<0>, e[0]);
    ops.madc_hi_cc(e[1], m, L::template kP<0>, e[1]);
  }
  madc_run_m_p<L, 1, 0>(ops, e, m, std::make_integer_sequence<int, n / 2 - 1>{});
  ops.addc(o[n - 1], o[n - 1], 0u);  // the even chain's carry out of position n - 1 lands at position n
}

/// Divides (E at position 0 with E[0] = 0, O at position 1) by 2^32 without adding a product (the rows of a
/// bare reduction): O becomes the position-0 accumulator (taking E[1]) and E, shifted down two limbs, the
/// position-1 one; the carry out of position 0 ripples through it.
template <class L, class Ops>
PL_HD_INLINE void shift_row(Ops& ops, std::uint32_t* e, std::uint32_t* o) {
  constexpr int n = L::kLimbs;
  ops.add_cc(o[0], o[0], e[1]);
  PL_UNROLL for (int k = 0; k < n - 2; ++k) ops.addc_cc(e[k], e[k + 2], 0u);
  ops.addc(e[n - 2], 0u, 0u);
  e[n - 1] = 0u;
}

/// out = t·2^-(32n) mod p, fully reduced, for a 2n-limb t < p·2^(32n): REDC(t) = REDC(t mod 2^(32n)) +
/// floor(t / 2^(32n)), where the first term is n reduction rows and at most p and the second is below p, so
/// one conditional subtraction finishes.
template <class L, class Ops>
PL_HD_INLINE void redc_wide(Ops& ops, std::uint32_t* out, const std::uint32_t* t) {
  constexpr int n = L::kLimbs;
  std::uint32_t u[n], v[n];  // u at position 0, v at position 1; the roles alternate per row
  PL_UNROLL for (int k = 0; k < n; ++k) {
    u[k] = t[k];
    v[k] = 0u;
  }
  reduce_row<L>(ops, u, v);
  PL_UNROLL for (int i = 1; i < n; i += 2) {
    shift_row<L>(ops, u, v);  // v now at position 0, u at position 1
    reduce_row<L>(ops, v, u);
    if (i + 1 < n) {
      shift_row<L>(ops, v, u);
      reduce_row<L>(ops, u, v);
    }
  }
  // u + (v >> 32) + t_hi < 2p.
  std::uint32_t x[n];
  ops.add_cc(x[0], u[0], v[1]);
  PL_UNROLL for (int k = 1; k < n - 1; ++k) ops.addc_cc(x[k], u[k], v[k + 1]);
  ops.addc(x[n - 1], u[n - 1], 0u);
  ops.add_cc(x[0], x[0], t[n]);
  PL_UNROLL for (int k = 1; k < n - 1; ++k) ops.addc_cc(x[k], x[k], t[n + k]);
  ops.addc(x[n - 1], x[n - 1], t[2 * n - 1]);
  reduce_once<L>(ops, out, x);
}

}  // namespace proofline::detail::limbs32
