// The batched subgroup check: its round sums (k rounds at once through pattern buckets) against plain
// per-round sums for random coefficients, over points in and out of the subgroup, repeated, negated and at
// infinity, for every way the groups and tasks can split; and the check itself accepting subgroup points and
// refusing one point outside (an order-3 component in G1, an order-13 one in G2, a random non-subgroup
// point; on BN254's twist, a point whose cofactor is not cleared) at any position, with the first bad point
// named.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include <proofline/arith/curve_batch.hpp>
#include <proofline/groth16/detail/batch_subgroup.hpp>

#include "support/seed.hpp"
#include "support/subgroup_points.hpp"

using namespace proofline;
using namespace proofline::test_support;
namespace g16d = proofline::groth16::detail;

namespace {

/// count subgroup points [k]G for k = 1, 2, ..., every 7th one infinity (as snarkjs writes for unused
/// variables).
template <class Affine>
std::vector<Affine> subgroup_points(std::size_t count) {
  using Jacobian = decltype(Affine::generator().to_jacobian());
  std::vector<Jacobian> jac(count);
  Jacobian acc = Jacobian::infinity();
  for (auto& p : jac) p = (acc += Affine::generator());
  for (std::size_t i = 0; i < count; i += 7) jac[i] = Jacobian::infinity();
  std::vector<Affine> out(count);
  batch_to_affine(std::span<const Jacobian>(jac), std::span<Affine>(out));
  return out;
}

/// A mix that exercises every case of the additions: subgroup points, points outside the subgroup, repeats
/// (P + P), negations (P + (−P)) and infinity.
template <class Affine>
std::vector<Affine> mixed_points(std::size_t count, std::mt19937_64& rng, const Affine& outside) {
  std::vector<Affine> base = subgroup_points<Affine>(count + 1);
  base.push_back(outside);
  std::vector<Affine> out(count);
  for (auto& p : out) {
    // Few distinct points: the outside one, or one of the first six (fewer when the base is smaller).
    const Affine& pick =
        base[rng() % 8 == 0 ? base.size() - 1 : rng() % std::min<std::size_t>(6, base.size())];
    p = rng() % 2 ? -pick : pick;
    if (rng() % 3 == 0) p = base[rng() % base.size()];
  }
  return out;
}

/// S_r = Σ_i trits[r·n + i]·P_i by one Jacobian addition per nonzero coefficient.
template <class Affine>
auto plain_round_sums(const std::vector<Affine>& points, const std::vector<std::int8_t>& trits) {
  using Jacobian = decltype(Affine::generator().to_jacobian());
  const std::size_t n = points.size(), rounds = n ? trits.size() / n : 0;
  std::vector<Jacobian> out(rounds, Jacobian::infinity());
  for (std::size_t r = 0; r < rounds; ++r)
    for (std::size_t i = 0; i < n; ++i) {
      if (trits[r * n + i] == 1) out[r] += points[i];
      if (trits[r * n + i] == -1) out[r] -= points[i];
    }
  return out;
}

template <class Affine>
void check_blocked_sums(const std::vector<Affine>& points, std::mt19937_64& rng, unsigned rounds) {
  std::vector<std::int8_t> trits(points.size() * rounds);
  for (auto& t : trits) t = static_cast<std::int8_t>(static_cast<int>(rng() % 3) - 1);
  const auto expected = plain_round_sums(points, trits);
  for (const unsigned group : {1u, 2u, 3u, 6u, 7u, 8u, 10u}) {
    for (const std::size_t task : {std::size_t{1}, std::size_t{7}, std::size_t{8192}}) {
      CAPTURE(group);
      CAPTURE(task);
      const auto got = g16d::blocked_round_sums(points, trits, group, task);
      REQUIRE(got.size() == (points.empty() ? 0 : rounds));
      for (std::size_t r = 0; r < got.size(); ++r) CHECK(got[r] == expected[r]);
    }
  }
}

}  // namespace

TEST_CASE("groth16/batch_subgroup/blocked round sums equal the plain per-round sums") {
  const std::uint64_t seed = test_support::test_seed();
  MESSAGE("seed ", seed);
  CAPTURE(seed);
  std::mt19937_64 rng(seed);
  const G1Affine out1 = g1_outside_subgroup();
  const G2Affine out2 = g2_outside_subgroup();
  // Rounds below, at and around the group sizes, and 41 (which 6, 7, 8 and 10 do not divide).
  for (const std::size_t n :
       {std::size_t{1}, std::size_t{2}, std::size_t{5}, std::size_t{37}, std::size_t{150}}) {
    CAPTURE(n);
    for (const unsigned rounds : {1u, 5u, 6u, 7u, 8u, 9u, 41u}) {
      CAPTURE(rounds);
      check_blocked_sums(mixed_points<G1Affine>(n, rng, g1_with_order3_component(out1)), rng, rounds);
      if (n <= 37) check_blocked_sums(mixed_points<G2Affine>(n, rng, out2), rng, rounds);
    }
  }
  check_blocked_sums(std::vector<G1Affine>{}, rng, 41);
}

TEST_CASE("groth16/batch_subgroup/one bucket sums repeats and negations exactly") {
  // All coefficients 1 with one round per group: every point lands in one bucket, so its levels double
  // (P + P) and cancel (P + (−P)); the result must still be the integer sum.
  const G1Affine p = g1_outside_subgroup(), q = G1Affine::generator();
  const std::vector<G1Affine> points{p, p, -p, p, q, -q, G1Affine::infinity(), p, q};
  const std::vector<std::int8_t> ones(points.size(), 1);
  const G1Jacobian expected = p.to_jacobian().dbl() + p + q;  // 3P + Q
  for (const std::size_t task : {std::size_t{1}, std::size_t{100}}) {
    const auto got = g16d::blocked_round_sums(points, ones, 1, task);
    REQUIRE(got.size() == 1);
    CHECK(got[0] == expected);
  }
  const std::vector<G1Affine> cancel{p, -p, q, -q};
  CHECK(g16d::blocked_round_sums(cancel, std::vector<std::int8_t>(4, 1), 1, 8)[0].is_infinity());
}

TEST_CASE("groth16/batch_subgroup/the batched subgroup check accepts subgroup points and names one outside") {
  const std::uint64_t seed = test_support::test_seed();
  MESSAGE("seed ", seed);
  CAPTURE(seed);
  std::mt19937_64 rng(seed);
  auto g1 = subgroup_points<G1Affine>(700);
  auto g2 = subgroup_points<G2Affine>(300);
  CHECK(g16d::batch_in_subgroup(g1));
  CHECK(g16d::batch_in_subgroup(g2));
  CHECK(g16d::batch_in_subgroup_per_round(g1));
  CHECK(!g16d::first_outside_subgroup(std::span<const G1Affine>(g1)));
  CHECK(g16d::batch_in_subgroup(std::span<const G1Affine>()));
  CHECK(g16d::batch_in_subgroup(std::vector<G1Affine>(500, G1Affine::infinity())));
  CHECK(g16d::batch_in_subgroup(std::vector<G2Affine>(500, G2Affine::infinity())));

  for (const G1Affine& bad : {g1_with_order3_component(g1[1]), g1_outside_subgroup()}) {
    REQUIRE(bad.is_on_curve());
    REQUIRE(!is_in_subgroup(bad));
    auto points = g1;
    const std::size_t at = rng() % points.size();
    points[at] = bad;
    CAPTURE(at);
    CHECK(!g16d::batch_in_subgroup(points));
    CHECK(!g16d::batch_in_subgroup_per_round(points));
    CHECK(g16d::first_outside_subgroup(std::span<const G1Affine>(points)) == at);
  }
  for (const G2Affine& bad2 : {g2_with_order13_component(g2[1]), g2_outside_subgroup()}) {
    REQUIRE(bad2.is_on_curve());
    REQUIRE(!is_in_subgroup(bad2));
    auto points2 = g2;
    const std::size_t at2 = rng() % points2.size();
    points2[at2] = bad2;
    CAPTURE(at2);
    CHECK(!g16d::batch_in_subgroup(points2));
    CHECK(g16d::first_outside_subgroup(std::span<const G2Affine>(points2)) == at2);
    // Two bad points: the lowest index is named.
    points2[at2 / 2] = bad2;
    CHECK(g16d::first_outside_subgroup(std::span<const G2Affine>(points2)) == at2 / 2);
  }
  // A bad point among infinities, and keys of sizes that pick different group widths.
  std::vector<G2Affine> mostly_empty(200, G2Affine::infinity());
  mostly_empty[rng() % 200] = g2_with_order13_component(G2Affine::generator());
  CHECK(!g16d::batch_in_subgroup(mostly_empty));
  for (const std::size_t n : {std::size_t{64}, std::size_t{1000}, std::size_t{20000}}) {
    CAPTURE(n);
    auto points = subgroup_points<G1Affine>(n);
    CHECK(g16d::batch_in_subgroup(points));
    points[rng() % n] = g1_with_order3_component(G1Affine::generator());
    CHECK(!g16d::batch_in_subgroup(points));
  }
}

TEST_CASE("groth16/batch_subgroup/one combination misses an order-3 component about one time in three") {
  // Why the check runs many rounds: with a single {-1, 0, 1} round the bad point survives exactly when its
  // coefficient is 0. 90 trials: 30 expected, below 12 or above 50 has probability under 1e-5.
  auto points = subgroup_points<G1Affine>(100);
  points[37] = g1_with_order3_component(points[38]);
  int passed = 0;
  for (int trial = 0; trial < 90; ++trial) passed += g16d::batch_in_subgroup(points, 1) ? 1 : 0;
  CHECK(passed >= 12);
  CHECK(passed <= 50);
  CHECK(!g16d::batch_in_subgroup(points));
  // Three rounds in one group of 3 (one 27-pattern draw per point): the point survives only when all three
  // of its coefficients are 0, 1 time in 27 if they are independent and uniform (1 in 9 if one were not).
  // 810 trials: 30 expected, below 9 or above 57 has probability under 4e-6.
  REQUIRE(g16d::batch_subgroup_group_rounds(points.size(), 3) == 3);
  passed = 0;
  for (int trial = 0; trial < 810; ++trial) passed += g16d::batch_in_subgroup(points, 3) ? 1 : 0;
  CHECK(passed >= 9);
  CHECK(passed <= 57);
}

TEST_CASE(
    "groth16/batch_subgroup/on BN254's G2 the batched check accepts subgroup points and names one outside") {
  const std::uint64_t seed = test_support::test_seed();
  MESSAGE("seed ", seed);
  CAPTURE(seed);
  std::mt19937_64 rng(seed);
  auto points = subgroup_points<bn254::G2Affine>(300);
  CHECK(g16d::batch_in_subgroup(points));
  CHECK(!g16d::first_outside_subgroup(std::span<const bn254::G2Affine>(points)));
  const bn254::G2Affine bad = bn254_g2_outside_subgroup();
  REQUIRE(bad.is_on_curve());
  REQUIRE(!is_in_subgroup(bad));
  for (int trial = 0; trial < 3; ++trial) {
    auto with_bad = points;
    const std::size_t at = rng() % with_bad.size();
    with_bad[at] = rng() % 2 ? bad : -bad;
    CAPTURE(at);
    CHECK(!g16d::batch_in_subgroup(with_bad));
    CHECK(g16d::first_outside_subgroup(std::span<const bn254::G2Affine>(with_bad)) == at);
  }
  // A bad point plus a subgroup point at one index: still outside.
  auto shifted = points;
  shifted[5] = (points[6].to_jacobian() + bad).to_affine();
  CHECK(!g16d::batch_in_subgroup(shifted));
  CHECK(g16d::first_outside_subgroup(std::span<const bn254::G2Affine>(shifted)) == 5);
}
