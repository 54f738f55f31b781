// The G2 instantiation of the fixed-base multiplication kernels (cuda/kernels/detail/fixed_base_kernels.cuh).
#include <proofline/cuda/kernels/detail/fixed_base_kernels.cuh>

namespace proofline::cuda::detail {

void launch_fixed_base_table(const G2Affine& base, G2Affine* table, G2Xyzz* temp, CUstream_st* stream) {
  launch_fixed_base_table_impl(base, table, temp, stream);
}

void launch_fixed_base(const G2Affine* table, const Fr* scalars, std::size_t n, G2Affine* out, G2Xyzz* temp,
                       CUstream_st* stream) {
  launch_fixed_base_impl(table, scalars, n, out, temp, stream);
}

}  // namespace proofline::cuda::detail
