// The NTT kernels for BLS12-381's Fr (cuda/kernels/detail/ntt_pass.cuh).
#include <proofline/arith/fr.hpp>
#include <proofline/cuda/kernels/detail/ntt_pass.cuh>

namespace proofline::cuda::detail {

template void configure_ntt_kernels<Fr>();
template void launch_ntt_pass<Fr>(const PassArgs<Fr>& args, CUstream_st* stream);
template void launch_small_h<Fr>(const SmallHArgs<Fr>& args, CUstream_st* stream);
template void launch_diagonal_table<Fr>(Fr* out, const Fr* root_hi, const Fr* root_lo, unsigned lo_bits,
                                        unsigned k, CUstream_st* stream);
template void launch_power_table<Fr>(Fr* out, const Fr* hi, const Fr* lo, unsigned log_n,
                                     CUstream_st* stream);
template void launch_bit_reverse<Fr>(const BitrevArgs<Fr>& args, CUstream_st* stream);

}  // namespace proofline::cuda::detail
