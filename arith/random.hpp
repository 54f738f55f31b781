// Uniformly random field elements for tests, benchmarks and setup (host only; any URBG of 64-bit words).
#pragma once

#include <cstdint>
#include <random>

#include <proofline/arith/mont_field.hpp>

namespace proofline {

/// Rejection sampling over [0, p): unbiased. The top limb is masked to the modulus' bit length first, so at
/// least half of the draws are accepted.
template <class Field, class Rng>
Field random_field(Rng& rng) {
  constexpr std::size_t top_bits = Field::modulus_bits - 64 * (Field::N - 1);
  constexpr std::uint64_t top_mask = top_bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << top_bits) - 1;
  std::uniform_int_distribution<std::uint64_t> words;
  for (;;) {
    typename Field::Int value;
    for (std::size_t i = 0; i < Field::N; ++i) value.limb[i] = words(rng);
    value.limb[Field::N - 1] &= top_mask;
    if (Field::is_canonical(value)) return Field::from_canonical(value);
  }
}

}  // namespace proofline
