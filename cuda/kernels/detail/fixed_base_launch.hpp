// Internal: the host entry points of the fixed-base kernels (cuda/kernels/setup_g1.cu, setup_g2.cu; built
// only with CUDA). Plain C++ declarations.
#pragma once

#include <cstddef>

#include <proofline/arith/g1.hpp>
#include <proofline/arith/g2.hpp>
#include <proofline/cuda/kernels/detail/fixed_base_body.hpp>

struct CUstream_st;

namespace proofline::cuda::detail {

/// Fills `table` (kFixedBaseTableSize affine points) for `base`; `temp` holds kFixedBaseTableSize XYZZ
/// points.
void launch_fixed_base_table(const G1Affine& base, G1Affine* table, G1Xyzz* temp, CUstream_st* stream);
void launch_fixed_base_table(const G2Affine& base, G2Affine* table, G2Xyzz* temp, CUstream_st* stream);

/// out[j] = [scalars[j]]·base (affine) for j < n; `temp` holds n XYZZ points.
void launch_fixed_base(const G1Affine* table, const Fr* scalars, std::size_t n, G1Affine* out, G1Xyzz* temp,
                       CUstream_st* stream);
void launch_fixed_base(const G2Affine* table, const Fr* scalars, std::size_t n, G2Affine* out, G2Xyzz* temp,
                       CUstream_st* stream);

}  // namespace proofline::cuda::detail
