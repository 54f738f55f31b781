// Internal: host entry points of the NTT kernels (cuda/kernels/ntt_pass.cu). Plain C++: the engine calls them
// from a .cpp file. Every function checks its launch and throws Error(Errc::cuda) on failure.
#pragma once

#include <proofline/cuda/kernels/detail/ntt_args.hpp>

struct CUstream_st;

namespace proofline::cuda::detail {

/// Raises the kernels' dynamic shared-memory limits on the current device (once per device).
void configure_ntt_kernels();

/// One pass of args.batch vectors: (n / tile) x batch blocks of tile/8 threads.
void launch_ntt_pass(const PassArgs& args, CUstream_st* stream);

/// Fills out[(s << lo_bits) + lo] = w^(lo·bitrev_k(s)), w of order 2^(lo_bits + k), from the root power
/// tables (lo_bits + k >= 10): a full diagonal table.
void launch_diagonal_table(Fr* out, const Fr* root_hi, const Fr* root_lo, unsigned lo_bits, unsigned k,
                           CUstream_st* stream);

/// In-place bit reversal of args.batch vectors.
void launch_bit_reverse(const BitrevArgs& args, CUstream_st* stream);

}  // namespace proofline::cuda::detail
