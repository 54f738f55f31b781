// Internal: the host entry points of the subgroup-check kernels (cuda/kernels/key_check.cu), one overload per
// group; plain C++ declarations, so that cuda/gpu_key_check.cpp stays a host compiler file.
#pragma once

#include <cstddef>
#include <cstdint>

#include <proofline/arith/curves.hpp>

struct CUstream_st;

namespace proofline::cuda::detail {

/// Enqueues *first_bad = min(*first_bad, index_base + i) over the points[i] (i < n, device memory) outside
/// their prime-order subgroup.
void launch_subgroup_check(const G1Affine* points, std::size_t n, std::uint64_t index_base,
                           unsigned long long* first_bad, CUstream_st* stream);
void launch_subgroup_check(const G2Affine* points, std::size_t n, std::uint64_t index_base,
                           unsigned long long* first_bad, CUstream_st* stream);
void launch_subgroup_check(const bn254::G2Affine* points, std::size_t n, std::uint64_t index_base,
                           unsigned long long* first_bad, CUstream_st* stream);

}  // namespace proofline::cuda::detail
