// Whether host memory is already page-locked for CUDA (a pinned buffer from a CUDA backend, a key file read
// into one), so that the GPU can stream from it at pinned-copy speed without a pinned copy being made.
#pragma once

#include <cstddef>
#include <span>

namespace proofline::memory {

/// Whether the CUDA driver treats the first and last byte of `range` as page-locked host memory. False
/// without CUDA or a device, and for an empty range.
bool page_locked(std::span<const std::byte> range) noexcept;

}  // namespace proofline::memory
