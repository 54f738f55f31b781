// Internal: host entry points of the NTT kernels (cuda/kernels/detail/ntt_pass.cuh), templated on the scalar
// field F and instantiated for BLS12-381's Fr by cuda/kernels/ntt_pass.cu and for BN254's by
// ntt_pass_bn254.cu. Plain C++: the engine calls them from a .cpp file. Every function checks its launch and
// throws Error(Errc::cuda) on failure.
#pragma once

#include <proofline/cuda/kernels/detail/ntt_args.hpp>
#include <proofline/cuda/kernels/detail/ntt_small_h.hpp>

struct CUstream_st;

namespace proofline::cuda::detail {

/// Raises the kernels' dynamic shared-memory limits on the current device (once per device).
template <class F>
void configure_ntt_kernels();

/// One pass of args.batch vectors: (n / tile) x batch blocks of tile/8 threads.
template <class F>
void launch_ntt_pass(const PassArgs<F>& args, CUstream_st* stream);

/// Groth16's H of a domain of 2^1 .. 2^9 rows in one block (see ntt_small_h.hpp).
template <class F>
void launch_small_h(const SmallHArgs<F>& args, CUstream_st* stream);

/// Fills out[(s << lo_bits) + lo] = w^(lo·bitrev_k(s)), w of order 2^(lo_bits + k), from the root power
/// tables (lo_bits + k >= 10): a full diagonal table.
template <class F>
void launch_diagonal_table(F* out, const F* root_hi, const F* root_lo, unsigned lo_bits, unsigned k,
                           CUstream_st* stream);

/// Fills out[pos] = hi[j >> 14] · lo[j & 0x3fff], j = bitrev_(log_n)(pos), for pos < 2^log_n (log_n >= 10):
/// a full table of powers for data in bit-reversed order (build_reversed_powers on the host).
template <class F>
void launch_power_table(F* out, const F* hi, const F* lo, unsigned log_n, CUstream_st* stream);

/// In-place bit reversal of args.batch vectors.
template <class F>
void launch_bit_reverse(const BitrevArgs<F>& args, CUstream_st* stream);

}  // namespace proofline::cuda::detail
