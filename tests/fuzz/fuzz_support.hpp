// Shared by the libFuzzer targets.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include <tbb/global_control.h>

namespace proofline::fuzz {

/// One thread for TBB: runs are deterministic and the fuzzer's own parallelism (-jobs) is what scales.
inline void single_thread() {
  static const tbb::global_control control(tbb::global_control::max_allowed_parallelism, 1);
}

inline std::span<const std::byte> bytes(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const std::byte*>(data), size};
}

}  // namespace proofline::fuzz
