// The seed of a randomised test, for every suite: fresh inputs each run, and a failure that can be replayed.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <random>

namespace proofline::test_support {

/// PROOFLINE_TEST_SEED when set (to replay a failure), else fresh entropy. Tests CAPTURE it, so every failure
/// report names the seed that reproduces it.
inline std::uint64_t test_seed() {
  if (const char* text = std::getenv("PROOFLINE_TEST_SEED")) return std::strtoull(text, nullptr, 0);
  std::random_device device;
  return (static_cast<std::uint64_t>(device()) << 32) | device();
}

}  // namespace proofline::test_support
