// a·b − c·d with one Montgomery reduction instead of two, on 32-bit limbs (L = Limbs32<Params>, n =
// L::kLimbs). The XYZZ point formulas end with Y3 = R·(Q − X3) − Y·PPP; reducing the difference of the two
// wide products once saves a reduction per addition in the MSM's bucket loop, and the result is the same
// fully reduced value as the two products subtracted, so host and device agree bit for bit.
//
// Only the base field uses it. Fp2's version (six wide products, two reductions instead of four) made the G2
// MSM slower on sm_90, not faster: three live wide values beside eight operands cost the G2 kernels
// registers, so G2 keeps two Karatsuba products.
#pragma once

#include <cstdint>
#include <utility>

#include <proofline/arith/config.hpp>
#include <proofline/arith/detail/mod_add_limbs32.hpp>
#include <proofline/arith/detail/mont_reduce_limbs32.hpp>
#include <proofline/arith/detail/mul_wide_limbs32.hpp>

namespace proofline::detail::limbs32 {

/// t -= x over 2n limbs (mod 2^(64n): wrapping is how a negative difference is held).
template <class L, class Ops>
PL_HD_INLINE void wide_sub(Ops& ops, std::uint32_t* t, const std::uint32_t* x) {
  constexpr int kWide = 2 * L::kLimbs;
  ops.sub_cc(t[0], t[0], x[0]);
  PL_UNROLL for (int k = 1; k < kWide - 1; ++k) ops.subc_cc(t[k], t[k], x[k]);
  ops.subc(t[kWide - 1], t[kWide - 1], x[kWide - 1]);
}

/// t + p·2^(32n) when t (2n limbs, two's complement) is negative, t unchanged otherwise: for |t| < p·2^(32n)
/// the result is in [0, p·2^(32n)), what redc_wide takes, and congruent to t modulo p. The sign is the top
/// bit, since p·2^(32n) < 2^(64n - 1) by the spare bit.
template <class L, class Ops>
PL_HD_INLINE void add_p_high_if_negative(Ops& ops, std::uint32_t* t) {
  constexpr int n = L::kLimbs;
  const std::uint32_t mask = static_cast<std::uint32_t>(static_cast<std::int32_t>(t[2 * n - 1]) >> 31);
  ops.add_cc(t[n], t[n], L::template kP<0> & mask);
  addc_run_masked_p<L, 1>(ops, t + n, t + n, mask, std::make_integer_sequence<int, n - 2>{});
  std::uint32_t carry;
  ops.addc(carry, 0u, 0u);
  t[2 * n - 1] += (L::template kP<n - 1> & mask) + carry;  // wraps on purpose when t was negative
}

/// out = a·b − c·d mod p (Montgomery form in and out, fully reduced): |a b − c d| < p^2 < p·2^(32n).
template <class L, class Ops>
PL_HD_INLINE void mont_product_difference(Ops& ops, std::uint32_t* out, const std::uint32_t* a,
                                          const std::uint32_t* b, const std::uint32_t* c,
                                          const std::uint32_t* d) {
  constexpr int n = L::kLimbs;
  std::uint32_t t[2 * n], w[2 * n];
  mul_wide<L>(ops, t, a, b);
  mul_wide<L>(ops, w, c, d);
  wide_sub<L>(ops, t, w);
  add_p_high_if_negative<L>(ops, t);
  redc_wide<L>(ops, out, t);
}

}  // namespace proofline::detail::limbs32
