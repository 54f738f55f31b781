// The G1 instantiation of the fixed-base multiplication kernels (cuda/kernels/detail/fixed_base_kernels.cuh).
#include <proofline/cuda/kernels/detail/fixed_base_kernels.cuh>

namespace proofline::cuda::detail {

void launch_fixed_base_table(const G1Affine& base, G1Affine* table, G1Xyzz* temp, CUstream_st* stream) {
  launch_fixed_base_table_impl(base, table, temp, stream);
}

void launch_fixed_base(const G1Affine* table, const Fr* scalars, std::size_t n, G1Affine* out, G1Xyzz* temp,
                       CUstream_st* stream) {
  launch_fixed_base_impl(table, scalars, n, out, temp, stream);
}

}  // namespace proofline::cuda::detail
