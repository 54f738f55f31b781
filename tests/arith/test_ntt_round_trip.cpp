// CPU NTT at every size 2^1 .. 2^20 in both conventions: forward then inverse is the identity for the order
// pairs that chain (the inverse reads the forward's output order), plain and coset, and sampled outputs of
// the forward transform equal a direct evaluation of the polynomial at that domain point.
#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include <proofline/arith/domain.hpp>
#include <proofline/arith/fr.hpp>
#include <proofline/cpu/ntt.hpp>

#include "arith/gmp_oracle.hpp"
#include "arith/ntt_test_support.hpp"
#include "support/seed.hpp"

using namespace proofline;
using namespace proofline::test;
using namespace proofline::test_support;

namespace {

/// (forward order, inverse order) with the inverse taking the forward's output order: 8 pairs.
std::vector<std::pair<NttOrder, NttOrder>> chained_order_pairs() {
  std::vector<std::pair<NttOrder, NttOrder>> pairs;
  for (const NttOrder forward : kAllOrders) {
    for (const NttOrder inverse : kAllOrders) {
      if (input_reversed(inverse) == output_reversed(forward)) pairs.emplace_back(forward, inverse);
    }
  }
  return pairs;
}

/// Σ_j coeffs[j]·x^j by Horner.
Fr evaluate(const std::vector<Fr>& coeffs, const Fr& x) {
  Fr acc = Fr::zero();
  for (std::size_t j = coeffs.size(); j-- > 0;) acc = acc * x + coeffs[j];
  return acc;
}

}  // namespace

TEST_CASE("arith/ntt/round trips at every size up to 2^20 in both conventions and all order pairs") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  const auto pairs = chained_order_pairs();
  REQUIRE(pairs.size() == 8);
  for (unsigned k = 1; k <= 20; ++k) {
    for (const HConvention convention : kAllConventions) {
      const Domain domain = Domain::make(k, convention);
      const std::size_t n = domain.size();
      // Up to 2^12 all 16 (pair, coset) cases; 2^13..2^16 two per size and convention, above that one,
      // rotating so every case also runs at large sizes (the test stays at a few seconds on 2 cores).
      std::vector<std::pair<std::size_t, bool>> cases;
      const std::size_t rotation = 2 * k + (convention == HConvention::snarkjs ? 1 : 0);
      if (k <= 12) {
        for (std::size_t p = 0; p < pairs.size(); ++p) {
          cases.emplace_back(p, false);
          cases.emplace_back(p, true);
        }
      } else if (k <= 16) {
        cases.emplace_back(rotation % pairs.size(), false);
        cases.emplace_back((rotation + 3) % pairs.size(), true);
      } else {
        cases.emplace_back((rotation + k / 2) % pairs.size(), k % 2 == 1);
      }
      for (const auto& [p, coset] : cases) {
        const auto [forward_order, inverse_order] = pairs[p];
        CAPTURE(k);
        CAPTURE(convention_name(convention));
        CAPTURE(order_name(forward_order));
        CAPTURE(order_name(inverse_order));
        CAPTURE(coset);
        const std::vector<Fr> coeffs = random_scalars(rng, n);
        std::vector<Fr> values = coeffs;
        cpu::ntt(values, domain, NttDirection::forward, forward_order, coset);

        // Spot checks against Horner: position i holds the evaluation at index bitrev(i) or i.
        const auto natural_coeffs = input_reversed(forward_order) ? bit_reversed_copy(coeffs) : coeffs;
        for (int sample = 0; sample < (k >= 16 ? 1 : 4); ++sample) {
          const std::size_t position = rng() % n;
          const std::size_t index = output_reversed(forward_order) ? reverse_index(position, k) : position;
          const Fr x =
              (coset ? domain.shift() : Fr::one()) * domain.omega().pow(static_cast<std::uint64_t>(index));
          CAPTURE(position);
          CHECK(values[position] == evaluate(natural_coeffs, x));
        }

        cpu::ntt(values, domain, NttDirection::inverse, inverse_order, coset);
        const auto want = output_reversed(inverse_order) == input_reversed(forward_order)
                              ? coeffs
                              : bit_reversed_copy(coeffs);
        CHECK(first_mismatch(values, want) == -1);
      }
    }
  }
}

TEST_CASE("arith/ntt/sizes above 2^20 round trip and evaluate correctly in both conventions") {
  // The transforms accept every size up to 2^28 (domain constants: test_ntt.cpp); 2^21 and 2^22 add passes
  // over memory above the round-trip test's sizes at a cost CI can pay (a 2^28 vector alone is 8 GiB).
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  struct Case {
    unsigned k;
    HConvention convention;
    NttOrder forward_order, inverse_order;
    bool coset;
  };
  const Case cases[] = {{21, HConvention::generator7, NttOrder::NR, NttOrder::RN, true},
                        {21, HConvention::snarkjs, NttOrder::NN, NttOrder::NN, false},
                        {22, HConvention::snarkjs, NttOrder::NR, NttOrder::RN, true}};
  for (const Case& c : cases) {
    CAPTURE(c.k);
    CAPTURE(convention_name(c.convention));
    CAPTURE(c.coset);
    const Domain domain = Domain::make(c.k, c.convention);
    const std::size_t n = domain.size();
    const std::vector<Fr> coeffs = random_scalars(rng, n);
    std::vector<Fr> values = coeffs;
    cpu::ntt(values, domain, NttDirection::forward, c.forward_order, c.coset);
    // One sampled evaluation: position n − 1 reads the last twiddle of every level in NR order.
    const std::size_t position = n - 1;
    const std::size_t index = output_reversed(c.forward_order) ? reverse_index(position, c.k) : position;
    const Fr x =
        (c.coset ? domain.shift() : Fr::one()) * domain.omega().pow(static_cast<std::uint64_t>(index));
    CHECK(values[position] == evaluate(coeffs, x));
    cpu::ntt(values, domain, NttDirection::inverse, c.inverse_order, c.coset);
    CHECK(first_mismatch(values, coeffs) == -1);
  }
}
