// Product and square in a quadratic extension F[u]/(u^2 + 1) of a field on 32-bit limbs (L = Limbs32<Params>
// of the base field, n = L::kLimbs): BLS12-381's Fp2, and any base field with p = 3 (mod 4).
//
// The product is Karatsuba with lazy reduction: three 2n-limb products and two Montgomery reductions instead
// of three full Montgomery products. Results are fully reduced, so they equal the host's MontField Karatsuba
// bit for bit; tests/gpu_host checks the algorithm with an emulated carry flag.
#pragma once

#include <cstdint>
#include <utility>

#include <proofline/arith/config.hpp>
#include <proofline/arith/detail/mod_add_limbs32.hpp>
#include <proofline/arith/detail/mont_mul_limbs32.hpp>
#include <proofline/arith/detail/mont_reduce_limbs32.hpp>
#include <proofline/arith/detail/mul_wide_limbs32.hpp>

namespace proofline::detail::limbs32 {

/// (c0 + c1 u) = (a0 + a1 u)(b0 + b1 u): c0 = REDC(a0 b0 - a1 b1 (+ p·2^(32n) when negative)), c1 =
/// REDC((a0 + a1)(b0 + b1) - a0 b0 - a1 b1). Both wide values are below p·2^(32n), so each REDC is fully
/// reduced.
template <class L, class Ops>
PL_HD_INLINE void fp2_mul(Ops& ops, std::uint32_t* c0, std::uint32_t* c1, const std::uint32_t* a0,
                          const std::uint32_t* a1, const std::uint32_t* b0, const std::uint32_t* b1) {
  constexpr int n = L::kLimbs;
  constexpr int kWide = 2 * n;
  std::uint32_t t0[kWide], t1[kWide], t2[kWide], sa[n], sb[n];
  mul_wide<L>(ops, t0, a0, b0);
  mul_wide<L>(ops, t1, a1, b1);
  // a0 + a1 and b0 + b1 below 2p < 2^(32n) (the spare bit): plain sums, no reduction.
  ops.add_cc(sa[0], a0[0], a1[0]);
  PL_UNROLL for (int k = 1; k < n - 1; ++k) ops.addc_cc(sa[k], a0[k], a1[k]);
  ops.addc(sa[n - 1], a0[n - 1], a1[n - 1]);
  ops.add_cc(sb[0], b0[0], b1[0]);
  PL_UNROLL for (int k = 1; k < n - 1; ++k) ops.addc_cc(sb[k], b0[k], b1[k]);
  ops.addc(sb[n - 1], b0[n - 1], b1[n - 1]);
  mul_wide<L>(ops, t2, sa, sb);
  // t2 = t2 - t0 - t1 = a0 b1 + a1 b0 >= 0.
  ops.sub_cc(t2[0], t2[0], t0[0]);
  PL_UNROLL for (int k = 1; k < kWide - 1; ++k) ops.subc_cc(t2[k], t2[k], t0[k]);
  ops.subc(t2[kWide - 1], t2[kWide - 1], t0[kWide - 1]);
  ops.sub_cc(t2[0], t2[0], t1[0]);
  PL_UNROLL for (int k = 1; k < kWide - 1; ++k) ops.subc_cc(t2[k], t2[k], t1[k]);
  ops.subc(t2[kWide - 1], t2[kWide - 1], t1[kWide - 1]);
  // t0 = t0 - t1, plus p·2^(32n) when that wrapped (the wrap and the addition's carry cancel mod 2^(64n)).
  std::uint32_t mask;
  ops.sub_cc(t0[0], t0[0], t1[0]);
  PL_UNROLL for (int k = 1; k < kWide; ++k) ops.subc_cc(t0[k], t0[k], t1[k]);
  ops.subc(mask, 0u, 0u);
  ops.add_cc(t0[n], t0[n], L::template kP<0> & mask);
  addc_run_masked_p<L, 1>(ops, t0 + n, t0 + n, mask, std::make_integer_sequence<int, n - 2>{});
  std::uint32_t carry;
  ops.addc(carry, 0u, 0u);
  t0[kWide - 1] += (L::template kP<n - 1> & mask) + carry;  // wraps on purpose when mask is set
  redc_wide<L>(ops, c0, t0);
  redc_wide<L>(ops, c1, t2);
}

/// (c0 + c1 u) = (a0 + a1 u)^2 = (a0 + a1)(a0 - a1) + 2 a0 a1 u: two Montgomery products.
template <class L, class Ops>
PL_HD_INLINE void fp2_sqr(Ops& ops, std::uint32_t* c0, std::uint32_t* c1, const std::uint32_t* a0,
                          const std::uint32_t* a1) {
  constexpr int n = L::kLimbs;
  std::uint32_t s[n], d[n];
  mod_add<L>(ops, s, a0, a1);
  mod_sub<L>(ops, d, a0, a1);
  mont_mul<L>(ops, c0, s, d);
  mont_mul<L>(ops, s, a0, a1);
  mod_add<L>(ops, c1, s, s);
}

}  // namespace proofline::detail::limbs32
