// The subgroup-check kernels of cuda/gpu_key_check.hpp: one thread a point, the exact per-point tests that
// arith/ writes once for host and device.
#include <proofline/arith/bn254/g2.hpp>
#include <proofline/arith/g1.hpp>
#include <proofline/arith/g2.hpp>
#include <proofline/cuda/check.hpp>
#include <proofline/cuda/kernels/detail/key_check_launch.hpp>

namespace proofline::cuda::detail {

namespace {

constexpr unsigned kThreads = 128;

template <class Affine>
__global__ void __launch_bounds__(kThreads)
    subgroup_check_kernel(const Affine* points, std::uint64_t n, std::uint64_t index_base,
                          unsigned long long* first_bad) {
  const std::uint64_t i = blockIdx.x * std::uint64_t{kThreads} + threadIdx.x;
  if (i < n && !is_in_subgroup(points[i])) atomicMin(first_bad, index_base + i);
}

template <class Affine>
void launch(const Affine* points, std::size_t n, std::uint64_t index_base, unsigned long long* first_bad,
            cudaStream_t stream) {
  if (n == 0) return;
  const std::uint64_t blocks = (n + kThreads - 1) / kThreads;
  subgroup_check_kernel<Affine>
      <<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(points, n, index_base, first_bad);
  PL_CUDA_CHECK(cudaGetLastError());
}

}  // namespace

void launch_subgroup_check(const G1Affine* points, std::size_t n, std::uint64_t index_base,
                           unsigned long long* first_bad, CUstream_st* stream) {
  launch(points, n, index_base, first_bad, stream);
}
void launch_subgroup_check(const G2Affine* points, std::size_t n, std::uint64_t index_base,
                           unsigned long long* first_bad, CUstream_st* stream) {
  launch(points, n, index_base, first_bad, stream);
}
void launch_subgroup_check(const bn254::G2Affine* points, std::size_t n, std::uint64_t index_base,
                           unsigned long long* first_bad, CUstream_st* stream) {
  launch(points, n, index_base, first_bad, stream);
}

}  // namespace proofline::cuda::detail
