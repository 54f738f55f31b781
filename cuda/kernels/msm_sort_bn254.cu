// The scalar phases of the GPU MSM for BN254's Fr (cuda/kernels/detail/msm_sort.cuh); the bucket scan is
// msm_sort.cu's.
#include <proofline/cuda/kernels/detail/msm_sort.cuh>

namespace proofline::cuda::detail {

void launch_msm_sort(const MsmCommonArgs<bn254::Fr>& a, void* scan_temp, std::size_t scan_temp_bytes,
                     CUstream_st* stream) {
  launch_msm_sort_impl(a, scan_temp, scan_temp_bytes, stream);
}

}  // namespace proofline::cuda::detail
