// The CPU MSM's bucket sets (cpu/detail/msm_buckets.hpp) on their own: AffineBuckets, with its points waiting
// for the next batch, its XYZZ twins and its segmented batch reduction, against XyzzBuckets (one mixed
// addition per point, running sums) fed the same additions, in G1 and G2 of both curves. The cases aim at the
// paths the whole-MSM tests reach rarely: digits piled on a few buckets (the waiting list overflows into the
// twins), sums made of a few small multiples of one point (the segments' running and weighted sums meet P + P
// and P + (−P) all the time), empty and cancelled buckets, bucket counts that are not powers of two. Rerun
// with PROOFLINE_CPU_IFMA=0 (the " (no IFMA)" ctest entries) for the scalar batches.
#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include <proofline/arith/bn254/g1.hpp>
#include <proofline/arith/bn254/g2.hpp>
#include <proofline/arith/g1.hpp>
#include <proofline/arith/g2.hpp>
#include <proofline/cpu/detail/msm_buckets.hpp>

#include "support/seed.hpp"

using namespace proofline;

namespace {

/// One addition: bucket, point index, negate.
struct Addition {
  std::uint32_t bucket;
  std::uint32_t point;
  bool negate;
};

/// k·G for k = 1 .. count (the small multiples make sums coincide) or, when `random_multiples`, random k.
template <class Curve>
std::vector<AffinePoint<Curve>> multiples(std::size_t count, bool random_multiples, std::mt19937_64& rng) {
  std::vector<AffinePoint<Curve>> points;
  const AffinePoint<Curve> g = AffinePoint<Curve>::generator();
  for (std::size_t k = 1; k <= count; ++k) {
    const std::uint64_t factor = random_multiples ? (rng() | 1) : k;
    points.push_back(g.mul(BigInt<1>::from_u64(factor)).to_affine());
  }
  return points;
}

template <class Curve>
void check_same_sum(const std::vector<AffinePoint<Curve>>& points, const std::vector<Addition>& additions,
                    std::size_t used, std::size_t batch) {
  cpu::detail::AffineBuckets<Curve> affine;
  cpu::detail::XyzzBuckets<Curve> reference;
  // Twice on the same sets: a reset must forget everything, the twins and waiting points included.
  for (int round = 0; round < 2; ++round) {
    affine.reset(used, batch);
    reference.reset(used);
    for (const Addition& a : additions) {
      affine.add(a.bucket, points[a.point], a.negate);
      reference.add(a.bucket, points[a.point], a.negate);
    }
    CAPTURE(round);
    CHECK(affine.reduce(used) == reference.reduce(used).to_jacobian());
  }
}

template <class Curve>
void check_bucket_sets() {
  const std::uint64_t seed = test_support::test_seed();
  CAPTURE(seed);
  std::mt19937_64 rng(seed);
  const auto spread = [&](std::size_t count, std::size_t used, std::size_t point_count) {
    std::vector<Addition> out;
    for (std::size_t i = 0; i < count; ++i)
      out.push_back({static_cast<std::uint32_t>(rng() % used),
                     static_cast<std::uint32_t>(rng() % point_count), (rng() & 1) != 0});
    return out;
  };

  SUBCASE("random points spread over 4096 buckets, batches of 1024 (segmented reduction)") {
    const auto points = multiples<Curve>(64, true, rng);
    check_same_sum(points, spread(12000, 4096, points.size()), 4096, 1024);
  }
  SUBCASE("digits piled on two buckets: the waiting list overflows into the XYZZ twins") {
    const auto points = multiples<Curve>(32, true, rng);
    std::vector<Addition> additions = spread(3000, 1024, points.size());
    for (Addition& a : additions)
      if (rng() % 10 != 0) a.bucket = static_cast<std::uint32_t>(rng() % 2);
    check_same_sum(points, additions, 1024, 256);
  }
  SUBCASE("sums of ±G and ±2G: every kind of coincidence in the buckets and the segments' sums") {
    const auto points = multiples<Curve>(2, false, rng);
    for (const std::size_t used : {std::size_t{512}, std::size_t{1000}, std::size_t{300}}) {
      CAPTURE(used);
      check_same_sum(points, spread(used / 2, used, points.size()), used, 64);
      check_same_sum(points, spread(3 * used, used, points.size()), used, 64);
    }
  }
  SUBCASE("every bucket holds G: the running sums double and the weighted ones add k·G + k·G") {
    const auto points = multiples<Curve>(1, false, rng);
    std::vector<Addition> additions;
    for (std::uint32_t b = 0; b < 1024; ++b) additions.push_back({b, 0, false});
    check_same_sum(points, additions, 1024, 256);
  }
  SUBCASE("buckets that cancel to infinity, and an empty set") {
    const auto points = multiples<Curve>(16, true, rng);
    std::vector<Addition> additions = spread(2000, 512, points.size());
    const std::size_t size = additions.size();
    for (std::size_t i = 0; i < size; ++i)
      additions.push_back({additions[i].bucket, additions[i].point, !additions[i].negate});
    check_same_sum(points, additions, 512, 128);
    check_same_sum(points, {}, 512, 128);
  }
  SUBCASE("narrow sets reduce by running sums") {
    const auto points = multiples<Curve>(8, false, rng);
    check_same_sum(points, spread(500, 64, points.size()), 64, 16);
    check_same_sum(points, spread(50, 1, points.size()), 1, 1);
  }
}

}  // namespace

TEST_CASE("arith/msm/buckets: affine sets equal XYZZ sets in BLS12-381 G1") {
  check_bucket_sets<G1Params>();
}
TEST_CASE("arith/msm/buckets: affine sets equal XYZZ sets in BLS12-381 G2") {
  check_bucket_sets<G2Params>();
}
TEST_CASE("arith/msm/buckets: affine sets equal XYZZ sets in BN254 G1") {
  check_bucket_sets<bn254::G1Params>();
}
TEST_CASE("arith/msm/buckets: affine sets equal XYZZ sets in BN254 G2") {
  check_bucket_sets<bn254::G2Params>();
}
