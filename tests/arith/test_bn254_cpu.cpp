// The CPU NTT and MSM on BN254 (the same templates BLS12-381 uses): every transform against a naive DFT in
// snarkjs's bn128 convention, the H polynomial against its definition, and the MSM against double-and-add on
// corner-case scalars, in G1 and G2.
#include <doctest/doctest.h>

#include <random>
#include <vector>

#include <proofline/arith/curves.hpp>
#include <proofline/arith/random.hpp>
#include <proofline/cpu/h_poly.hpp>
#include <proofline/cpu/msm.hpp>
#include <proofline/cpu/ntt.hpp>
#include <proofline/util/error.hpp>

#include "support/msm_reference.hpp"

using namespace proofline;

namespace {

using BnFr = bn254::Fr;

std::vector<BnFr> random_values(std::mt19937_64& rng, std::size_t n) {
  std::vector<BnFr> out(n);
  for (BnFr& v : out) v = random_field<BnFr>(rng);
  return out;
}

/// out[i] = Σ_j in[j]·x_i^j at the points x_i = shift·ω^i.
std::vector<BnFr> naive_evaluate(const std::vector<BnFr>& coefficients, const BnFr& omega,
                                 const BnFr& shift) {
  std::vector<BnFr> out(coefficients.size());
  BnFr x = shift;
  for (BnFr& value : out) {
    BnFr power = BnFr::one();
    value = BnFr::zero();
    for (const BnFr& c : coefficients) {
      value += c * power;
      power *= x;
    }
    x *= omega;
  }
  return out;
}

}  // namespace

TEST_CASE("arith/bn254/the domain's roots have the exact orders and snarkjs's coset") {
  const BnFr root = two_adic_root<BnFr>(HConvention::snarkjs);
  BnFr power = root;
  for (unsigned i = 0; i < bn254::fr_two_adicity - 1; ++i) power = power.squared();
  CHECK(power == -BnFr::one());  // order exactly 2^28
  BigInt<4> t = BnFr::modulus;   // (r − 1) / 2^28 = r >> 28, r being odd and r − 1 divisible by 2^28
  for (int i = 0; i < 28; ++i) t.shift_right_1();
  CHECK(root == BnFr::from_u64(bn254::fr_multiplicative_generator).pow(t));
  for (unsigned k : {1u, 5u, 12u}) {
    const auto domain = bn254::Domain::make(k, HConvention::snarkjs);
    CHECK(domain.omega().pow(domain.size()) == BnFr::one());
    CHECK(domain.omega().pow(domain.size() / 2) == -BnFr::one());
    CHECK(domain.shift().squared() == domain.omega());  // snarkjs's odd coset: g = ω_2n
    CHECK(domain.shift().pow(domain.size()) == -BnFr::one());
    CHECK(domain.size_inv() * BnFr::from_u64(domain.size()) == BnFr::one());
  }
  CHECK_THROWS_AS(bn254::Domain::make(4, HConvention::generator7), Error);
}

TEST_CASE("arith/bn254/every NTT order and direction matches the naive DFT") {
  std::mt19937_64 rng(2541);
  for (unsigned k : {1u, 2u, 5u, 9u, 11u}) {
    CAPTURE(k);
    const auto domain = bn254::Domain::make(k, HConvention::snarkjs);
    const std::vector<BnFr> input = random_values(rng, domain.size());
    const std::vector<BnFr> plain = naive_evaluate(input, domain.omega(), BnFr::one());
    const std::vector<BnFr> coset = naive_evaluate(input, domain.omega(), domain.shift());

    std::vector<BnFr> values = input;
    cpu::forward_ntt(values, domain);
    CHECK(values == plain);
    cpu::inverse_ntt(values, domain);
    CHECK(values == input);
    cpu::coset_forward_ntt(values, domain);
    CHECK(values == coset);
    cpu::coset_inverse_ntt(values, domain);
    CHECK(values == input);

    values = input;
    cpu::forward_ntt(values, domain, NttOrder::NR);
    cpu::bit_reverse_permutation(values);
    CHECK(values == plain);
  }
}

TEST_CASE("arith/bn254/H on the odd coset is A·B − C there (snarkjs's convention)") {
  std::mt19937_64 rng(2542);
  const auto domain = bn254::Domain::make(6, HConvention::snarkjs);
  std::vector<BnFr> a = random_values(rng, domain.size()), b = random_values(rng, domain.size());
  std::vector<BnFr> c(domain.size());
  for (std::size_t i = 0; i < c.size(); ++i) c[i] = a[i] * b[i];
  c[3] += BnFr::one();  // not a satisfying assignment: H must still be A·B − C on the coset
  // The reference: interpolate each on the domain, evaluate on the coset.
  const auto on_coset = [&](std::vector<BnFr> evaluations) {
    cpu::inverse_ntt(evaluations, domain);
    return naive_evaluate(evaluations, domain.omega(), domain.shift());
  };
  const std::vector<BnFr> ea = on_coset(a), eb = on_coset(b), ec = on_coset(c);
  cpu::compute_h(a, b, c, domain);
  for (std::size_t i = 0; i < a.size(); ++i) CHECK(a[i] == ea[i] * eb[i] - ec[i]);
}

TEST_CASE("arith/bn254/the MSM equals double-and-add in G1 and G2 on corner-case scalars") {
  std::mt19937_64 rng(2543);
  for (std::size_t n : {1u, 7u, 300u}) {
    CAPTURE(n);
    const auto scalars = test_support::edge_scalars<BnFr>(rng, n);
    auto g1 = test_support::random_points<bn254::G1Params>(rng, n);
    auto g2 = test_support::random_points<bn254::G2Params>(rng, n);
    g1[0] = bn254::G1Affine::infinity();
    g2[n - 1] = bn254::G2Affine::infinity();
    CHECK(cpu::msm(g1, scalars) == test_support::naive_msm<bn254::G1Params>(g1, scalars));
    CHECK(cpu::msm(g2, scalars) == test_support::naive_msm<bn254::G2Params>(g2, scalars));
    cpu::MsmOptions plain;
    plain.split_zero_one = false;
    plain.window_bits = 5;
    CHECK(cpu::msm(g1, scalars, plain) == test_support::naive_msm<bn254::G1Params>(g1, scalars));
    cpu::MsmOptions portable;
    portable.host_carry_instructions = false;
    CHECK(cpu::msm(g1, scalars, portable) == test_support::naive_msm<bn254::G1Params>(g1, scalars));
    CHECK(cpu::msm(g2, scalars, portable) == test_support::naive_msm<bn254::G2Params>(g2, scalars));
  }
}
