// Zeroing witness buffers (2^20..2^27 field elements) spread over oneTBB's workers, with stores the optimizer
// keeps (secure_wipe): one thread would take a tenth of a second or more per job at 2^24.
#pragma once

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>

#include <cstddef>
#include <span>

#include <proofline/arith/fr.hpp>
#include <proofline/util/secure_wipe.hpp>

namespace proofline::cpu {

/// Sets every element of `values` to zero; never throws (when the parallel loop cannot start, one thread
/// does it).
inline void parallel_wipe(std::span<Fr> values) noexcept {
  try {
    oneapi::tbb::parallel_for(oneapi::tbb::blocked_range<std::size_t>(0, values.size(), std::size_t{1} << 16),
                              [&](const oneapi::tbb::blocked_range<std::size_t>& r) {
                                secure_wipe(values.data() + r.begin(), (r.end() - r.begin()) * sizeof(Fr));
                              });
  } catch (...) {
    secure_wipe(values.data(), values.size_bytes());
  }
}

}  // namespace proofline::cpu
