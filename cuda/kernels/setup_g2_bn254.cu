// The BN254 G2 instantiation of the fixed-base multiplication kernels
// (cuda/kernels/detail/fixed_base_kernels.cuh).
#include <proofline/cuda/kernels/detail/fixed_base_kernels.cuh>

namespace proofline::cuda::detail {

void launch_fixed_base_table(const bn254::G2Affine& base, bn254::G2Affine* table, bn254::G2Xyzz* temp,
                             CUstream_st* stream) {
  launch_fixed_base_table_impl(base, table, temp, stream);
}

void launch_fixed_base(const bn254::G2Affine* table, const bn254::Fr* scalars, std::size_t n,
                       bn254::G2Affine* out, bn254::G2Xyzz* temp, CUstream_st* stream) {
  launch_fixed_base_impl(table, scalars, n, out, temp, stream);
}

}  // namespace proofline::cuda::detail
