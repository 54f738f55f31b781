// The NTT kernels for BN254's Fr (cuda/kernels/detail/ntt_pass.cuh).
#include <proofline/arith/bn254/fr.hpp>
#include <proofline/cuda/kernels/detail/ntt_pass.cuh>

namespace proofline::cuda::detail {

template void configure_ntt_kernels<bn254::Fr>();
template void launch_ntt_pass<bn254::Fr>(const PassArgs<bn254::Fr>& args, CUstream_st* stream);
template void launch_small_h<bn254::Fr>(const SmallHArgs<bn254::Fr>& args, CUstream_st* stream);
template void launch_diagonal_table<bn254::Fr>(bn254::Fr* out, const bn254::Fr* root_hi,
                                               const bn254::Fr* root_lo, unsigned lo_bits, unsigned k,
                                               CUstream_st* stream);
template void launch_power_table<bn254::Fr>(bn254::Fr* out, const bn254::Fr* hi, const bn254::Fr* lo,
                                            unsigned log_n, CUstream_st* stream);
template void launch_bit_reverse<bn254::Fr>(const BitrevArgs<bn254::Fr>& args, CUstream_st* stream);

}  // namespace proofline::cuda::detail
