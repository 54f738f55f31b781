// Modular addition and subtraction on 32-bit limbs (L = Limbs32<Params>), and the conditional subtraction
// that also ends every Montgomery product: branch-free, the borrow of a full-width subtraction selects the
// result.
#pragma once

#include <cstdint>
#include <utility>

#include <proofline/arith/config.hpp>

namespace proofline::detail::limbs32 {

/// out[k] = x[k] + (p_k & mask), continuing the carry chain, for k = First + J, J in Js; unrolled by the
/// front end (see Limbs32::kP).
template <class L, int First, class Ops, int... Js>
PL_HD_INLINE void addc_run_masked_p(Ops& ops, std::uint32_t* out, const std::uint32_t* x, std::uint32_t mask,
                                    std::integer_sequence<int, Js...>) {
  (ops.addc_cc(out[First + Js], x[First + Js], L::template kP<First + Js> & mask), ...);
}

/// out = x - p if x >= p, else x (x < 2p).
template <class L, class Ops>
PL_HD_INLINE void reduce_once(Ops& ops, std::uint32_t* out, const std::uint32_t* x) {
  constexpr int n = L::kLimbs;
  std::uint32_t t[n], mask;
  ops.sub_cc(t[0], x[0], L::p_limb(0));
  PL_UNROLL for (int k = 1; k < n; ++k) ops.subc_cc(t[k], x[k], L::p_limb(k));
  ops.subc(mask, 0u, 0u);  // all ones when x < p
  PL_UNROLL for (int k = 0; k < n; ++k) out[k] = (x[k] & mask) | (t[k] & ~mask);
}

/// out = a + b mod p for fully reduced a, b.
template <class L, class Ops>
PL_HD_INLINE void mod_add(Ops& ops, std::uint32_t* out, const std::uint32_t* a, const std::uint32_t* b) {
  constexpr int n = L::kLimbs;
  std::uint32_t x[n];
  ops.add_cc(x[0], a[0], b[0]);
  PL_UNROLL for (int k = 1; k < n - 1; ++k) ops.addc_cc(x[k], a[k], b[k]);
  ops.addc(x[n - 1], a[n - 1], b[n - 1]);  // a + b < 2p: no carry out thanks to the spare bit
  reduce_once<L>(ops, out, x);
}

/// out = a - b mod p for fully reduced a, b.
template <class L, class Ops>
PL_HD_INLINE void mod_sub(Ops& ops, std::uint32_t* out, const std::uint32_t* a, const std::uint32_t* b) {
  constexpr int n = L::kLimbs;
  std::uint32_t x[n], mask;
  ops.sub_cc(x[0], a[0], b[0]);
  PL_UNROLL for (int k = 1; k < n; ++k) ops.subc_cc(x[k], a[k], b[k]);
  ops.subc(mask, 0u, 0u);  // all ones when a < b: add p back
  ops.add_cc(out[0], x[0], L::template kP<0> & mask);
  addc_run_masked_p<L, 1>(ops, out, x, mask, std::make_integer_sequence<int, n - 2>{});
  ops.addc(out[n - 1], x[n - 1], L::template kP<n - 1> & mask);
}

}  // namespace proofline::detail::limbs32
