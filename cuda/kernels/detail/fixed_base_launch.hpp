// Internal: the host entry points of the fixed-base kernels (cuda/kernels/setup_g*.cu; built only with
// CUDA), one overload per curve and group. Plain C++ declarations.
#pragma once

#include <cstddef>

#include <proofline/arith/curves.hpp>
#include <proofline/cuda/kernels/detail/fixed_base_body.hpp>

struct CUstream_st;

namespace proofline::cuda::detail {

/// Fills `table` (kFixedBaseTableSize affine points) for `base`; `temp` holds kFixedBaseTableSize XYZZ
/// points.
void launch_fixed_base_table(const G1Affine& base, G1Affine* table, G1Xyzz* temp, CUstream_st* stream);
void launch_fixed_base_table(const G2Affine& base, G2Affine* table, G2Xyzz* temp, CUstream_st* stream);
void launch_fixed_base_table(const bn254::G1Affine& base, bn254::G1Affine* table, bn254::G1Xyzz* temp,
                             CUstream_st* stream);
void launch_fixed_base_table(const bn254::G2Affine& base, bn254::G2Affine* table, bn254::G2Xyzz* temp,
                             CUstream_st* stream);

/// out[j] = [scalars[j]]·base (affine) for j < n; `temp` holds n XYZZ points.
void launch_fixed_base(const G1Affine* table, const Fr* scalars, std::size_t n, G1Affine* out, G1Xyzz* temp,
                       CUstream_st* stream);
void launch_fixed_base(const G2Affine* table, const Fr* scalars, std::size_t n, G2Affine* out, G2Xyzz* temp,
                       CUstream_st* stream);
void launch_fixed_base(const bn254::G1Affine* table, const bn254::Fr* scalars, std::size_t n,
                       bn254::G1Affine* out, bn254::G1Xyzz* temp, CUstream_st* stream);
void launch_fixed_base(const bn254::G2Affine* table, const bn254::Fr* scalars, std::size_t n,
                       bn254::G2Affine* out, bn254::G2Xyzz* temp, CUstream_st* stream);

}  // namespace proofline::cuda::detail
