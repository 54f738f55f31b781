// Internal: the per-thread work of building a precomputed-window MSM table (see msm_body.hpp), for the CUDA
// kernels (cuda/kernels/detail/msm_tail.cuh) and the host emulation in the CPU tests.
//
// Block w of the table holds 2^(c w)·P_i. Block w comes from block w - 1 a chunk of points at a time: each
// point is doubled c times in Jacobian coordinates (2M + 5S a doubling, the cheapest chain), and the chunk is
// made affine by to_affine_body (one inversion per group of consecutive points).
#pragma once

#include <cstdint>

#include <proofline/arith/config.hpp>
#include <proofline/arith/curve.hpp>
#include <proofline/cuda/kernels/detail/fixed_base_body.hpp>

namespace proofline::cuda::detail {

/// Point i of a chunk: out[i] = 2^c·previous[i] in XYZZ (infinity stays infinity).
template <class Curve>
PL_HD_INLINE void table_step_body(const AffinePoint<Curve>* previous, XyzzPoint<Curve>* out, int window_bits,
                                  std::uint32_t i) {
  JacobianPoint<Curve> p = previous[i].to_jacobian();
  for (int k = 0; k < window_bits; ++k) p = p.dbl();
  out[i] = p.to_xyzz();
}

}  // namespace proofline::cuda::detail
