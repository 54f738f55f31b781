// Internal: the fixed-base kernels, templated on the group and instantiated once per group by
// cuda/kernels/setup_g1.cu, setup_g2.cu (BLS12-381), setup_g1_bn254.cu and setup_g2_bn254.cu. See
// fixed_base_body.hpp.
#pragma once

#include <proofline/cuda/check.hpp>
#include <proofline/cuda/kernels/detail/fixed_base_body.hpp>
#include <proofline/cuda/kernels/detail/fixed_base_launch.hpp>

namespace proofline::cuda::detail {

template <class Curve>
__global__ void fixed_base_table_kernel(AffinePoint<Curve> base, XyzzPoint<Curve>* table) {
  if (threadIdx.x < kFixedBaseWindows) table_window_body(base, table, static_cast<int>(threadIdx.x));
}

template <class Curve>
__global__ void __launch_bounds__(128)
    fixed_base_kernel(const AffinePoint<Curve>* table, const typename Curve::Scalar* scalars, std::uint32_t n,
                      XyzzPoint<Curve>* out) {
  const std::uint32_t j = blockIdx.x * 128 + threadIdx.x;
  if (j < n) out[j] = fixed_base_body(table, scalars[j]);
}

template <class Curve>
__global__ void __launch_bounds__(128)
    to_affine_kernel(const XyzzPoint<Curve>* points, AffinePoint<Curve>* out, std::uint32_t n) {
  to_affine_body(points, out, n, blockIdx.x * 128 + threadIdx.x);
}

inline unsigned fixed_base_blocks(std::size_t threads) {
  return static_cast<unsigned>((threads + 127) / 128);
}

template <class Curve>
void launch_to_affine(const XyzzPoint<Curve>* points, AffinePoint<Curve>* out, std::size_t n,
                      cudaStream_t stream) {
  const std::size_t groups = (n + kAffineGroup - 1) / kAffineGroup;
  to_affine_kernel<Curve>
      <<<fixed_base_blocks(groups), 128, 0, stream>>>(points, out, static_cast<std::uint32_t>(n));
  PL_CUDA_CHECK(cudaGetLastError());
}

template <class Curve>
void launch_fixed_base_table_impl(const AffinePoint<Curve>& base, AffinePoint<Curve>* table,
                                  XyzzPoint<Curve>* temp, cudaStream_t stream) {
  fixed_base_table_kernel<Curve><<<1, 32, 0, stream>>>(base, temp);
  PL_CUDA_CHECK(cudaGetLastError());
  launch_to_affine(temp, table, kFixedBaseTableSize, stream);
}

template <class Curve>
void launch_fixed_base_impl(const AffinePoint<Curve>* table, const typename Curve::Scalar* scalars,
                            std::size_t n, AffinePoint<Curve>* out, XyzzPoint<Curve>* temp,
                            cudaStream_t stream) {
  if (n == 0) return;
  fixed_base_kernel<Curve>
      <<<fixed_base_blocks(n), 128, 0, stream>>>(table, scalars, static_cast<std::uint32_t>(n), temp);
  PL_CUDA_CHECK(cudaGetLastError());
  launch_to_affine(temp, out, n, stream);
}

}  // namespace proofline::cuda::detail
