// The BN254 G2 instantiation of the GPU MSM's point-addition kernels (cuda/kernels/detail/msm_tail.cuh).
#include <proofline/cuda/kernels/detail/msm_tail.cuh>

namespace proofline::cuda::detail {

void launch_msm_tail(const MsmTail<bn254::G2Params>& tail, CUstream_st* stream) {
  launch_msm_tail_impl(tail, stream);
}

void launch_msm_add_result(bn254::G2Jacobian* total, const bn254::G2Jacobian* partial, bool first,
                           CUstream_st* stream) {
  launch_msm_add_result_impl(total, partial, first, stream);
}

void launch_msm_table(const MsmTable<bn254::G2Params>& table, CUstream_st* stream) {
  launch_msm_table_impl(table, stream);
}

}  // namespace proofline::cuda::detail
