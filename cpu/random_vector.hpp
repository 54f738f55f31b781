// Large vectors of uniformly random scalars (either curve's Fr) for tests and benchmarks (up to 2^26
// elements), drawn in parallel blocks from one seed: the same seed gives the same vector on any number of
// threads.
#pragma once

#include <oneapi/tbb/parallel_for.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include <proofline/arith/fr.hpp>

namespace proofline::cpu {

/// n uniform elements of F from `seed`. Uniform Montgomery limbs below r are uniform field elements, which
/// saves a conversion per element; the top limb is masked to r's bit length first.
template <class F>
std::vector<F> random_field_vector(std::uint64_t seed, std::size_t n) {
  static_assert(F::N == 4);
  constexpr unsigned top_bits = static_cast<unsigned>(F::modulus_bits) - 192;
  std::vector<F> out(n);
  constexpr std::size_t block = std::size_t{1} << 16;
  oneapi::tbb::parallel_for(std::size_t{0}, (n + block - 1) / block, [&](std::size_t b) {
    std::mt19937_64 rng(seed ^ (0x9e3779b97f4a7c15ull * (b + 1)));
    for (std::size_t i = b * block; i < std::min(n, (b + 1) * block); ++i) {
      for (;;) {
        typename F::Int raw;
        for (auto& limb : raw.limb) limb = rng();
        raw.limb[3] &= (std::uint64_t{1} << top_bits) - 1;
        if (F::is_canonical(raw)) {
          out[i] = F::from_montgomery(raw);
          break;
        }
      }
    }
  });
  return out;
}

/// n uniform elements of BLS12-381's Fr from `seed`.
inline std::vector<Fr> random_fr_vector(std::uint64_t seed, std::size_t n) {
  return random_field_vector<Fr>(seed, n);
}

}  // namespace proofline::cpu
