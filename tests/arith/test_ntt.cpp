// CPU NTT: the two roots of unity and the Domain constants against GMP and the published values, every
// transform and order against a GMP O(n^2) DFT, the bit-reversal permutation, edge cases, and the twiddle
// cache under concurrent growth.
#include <doctest/doctest.h>

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <tuple>
#include <utility>
#include <vector>

#include <proofline/arith/domain.hpp>
#include <proofline/arith/fr.hpp>
#include <proofline/cpu/ntt.hpp>
#include <proofline/util/error.hpp>

#include "arith/fr_known_values.hpp"
#include "arith/gmp_oracle.hpp"
#include "arith/ntt_test_support.hpp"
#include "support/seed.hpp"

using namespace proofline;
using namespace proofline::test;
using namespace proofline::test_support;

namespace {

std::vector<Fr> run(std::vector<Fr> values, const Domain& domain, NttDirection direction, NttOrder order,
                    bool coset) {
  cpu::ntt(values, domain, direction, order, coset);
  return values;
}

}  // namespace

TEST_CASE("arith/ntt/both two-adic roots equal 7^t and 5^t and have order exactly 2^32") {
  const mpz_class& r = FrOracle::p();
  const mpz_class t = (r - 1) >> 32;
  REQUIRE(mod(t, 2) == 1);
  CHECK(FrOracle::value(two_adic_root(HConvention::generator7)) == from_hex_text(kOmega7));
  CHECK(FrOracle::value(two_adic_root(HConvention::snarkjs)) == from_hex_text(kOmega5));
  CHECK(powm(7, t, r) == from_hex_text(kOmega7));
  CHECK(powm(5, t, r) == from_hex_text(kOmega5));
  for (const HConvention convention : kAllConventions) {
    CAPTURE(convention_name(convention));
    // Order exactly 2^32: ρ^(2^31) = −1 (so the order does not divide 2^31) and ρ^(2^32) = 1.
    Fr power = two_adic_root(convention);
    for (int i = 0; i < 31; ++i) power = power.squared();
    CHECK(power == -Fr::one());
    CHECK(power.squared() == Fr::one());
  }
  // The 2^32-th root is the largest: 7 and 5 are non-residues, so ρ has no square root in Fr.
  CHECK(two_adic_root(HConvention::generator7).legendre() == -1);
  CHECK(two_adic_root(HConvention::snarkjs).legendre() == -1);
}

TEST_CASE("arith/ntt/domain constants match gmp at every size and the published values") {
  const mpz_class& r = FrOracle::p();
  for (const HConvention convention : kAllConventions) {
    for (unsigned k = 1; k <= max_ntt_log_size; ++k) {
      CAPTURE(convention_name(convention));
      CAPTURE(k);
      const Domain domain = Domain::make(k, convention);
      const MpzDomain model(k, convention);
      const mpz_class n = mpz_class(1) << k;
      CHECK(domain.log_size() == k);
      CHECK(domain.size() == (std::uint64_t{1} << k));
      CHECK(domain.convention() == convention);
      CHECK(FrOracle::value(domain.omega()) == model.omega);
      CHECK(FrOracle::value(domain.omega_inv()) == invert(model.omega, r));
      CHECK(FrOracle::value(domain.size_inv()) == invert(n, r));
      CHECK(FrOracle::value(domain.shift()) == model.shift);
      CHECK(FrOracle::value(domain.shift_inv()) == invert(model.shift, r));
      CHECK(FrOracle::value(domain.vanishing_on_coset_inv()) ==
            invert(mod(powm(model.shift, n, r) - 1, r), r));
      // ω has order exactly n.
      CHECK(powm(model.omega, n >> 1, r) == r - 1);
    }
  }
  CHECK(FrOracle::value(Domain::make(20, HConvention::generator7).omega()) == from_hex_text(kOmega7Pow2_20));
  CHECK(FrOracle::value(Domain::make(24, HConvention::generator7).omega()) == from_hex_text(kOmega7Pow2_24));
  CHECK(FrOracle::value(Domain::make(27, HConvention::generator7).omega()) == from_hex_text(kOmega7Pow2_27));
  CHECK(FrOracle::value(Domain::make(28, HConvention::generator7).omega()) == from_hex_text(kOmega7Pow2_28));
  CHECK(FrOracle::value(Domain::make(5, HConvention::generator7).shift_inv()) == from_hex_text(kSevenInv));
  CHECK(FrOracle::value(Domain::make(27, HConvention::generator7).vanishing_on_coset_inv()) ==
        invert(from_hex_text(kSevenPow2_27Minus1), r));
  CHECK(FrOracle::value(two_adic_root(HConvention::generator7).inverse()) == from_hex_text(kOmega7Inv));
  // snarkjs: the shift is ω_2n, so g² = ω and Z(g·ω^i) = g^n − 1 = −2.
  for (unsigned k : {1u, 5u, 11u, 28u}) {
    const Domain domain = Domain::make(k, HConvention::snarkjs);
    CHECK(domain.shift().squared() == domain.omega());
    CHECK(domain.vanishing_on_coset_inv() == -Fr::from_u64(2).inverse());
  }
}

TEST_CASE("arith/ntt/bad sizes and conventions are rejected") {
  CHECK_THROWS_AS(Domain::make(0, HConvention::generator7), Error);
  CHECK_THROWS_AS(Domain::make(29, HConvention::snarkjs), Error);
  CHECK_THROWS_AS(Domain::make(4, static_cast<HConvention>(7)), Error);
  const Domain domain = Domain::make(4, HConvention::generator7);
  std::vector<Fr> values(8);
  CHECK_THROWS_AS(cpu::forward_ntt(values, domain), Error);
  CHECK_THROWS_AS(cpu::coset_inverse_ntt(values, domain, NttOrder::NR), Error);
  std::vector<Fr> sixteen(16, Fr::one());
  CHECK_THROWS_AS(cpu::ntt(sixteen, domain, NttDirection::forward, static_cast<NttOrder>(9), true), Error);
  CHECK_THROWS_AS(cpu::ntt(sixteen, domain, static_cast<NttDirection>(5), NttOrder::NN, false), Error);
  CHECK(sixteen == std::vector<Fr>(16, Fr::one()));  // rejected before touching the data
  std::vector<Fr> odd(12);
  CHECK_THROWS_AS(cpu::bit_reverse_permutation(odd), Error);
  std::vector<Fr> empty;
  CHECK_THROWS_AS(cpu::bit_reverse_permutation(empty), Error);
}

TEST_CASE("arith/ntt/every transform and order matches a gmp O(n^2) DFT up to 2^8") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  for (const HConvention convention : kAllConventions) {
    for (unsigned k = 1; k <= 8; ++k) {
      const Domain domain = Domain::make(k, convention);
      const MpzDomain model(k, convention);
      for (const bool coset : {false, true}) {
        const std::vector<Fr> coeffs = random_scalars(rng, domain.size());
        const std::vector<Fr> evals = to_elements(model.evaluate(to_values(coeffs), coset));
        for (const NttOrder order : kAllOrders) {
          CAPTURE(convention_name(convention));
          CAPTURE(k);
          CAPTURE(coset);
          CAPTURE(order_name(order));
          const auto in_f = input_reversed(order) ? bit_reversed_copy(coeffs) : coeffs;
          const auto want_f = output_reversed(order) ? bit_reversed_copy(evals) : evals;
          CHECK(first_mismatch(run(in_f, domain, NttDirection::forward, order, coset), want_f) == -1);
          const auto in_i = input_reversed(order) ? bit_reversed_copy(evals) : evals;
          const auto want_i = output_reversed(order) ? bit_reversed_copy(coeffs) : coeffs;
          CHECK(first_mismatch(run(in_i, domain, NttDirection::inverse, order, coset), want_i) == -1);
        }
      }
    }
  }
}

TEST_CASE("arith/ntt/named entry points equal the general one") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  const Domain domain = Domain::make(11, HConvention::generator7);
  const std::vector<Fr> input = random_scalars(rng, domain.size());
  for (const NttOrder order : kAllOrders) {
    CAPTURE(order_name(order));
    auto values = input;
    cpu::forward_ntt(values, domain, order);
    CHECK(values == run(input, domain, NttDirection::forward, order, false));
    values = input;
    cpu::inverse_ntt(values, domain, order);
    CHECK(values == run(input, domain, NttDirection::inverse, order, false));
    values = input;
    cpu::coset_forward_ntt(values, domain, order);
    CHECK(values == run(input, domain, NttDirection::forward, order, true));
    values = input;
    cpu::coset_inverse_ntt(values, domain, order);
    CHECK(values == run(input, domain, NttDirection::inverse, order, true));
  }
}

TEST_CASE("arith/ntt/bit reverse permutation matches the index definition") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  for (unsigned k = 0; k <= 16; ++k) {
    CAPTURE(k);
    const std::vector<Fr> input = random_scalars(rng, std::size_t{1} << k);
    auto values = input;
    cpu::bit_reverse_permutation(values);
    CHECK(first_mismatch(values, bit_reversed_copy(input)) == -1);
    cpu::bit_reverse_permutation(values);
    CHECK(first_mismatch(values, input) == -1);
  }
}

TEST_CASE("arith/ntt/edge cases all zeros single nonzero and n = 2") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  for (const HConvention convention : kAllConventions) {
    CAPTURE(convention_name(convention));
    for (unsigned k : {1u, 2u, 9u, 14u}) {
      CAPTURE(k);
      const Domain domain = Domain::make(k, convention);
      const std::size_t n = domain.size();
      for (const NttOrder order : kAllOrders) {
        for (const bool coset : {false, true}) {
          for (const NttDirection direction : {NttDirection::forward, NttDirection::inverse}) {
            const std::vector<Fr> zeros(n, Fr::zero());
            CHECK(run(zeros, domain, direction, order, coset) == zeros);
          }
        }
      }
      // A constant polynomial evaluates to itself everywhere; one point's worth of evaluations interpolates
      // to the Lagrange basis polynomial, whose coefficients are ω^(−ij)/n.
      const Fr v = random_field<Fr>(rng);
      std::vector<Fr> constant(n, Fr::zero());
      constant[0] = v;
      CHECK(run(constant, domain, NttDirection::forward, NttOrder::NN, false) == std::vector<Fr>(n, v));
      CHECK(run(constant, domain, NttDirection::forward, NttOrder::NN, true) == std::vector<Fr>(n, v));
      const std::size_t j = rng() % n;
      std::vector<Fr> delta(n, Fr::zero());
      delta[j] = v;
      const auto monomial = run(delta, domain, NttDirection::forward, NttOrder::NN, false);
      const auto lagrange = run(delta, domain, NttDirection::inverse, NttOrder::NN, false);
      Fr x = Fr::one(), x_inv = Fr::one();
      const Fr step = domain.omega().pow(static_cast<std::uint64_t>(j));
      const Fr step_inv = domain.omega_inv().pow(static_cast<std::uint64_t>(j));
      bool monomial_ok = true, lagrange_ok = true;
      for (std::size_t i = 0; i < n; ++i) {
        monomial_ok = monomial_ok && monomial[i] == v * x;
        lagrange_ok = lagrange_ok && lagrange[i] == v * x_inv * domain.size_inv();
        x *= step;
        x_inv *= step_inv;
      }
      CHECK(monomial_ok);
      CHECK(lagrange_ok);
    }
    // n = 2: ω = −1, so the transform is (a, b) -> (a + b, a − b); on the coset (a + gb, a − gb).
    const Domain two = Domain::make(1, convention);
    CHECK(two.omega() == -Fr::one());
    const Fr a = random_field<Fr>(rng), b = random_field<Fr>(rng);
    CHECK(run({a, b}, two, NttDirection::forward, NttOrder::NN, false) == std::vector<Fr>{a + b, a - b});
    const Fr g = two.shift();
    CHECK(run({a, b}, two, NttDirection::forward, NttOrder::NN, true) ==
          std::vector<Fr>{a + g * b, a - g * b});
    CHECK(run({a + b, a - b}, two, NttDirection::inverse, NttOrder::RR, false) == std::vector<Fr>{a, b});
  }
}

TEST_CASE("arith/ntt/transforms racing to grow the twiddle cache agree with sequential ones") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  struct Job {
    unsigned k;
    HConvention convention;
    NttOrder order;
    bool inverse;
    std::vector<Fr> input, output;
  };
  std::vector<Job> jobs;
  for (unsigned k : {3u, 9u, 11u, 12u, 13u, 14u}) {
    for (const HConvention convention : kAllConventions) {
      for (int copy = 0; copy < 2; ++copy) {
        jobs.push_back(
            {k, convention, kAllOrders[rng() % 4], copy == 1, random_scalars(rng, std::size_t{1} << k), {}});
      }
    }
  }
  std::shuffle(jobs.begin(), jobs.end(), rng);
  cpu::release_ntt_twiddles();
  tbb::parallel_for(std::size_t{0}, jobs.size(), [&](std::size_t i) {
    Job& job = jobs[i];
    job.output = run(job.input, Domain::make(job.k, job.convention),
                     job.inverse ? NttDirection::inverse : NttDirection::forward, job.order, false);
  });
  cpu::release_ntt_twiddles();
  for (const Job& job : jobs) {
    CAPTURE(job.k);
    CAPTURE(convention_name(job.convention));
    const auto want = run(job.input, Domain::make(job.k, job.convention),
                          job.inverse ? NttDirection::inverse : NttDirection::forward, job.order, false);
    CHECK(first_mismatch(job.output, want) == -1);
  }
}
