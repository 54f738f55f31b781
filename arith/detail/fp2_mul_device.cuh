// Device multiplication and squaring for Fp2 (the G2 coordinates), used by Fp2's operators in device code.
//
// Two choices for sm_90. The product is Karatsuba with lazy reduction (limbs32::fp2_mul: three wide products
// and two Montgomery reductions, about 1460 multiply-adds against 1760 for three full products over
// BLS12-381's Fp). And both are out-of-line functions: a G2 mixed addition inlined with its thirty Fp
// products would be hundreds of KiB of machine code, far more than the instruction cache holds, so every warp
// would stall on instruction fetch; one call site per product keeps the hot loops small (sppark's Fp2
// addition avoids the same problem with its `uadd` state machine). Results are fully reduced, so they equal
// the host's MontField Karatsuba bit for bit; tests/gpu_host checks the algorithm with an emulated carry flag
// and tests/gpu the device against the host.
#pragma once

#include <cstdint>

#include <proofline/arith/detail/fp2_mul_limbs32.hpp>
#include <proofline/arith/detail/limbs32.hpp>
#include <proofline/arith/detail/ptx_carry_ops.cuh>

namespace proofline::detail {

/// a·b in Fp2 (F is Fp2; a template so that this header can precede Fp2's definition).
template <class F>
__device__ __noinline__ F fp2_mul_device(F a, F b) {
  using L = typename Limbs32OfField<decltype(a.c0)>::type;
  std::uint32_t a0[L::kLimbs], a1[L::kLimbs], b0[L::kLimbs], b1[L::kLimbs];
  std::uint32_t c0[L::kLimbs], c1[L::kLimbs];
  L::split_limbs(a0, a.c0.limb);
  L::split_limbs(a1, a.c1.limb);
  L::split_limbs(b0, b.c0.limb);
  L::split_limbs(b1, b.c1.limb);
  PtxCarryOps ops;
  limbs32::fp2_mul<L>(ops, c0, c1, a0, a1, b0, b1);
  F out;
  L::join_limbs(out.c0.limb, c0);
  L::join_limbs(out.c1.limb, c1);
  return out;
}

/// a^2 in Fp2: ((c0 + c1)(c0 - c1), 2 c0 c1), two products.
template <class F>
__device__ __noinline__ F fp2_sqr_device(F a) {
  using L = typename Limbs32OfField<decltype(a.c0)>::type;
  std::uint32_t a0[L::kLimbs], a1[L::kLimbs], c0[L::kLimbs], c1[L::kLimbs];
  L::split_limbs(a0, a.c0.limb);
  L::split_limbs(a1, a.c1.limb);
  PtxCarryOps ops;
  limbs32::fp2_sqr<L>(ops, c0, c1, a0, a1);
  F out;
  L::join_limbs(out.c0.limb, c0);
  L::join_limbs(out.c1.limb, c1);
  return out;
}

}  // namespace proofline::detail
