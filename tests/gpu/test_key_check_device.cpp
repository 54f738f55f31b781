// The subgroup check on the GPU (cuda::first_outside_subgroup, devices::gpu_subgroup_tester): GPU-made
// subgroup points with infinity among them pass; points outside the subgroup (a small-order component added,
// or hashed to the curve without clearing the cofactor) are found at the smallest index, across chunk
// boundaries, for BLS12-381's G1 and G2 and BN254's G2 (BN254's G1 has cofactor 1); and the key check run
// through the GPU tester names the point as the CPU check does.
#include <doctest/doctest.h>

#include <cstdint>
#include <memory>
#include <vector>

#include <proofline/cuda/gpu_key_check.hpp>
#include <proofline/devices/subgroup_tester.hpp>
#include <proofline/groth16/key_check.hpp>

#include "msm_test_support.hpp"
#include "support/seed.hpp"
#include "support/subgroup_points.hpp"

using namespace proofline;
using namespace proofline::gpu_test;
using namespace proofline::test_support;

namespace {

/// n subgroup points [k_i]·G made on the GPU, every 97th one infinity.
template <class Curve>
std::vector<AffinePoint<Curve>> subgroup_points(std::uint64_t seed, std::size_t n) {
  const KnownPoints<Curve> known(seed, n);
  std::vector<AffinePoint<Curve>> points = to_host(known.points, n);
  for (std::size_t i = 0; i < n; i += 97) points[i] = AffinePoint<Curve>::infinity();
  return points;
}

}  // namespace

TEST_CASE("gpu/key_check/points outside the subgroup are found at the smallest index") {
  const std::uint64_t seed = test_seed();
  MESSAGE("seed ", seed);
  CAPTURE(seed);
  {
    // More than one 256 MiB chunk of G1 points (2796202 a chunk).
    std::vector<G1Affine> g1 = subgroup_points<G1Params>(seed, std::size_t{3} << 20);
    CHECK(!cuda::first_outside_subgroup(g1).has_value());
    g1[3'000'000] = g1_with_order3_component(g1[3'000'000]);
    g1[3'100'000] = g1_outside_subgroup();
    CHECK(cuda::first_outside_subgroup(g1) == std::optional<std::size_t>(3'000'000));
    g1[17] = g1_outside_subgroup(40);
    CHECK(cuda::first_outside_subgroup(g1) == std::optional<std::size_t>(17));
  }
  {
    std::vector<G2Affine> g2 = subgroup_points<G2Params>(seed + 1, 5000);
    CHECK(!cuda::first_outside_subgroup(g2).has_value());
    g2[4500] = g2_outside_subgroup();
    g2[4000] = g2_with_order13_component(g2[4000]);
    CHECK(cuda::first_outside_subgroup(g2) == std::optional<std::size_t>(4000));
  }
  {
    std::vector<bn254::G2Affine> g2 = subgroup_points<bn254::G2Params>(seed + 2, 3000);
    CHECK(!cuda::first_outside_subgroup(g2).has_value());
    g2[1234] = bn254_g2_outside_subgroup();
    CHECK(cuda::first_outside_subgroup(g2) == std::optional<std::size_t>(1234));
    const std::vector<bn254::G1Affine> g1 = subgroup_points<bn254::G1Params>(seed + 3, 100);
    CHECK(!cuda::first_outside_subgroup(g1).has_value());  // cofactor 1
  }
  CHECK(!cuda::first_outside_subgroup(std::span<const G1Affine>()).has_value());
}

TEST_CASE("gpu/key_check/the GPU tester serves the key check and names the bad point") {
  const auto tester = devices::gpu_subgroup_tester();
  REQUIRE(tester != nullptr);
  CHECK(devices::gpu_subgroup_tester(1 << 20) == nullptr);  // no such device
  groth16::ProvingKey pk;
  pk.a_query = groth16::SharedArray<G1Affine>(subgroup_points<G1Params>(5, 300));
  pk.b1_query = pk.a_query;
  pk.h_query = pk.a_query;
  pk.l_query = pk.a_query;
  std::vector<G2Affine> b2 = subgroup_points<G2Params>(6, 300);
  const groth16::KeyCheckOptions options{.use_cache = false, .tester = tester};
  pk.b2_query = groth16::SharedArray<G2Affine>(std::vector<G2Affine>(b2));
  const groth16::KeyCheckReport report = groth16::check_query_subgroups(pk, Errc::bad_input, "key", options);
  CHECK(report.subgroups_checked);
  CHECK(report.on_tester);
  b2[123] = g2_outside_subgroup();
  pk.b2_query = groth16::SharedArray<G2Affine>(std::move(b2));
  try {
    groth16::check_query_subgroups(pk, Errc::bad_input, "key", options);
    FAIL("a B2 point outside G2 passed the GPU check");
  } catch (const Error& e) {
    CHECK(std::string(e.what()) == "key: the B2 query: point 123 is not in the prime-order subgroup");
  }
}
