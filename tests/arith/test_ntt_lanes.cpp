// The CPU NTT on AVX-512 IFMA lanes (cpu/ntt_ifma.cpp) against the scalar NTT in the same process, bit for
// bit (cpu/detail/ntt_steps.hpp's NttLanes picks the products): both curves' Fr, both conventions, every
// direction, order and coset flag (BN254: snarkjs's convention only), the H building blocks (unscaled
// networks and the scale passes), at every size 2^1 .. 2^15 and at 2^18 (two top passes above the cache
// blocks), on fresh random inputs and on the edge values 0, 1, −1 and the largest reduced limbs p − 1. Where
// the CPU lacks IFMA (or PROOFLINE_CPU_IFMA=0) both sides are scalar and the cases only check that the choice
// is harmless.
#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <random>
#include <type_traits>
#include <vector>

#include <proofline/arith/bn254/fr.hpp>
#include <proofline/arith/domain.hpp>
#include <proofline/arith/fr.hpp>
#include <proofline/cpu/detail/ifma_batch.hpp>
#include <proofline/cpu/detail/ntt_steps.hpp>
#include <proofline/cpu/ntt.hpp>

#include "support/field_vectors.hpp"
#include "support/ntt_orders.hpp"
#include "support/seed.hpp"

using namespace proofline;
using namespace proofline::test_support;
using cpu::detail::NttLanes;

namespace {

template <class F>
using DomainOf = std::conditional_t<std::is_same_v<F, Fr>, Domain, bn254::Domain>;

/// BN254's keys use snarkjs's convention only (its Domain refuses generator7).
template <class F>
std::vector<HConvention> conventions() {
  if constexpr (std::is_same_v<F, Fr>)
    return {std::begin(kAllConventions), std::end(kAllConventions)};
  else
    return {HConvention::snarkjs};
}

std::vector<unsigned> tested_sizes() {
  std::vector<unsigned> sizes;
  for (unsigned k = 1; k <= 15; ++k) sizes.push_back(k);
  sizes.push_back(18);
  return sizes;
}

/// Random elements with the edge values sprinkled in: 0, 1, −1 and the element whose limbs are p − 1.
template <class F>
std::vector<F> inputs(std::mt19937_64& rng, std::size_t n, bool edges_only) {
  typename F::Int largest = F::modulus;
  largest.limb[0] -= 1;  // p is odd
  const F edges[] = {F::zero(), F::one(), -F::one(), F::from_montgomery(largest)};
  std::vector<F> values = random_scalars<F>(rng, n);
  for (std::size_t i = 0; i < n; ++i) {
    if (edges_only || rng() % 8 == 0) values[i] = edges[rng() % 4];
  }
  return values;
}

template <class F>
void check_transforms(std::mt19937_64& rng) {
  for (const unsigned k : tested_sizes()) {
    for (const HConvention convention : conventions<F>()) {
      const auto domain = DomainOf<F>::make(k, convention);
      CAPTURE(k);
      CAPTURE(static_cast<int>(convention));
      for (const bool edges_only : {false, true}) {
        // Every direction, order and coset flag on small sizes; a rotating quarter of them above 2^12.
        std::size_t case_index = 0;
        for (const NttDirection direction : {NttDirection::forward, NttDirection::inverse}) {
          for (const NttOrder order : kAllOrders) {
            for (const bool coset : {false, true}) {
              if (k > 12 && (case_index++ + k) % 4 != 0) continue;
              CAPTURE(static_cast<int>(direction));
              CAPTURE(static_cast<int>(order));
              CAPTURE(coset);
              CAPTURE(edges_only);
              std::vector<F> lanes = inputs<F>(rng, domain.size(), edges_only), scalar = lanes;
              cpu::detail::ntt_with<F>(lanes, domain, direction, order, coset, NttLanes::best);
              cpu::detail::ntt_with<F>(scalar, domain, direction, order, coset, NttLanes::scalar);
              CHECK(count_mismatches(lanes, scalar) == 0);
            }
          }
        }
      }
    }
  }
}

template <class F>
void check_building_blocks(std::mt19937_64& rng) {
  for (const unsigned k : tested_sizes()) {
    for (const HConvention convention : conventions<F>()) {
      const auto domain = DomainOf<F>::make(k, convention);
      CAPTURE(k);
      CAPTURE(static_cast<int>(convention));
      for (const NttDirection direction : {NttDirection::forward, NttDirection::inverse}) {
        CAPTURE(static_cast<int>(direction));
        std::vector<F> lanes = inputs<F>(rng, domain.size(), false), scalar = lanes;
        cpu::detail::ntt_nr_unscaled<F>(lanes, domain, direction, NttLanes::best);
        cpu::detail::ntt_nr_unscaled<F>(scalar, domain, direction, NttLanes::scalar);
        CHECK(count_mismatches(lanes, scalar) == 0);
        cpu::detail::ntt_rn_unscaled<F>(lanes, domain, direction, NttLanes::best);
        cpu::detail::ntt_rn_unscaled<F>(scalar, domain, direction, NttLanes::scalar);
        CHECK(count_mismatches(lanes, scalar) == 0);
      }
      for (const bool bit_reversed : {false, true}) {
        CAPTURE(bit_reversed);
        std::vector<F> lanes = inputs<F>(rng, domain.size(), false), scalar = lanes;
        const F start = random_field<F>(rng), base = random_field<F>(rng);
        cpu::detail::scale_by_powers<F>(lanes, start, base, bit_reversed, NttLanes::best);
        cpu::detail::scale_by_powers<F>(scalar, start, base, bit_reversed, NttLanes::scalar);
        CHECK(count_mismatches(lanes, scalar) == 0);
      }
    }
  }
}

template <class F>
void check_round_trips(std::mt19937_64& rng) {
  for (const unsigned k : tested_sizes()) {
    for (const HConvention convention : conventions<F>()) {
      const auto domain = DomainOf<F>::make(k, convention);
      CAPTURE(k);
      CAPTURE(static_cast<int>(convention));
      for (const bool coset : {false, true}) {
        CAPTURE(coset);
        const std::vector<F> original = inputs<F>(rng, domain.size(), false);
        std::vector<F> values = original;
        cpu::detail::ntt_with<F>(values, domain, NttDirection::forward, NttOrder::NR, coset, NttLanes::best);
        cpu::detail::ntt_with<F>(values, domain, NttDirection::inverse, NttOrder::RN, coset, NttLanes::best);
        CHECK(count_mismatches(values, original) == 0);
      }
    }
  }
}

}  // namespace

TEST_CASE("arith/ntt/lanes equal the scalar transforms bit for bit on both curves") {
  const auto seed = test_seed();
  CAPTURE(seed);
  std::mt19937_64 rng(seed);
  if (!cpu::detail::ifma_enabled()) MESSAGE("no IFMA here: both sides run the scalar NTT");
  check_transforms<Fr>(rng);
  check_transforms<bn254::Fr>(rng);
}

TEST_CASE("arith/ntt/lanes equal the scalar H building blocks bit for bit on both curves") {
  const auto seed = test_seed();
  CAPTURE(seed);
  std::mt19937_64 rng(seed);
  check_building_blocks<Fr>(rng);
  check_building_blocks<bn254::Fr>(rng);
}

TEST_CASE("arith/ntt/lanes round trip forward NR then inverse RN on both curves") {
  const auto seed = test_seed();
  CAPTURE(seed);
  std::mt19937_64 rng(seed);
  check_round_trips<Fr>(rng);
  check_round_trips<bn254::Fr>(rng);
}
