// The scalar phases of the GPU MSM for BLS12-381's Fr (cuda/kernels/detail/msm_sort.cuh), and the bucket
// scan that every curve's sort shares.
#include <cub/device/device_scan.cuh>

#include <proofline/cuda/check.hpp>
#include <proofline/cuda/kernels/detail/msm_launch.hpp>
#include <proofline/cuda/kernels/detail/msm_sort.cuh>

namespace proofline::cuda::detail {

std::size_t msm_scan_temp_bytes(std::size_t items) {
  std::size_t bytes = 0;
  PL_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, static_cast<const std::uint32_t*>(nullptr),
                                              static_cast<std::uint32_t*>(nullptr), static_cast<int>(items)));
  return bytes;
}

void launch_msm_scan(std::uint32_t* counts, std::uint32_t* starts, std::size_t items, void* scan_temp,
                     std::size_t scan_temp_bytes, CUstream_st* stream) {
  std::size_t bytes = scan_temp_bytes;
  PL_CUDA_CHECK(
      cub::DeviceScan::ExclusiveSum(scan_temp, bytes, counts, starts, static_cast<int>(items), stream));
}

void launch_msm_sort(const MsmCommonArgs<Fr>& a, void* scan_temp, std::size_t scan_temp_bytes,
                     CUstream_st* stream) {
  launch_msm_sort_impl(a, scan_temp, scan_temp_bytes, stream);
}

}  // namespace proofline::cuda::detail
