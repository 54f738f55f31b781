// CPU fixed-base multiplication against double-and-add, for edge scalars and several window widths.
#include <doctest/doctest.h>

#include <vector>

#include <proofline/groth16/fixed_base.hpp>
#include <proofline/util/error.hpp>

#include "groth16/helpers.hpp"

using namespace proofline;
using namespace proofline::groth16;

namespace {

std::vector<Fr> edge_and_random_scalars(std::size_t random_count, std::uint64_t seed) {
  std::vector<Fr> scalars = {Fr::zero(), Fr::one(), -Fr::one(), Fr::from_u64(2), -Fr::from_u64(2)};
  // Scalars whose digits hit the window edges: 2^k, 2^k − 1, 2^(w−1) patterns.
  Fr power = Fr::one();
  for (int k = 0; k < 255; ++k) {
    if (k % 7 == 0) {
      scalars.push_back(power);
      scalars.push_back(power - Fr::one());
    }
    power = power + power;
  }
  Fr::Int all_ones;  // 0x7fff...f reduced below r is still a long run of ones in many windows
  for (auto& limb : all_ones.limb) limb = ~std::uint64_t{0};
  all_ones.limb[3] = 0x73eda753299d7d47ULL;
  scalars.push_back(Fr::from_canonical(all_ones));
  for (const auto& s : test::random_scalars(random_count, seed)) scalars.push_back(s);
  return scalars;
}

}  // namespace

TEST_CASE("groth16/fixed_base/g1 matches double-and-add for every window width") {
  const auto scalars = edge_and_random_scalars(40, 1);
  const G1Affine base = test::g1_times(Fr::from_u64(123456789));
  std::vector<G1Affine> expected(scalars.size());
  for (std::size_t i = 0; i < scalars.size(); ++i) expected[i] = base.mul(scalars[i]).to_affine();
  for (unsigned w : {0u, 2u, 3u, 5u, 8u, 11u, 16u}) {
    CAPTURE(w);
    std::vector<G1Affine> out(scalars.size());
    cpu_fixed_base_mul(base, scalars, out, w);
    CHECK(out == expected);
  }
  CHECK(expected[0].is_infinity());
}

TEST_CASE("groth16/fixed_base/g2 matches double-and-add") {
  const auto scalars = edge_and_random_scalars(12, 2);
  const G2Affine base = G2Affine::generator();
  std::vector<G2Affine> expected(scalars.size());
  for (std::size_t i = 0; i < scalars.size(); ++i) expected[i] = base.mul(scalars[i]).to_affine();
  for (unsigned w : {0u, 4u, 9u}) {
    std::vector<G2Affine> out(scalars.size());
    cpu_fixed_base_mul(base, scalars, out, w);
    CHECK(out == expected);
  }
}

TEST_CASE("groth16/fixed_base/many scalars across blocks and bad arguments") {
  const auto scalars = test::random_scalars(2500, 3);  // more than two affine-conversion blocks
  std::vector<G1Affine> out(scalars.size());
  cpu_fixed_base_mul(G1Affine::generator(), scalars, out);
  bool all_equal = true;
  for (std::size_t i = 0; i < scalars.size(); i += 97)
    all_equal = all_equal && out[i] == G1Affine::generator().mul(scalars[i]).to_affine();
  CHECK(all_equal);
  CHECK(out.back() == G1Affine::generator().mul(scalars.back()).to_affine());
  std::vector<G1Affine> short_out(3);
  CHECK_THROWS_AS(cpu_fixed_base_mul(G1Affine::generator(), scalars, short_out), Error);
  CHECK_THROWS_AS(cpu_fixed_base_mul(G1Affine::generator(), std::span(scalars).first(3), short_out, 1),
                  Error);
  CHECK_THROWS_AS(cpu_fixed_base_mul(G1Affine::generator(), std::span(scalars).first(3), short_out, 21),
                  Error);
  CHECK(fixed_base_window_bits(1) >= 2);
  CHECK(fixed_base_window_bits(std::size_t{1} << 24) == 16);
}
