// A copy of field elements spread over oneTBB's workers: witness vectors of 2^20..2^27 elements are copied
// into pinned slots, where one thread would leave the memory bandwidth mostly idle.
#pragma once

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>

#include <algorithm>
#include <cstddef>
#include <span>
#include <string>

#include <proofline/arith/fr.hpp>
#include <proofline/util/error.hpp>

namespace proofline::cpu {

/// Copies `from` into `to`; throws Error(invalid_argument) when their sizes differ. Any trivially copyable
/// element (either curve's Fr).
template <class F>
void parallel_copy(std::span<const F> from, std::span<F> to) {
  if (to.size() != from.size())
    throw Error(Errc::invalid_argument, "a vector of " + std::to_string(from.size()) +
                                            " values for a region of " + std::to_string(to.size()));
  oneapi::tbb::parallel_for(oneapi::tbb::blocked_range<std::size_t>(0, from.size(), std::size_t{1} << 16),
                            [&](const oneapi::tbb::blocked_range<std::size_t>& r) {
                              std::copy(from.begin() + static_cast<std::ptrdiff_t>(r.begin()),
                                        from.begin() + static_cast<std::ptrdiff_t>(r.end()),
                                        to.begin() + static_cast<std::ptrdiff_t>(r.begin()));
                            });
}

/// The same for BLS12-381's Fr, from anything that converts to its spans (a vector).
inline void parallel_copy(std::span<const Fr> from, std::span<Fr> to) {
  parallel_copy<Fr>(from, to);
}

}  // namespace proofline::cpu
