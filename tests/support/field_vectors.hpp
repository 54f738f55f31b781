// Random vectors of Fr (either curve's: the template argument, BLS12-381's by default) and their comparison,
// for the NTT, H and MSM tests of every suite (CPU, the host emulation of the GPU kernels, and the GPU
// suite).
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include <proofline/arith/fr.hpp>
#include <proofline/arith/random.hpp>
#include <proofline/cpu/random_vector.hpp>

#include "support/seed.hpp"

namespace proofline::test_support {

/// n uniform elements of F drawn from `rng`.
template <class F = Fr>
std::vector<F> random_scalars(std::mt19937_64& rng, std::size_t n) {
  std::vector<F> out(n);
  for (F& value : out) value = random_field<F>(rng);
  return out;
}

/// n uniform elements of F from `seed`, drawn in parallel blocks (for the GPU suite's vectors of up to
/// 2^26).
template <class F = Fr>
std::vector<F> random_scalars_parallel(std::uint64_t seed, std::size_t n) {
  return cpu::random_field_vector<F>(seed, n);
}

/// How many positions differ (all of them past the shorter length): one CHECK per vector keeps a failure's
/// output short however many elements are wrong. Parallel, for the large vectors of the GPU suite.
template <class T>
std::size_t count_mismatches(const std::vector<T>& a, const std::vector<T>& b) {
  const std::size_t common = std::min(a.size(), b.size());
  const std::size_t extra = std::max(a.size(), b.size()) - common;
  return extra + tbb::parallel_reduce(
                     tbb::blocked_range<std::size_t>(0, common, std::size_t{1} << 16), std::size_t{0},
                     [&](const tbb::blocked_range<std::size_t>& r, std::size_t count) {
                       for (std::size_t i = r.begin(); i != r.end(); ++i) count += a[i] != b[i];
                       return count;
                     },
                     [](std::size_t x, std::size_t y) { return x + y; });
}

}  // namespace proofline::test_support
