// The BN254 G1 instantiation of the GPU MSM's point-addition kernels (cuda/kernels/detail/msm_tail.cuh).
#include <proofline/cuda/kernels/detail/msm_tail.cuh>

namespace proofline::cuda::detail {

void launch_msm_tail(const MsmTail<bn254::G1Params>& tail, CUstream_st* stream) {
  launch_msm_tail_impl(tail, stream);
}

void launch_msm_add_result(bn254::G1Jacobian* total, const bn254::G1Jacobian* partial, bool first,
                           CUstream_st* stream) {
  launch_msm_add_result_impl(total, partial, first, stream);
}

void launch_msm_table(const MsmTable<bn254::G1Params>& table, CUstream_st* stream) {
  launch_msm_table_impl(table, stream);
}

}  // namespace proofline::cuda::detail
