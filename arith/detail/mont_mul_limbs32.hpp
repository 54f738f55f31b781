// Montgomery multiplication on 32-bit limbs (L = Limbs32<Params>, n = L::kLimbs): CIOS over n rows, each a
// product row a·b_i followed by a reduction row, with the partial products split into the two accumulators of
// mont_reduce_limbs32.hpp. The products a_j·x with even j form one run of non-overlapping 64-bit words
// starting at position 0, those with odd j one starting at position 1, so a product row is two independent
// carry chains of n multiply-adds, like the reduction row.
//
// The result of CIOS is below 2p and one conditional subtraction makes it fully reduced, so it equals the
// host's MontField product bit for bit. tests/gpu_host checks the algorithm on the host with an emulated
// carry flag (and that no carry is dropped); tests/gpu checks the device against the host.
#pragma once

#include <cstdint>
#include <utility>

#include <proofline/arith/config.hpp>
#include <proofline/arith/detail/mod_add_limbs32.hpp>
#include <proofline/arith/detail/mont_reduce_limbs32.hpp>

namespace proofline::detail::limbs32 {

/// (dst[2j], dst[2j + 1]) = the low and high words of a_(2j + AShift)·x plus (src[2j + SrcShift],
/// src[2j + 1 + SrcShift]) for j = First + J, J in Js, continuing the carry chain: one run of a product row's
/// products, unrolled by the front end (see Limbs32::kP).
template <int First, int AShift, int SrcShift, class Ops, int... Js>
PL_HD_INLINE void madc_run_a_x(Ops& ops, std::uint32_t* dst, const std::uint32_t* src, const std::uint32_t* a,
                               std::uint32_t x, std::integer_sequence<int, Js...>) {
  ((ops.madc_lo_cc(dst[2 * (First + Js)], a[2 * (First + Js) + AShift], x, src[2 * (First + Js) + SrcShift]),
    ops.madc_hi_cc(dst[2 * (First + Js) + 1], a[2 * (First + Js) + AShift], x,
                   src[2 * (First + Js) + 1 + SrcShift])),
   ...);
}

/// After a reduction row (E at position 0 with E[0] = 0, O at position 1), adds a·x: O becomes the position-0
/// accumulator (taking E[1]) and E, shifted down two limbs by the odd chain's destinations, the position-1
/// one.
template <class L, class Ops>
PL_HD_INLINE void multiply_row(Ops& ops, std::uint32_t* e, std::uint32_t* o, const std::uint32_t* a,
                               std::uint32_t x) {
  constexpr int n = L::kLimbs;
  ops.add_cc(o[0], o[0], e[1]);  // position 0; its carry goes to position 1, taken by the odd chain below
  madc_run_a_x<0, 1, 2>(ops, e, e, a, x, std::make_integer_sequence<int, n / 2 - 1>{});
  ops.madc_lo_cc(e[n - 2], a[n - 1], x, 0u);
  ops.madc_hi(e[n - 1], a[n - 1], x, 0u);
  ops.mad_lo_cc(o[0], a[0], x, o[0]);
  ops.madc_hi_cc(o[1], a[0], x, o[1]);
  madc_run_a_x<1, 0, 0>(ops, o, o, a, x, std::make_integer_sequence<int, n / 2 - 1>{});
  ops.addc(e[n - 1], e[n - 1], 0u);  // position n
}

/// out = a·b·2^-(32n) mod p for fully reduced a, b (out may alias a or b).
template <class L, class Ops>
PL_HD_INLINE void mont_mul(Ops& ops, std::uint32_t* out, const std::uint32_t* a, const std::uint32_t* b) {
  constexpr int n = L::kLimbs;
  std::uint32_t u[n], v[n];  // which one is the position-0 accumulator alternates per row
  PL_UNROLL for (int k = 0; k < n / 2; ++k) {
    ops.mul_lo(u[2 * k], a[2 * k], b[0]);
    ops.mul_hi(u[2 * k + 1], a[2 * k], b[0]);
    ops.mul_lo(v[2 * k], a[2 * k + 1], b[0]);
    ops.mul_hi(v[2 * k + 1], a[2 * k + 1], b[0]);
  }
  reduce_row<L>(ops, u, v);
  PL_UNROLL for (int i = 1; i < n; i += 2) {
    multiply_row<L>(ops, u, v, a, b[i]);  // v now at position 0, u at position 1
    reduce_row<L>(ops, v, u);
    if (i + 1 < n) {
      multiply_row<L>(ops, v, u, a, b[i + 1]);
      reduce_row<L>(ops, u, v);
    }
  }
  // After the last row v is at position 0 (v[0] is zero) and u at position 1: the value is u + (v >> 32) <
  // 2p.
  std::uint32_t x[n];
  ops.add_cc(x[0], u[0], v[1]);
  PL_UNROLL for (int k = 1; k < n - 1; ++k) ops.addc_cc(x[k], u[k], v[k + 1]);
  ops.addc(x[n - 1], u[n - 1], 0u);
  reduce_once<L>(ops, out, x);
}

}  // namespace proofline::detail::limbs32
