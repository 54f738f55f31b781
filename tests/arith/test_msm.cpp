// The CPU MSM (cpu/msm.hpp) against naive double-and-add and the discrete-log reference
// (msm_test_support.hpp, support/msm_reference.hpp) on fresh random inputs at many sizes, in every mode
// (automatic plan, no Groth16 split, forced XYZZ and batch-affine buckets, narrow windows, several chunks),
// and on the edge cases: zero scalars, all-zero scalars, 1, r − 1 and the abs-trick boundaries, points at
// infinity, repeated points (P + P inside a bucket), P and −P in one bucket, the Groth16 0/1/random mix. Then
// the recoding, the plan and the bucket sets on their own.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <proofline/arith/g1.hpp>
#include <proofline/arith/g2.hpp>
#include <proofline/arith/random.hpp>
#include <proofline/cpu/detail/msm_buckets.hpp>
#include <proofline/cpu/detail/msm_digits.hpp>
#include <proofline/cpu/msm.hpp>
#include <proofline/util/error.hpp>

#include "arith/gmp_oracle.hpp"
#include "arith/msm_test_support.hpp"
#include "support/seed.hpp"

using namespace proofline;
using namespace proofline::test;
using namespace proofline::test_support;
using cpu::MsmBuckets;
using cpu::MsmOptions;

namespace {

struct Mode {
  const char* name;
  MsmOptions options;
  bool narrow;  // W = 255 / c passes over the points: small inputs only
};

// Narrow windows and several chunks make bucket collisions, the XYZZ fallback of the batch-affine buckets and
// the chunk merge common even at small sizes.
const Mode kModes[] = {
    {"automatic", {}, false},
    {"no split", {.split_zero_one = false}, false},
    {"xyzz", {.buckets = MsmBuckets::xyzz}, false},
    {"affine", {.buckets = MsmBuckets::batch_affine}, false},
    {"xyzz c=5 k=2", {.window_bits = 5, .chunks = 2, .buckets = MsmBuckets::xyzz}, true},
    {"affine c=5 k=2", {.window_bits = 5, .chunks = 2, .buckets = MsmBuckets::batch_affine}, true},
    {"affine no split c=3 k=3",
     {.split_zero_one = false, .window_bits = 3, .chunks = 3, .buckets = MsmBuckets::batch_affine},
     true},
    {"xyzz no split c=1", {.split_zero_one = false, .window_bits = 1, .buckets = MsmBuckets::xyzz}, true},
    // The portable field arithmetic (the modes above take the mulx path where the CPU has it).
    {"portable fields", {.host_carry_instructions = false}, false},
    {"portable fields affine c=5 k=2",
     {.window_bits = 5, .chunks = 2, .buckets = MsmBuckets::batch_affine, .host_carry_instructions = false},
     true},
};
constexpr std::size_t kNarrowLimit = 300;

template <class Curve>
void check_all_modes(const std::vector<AffinePoint<Curve>>& points, const std::vector<Fr>& scalars,
                     const JacobianPoint<Curve>& expected) {
  for (const Mode& mode : kModes) {
    if (mode.narrow && points.size() > kNarrowLimit) continue;
    CAPTURE(mode.name);
    CHECK(cpu::msm(points, scalars, mode.options) == expected);
  }
}

template <class Curve>
void check_sizes_against_naive(const std::vector<std::size_t>& sizes) {
  const std::uint64_t seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  for (const std::size_t n : sizes) {
    CAPTURE(n);
    const KnownPoints<Curve> known = known_points<Curve>(n, rng);
    const std::vector<Fr> scalars = random_scalars(rng, n);
    const JacobianPoint<Curve> expected = naive_msm(known.points, scalars);
    REQUIRE(log_msm(known, scalars) == expected);  // the two references agree
    check_all_modes(known.points, scalars, expected);
  }
}

template <class Curve>
void check_zero_scalars() {
  using Jacobian = JacobianPoint<Curve>;
  const std::uint64_t seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  const std::size_t n = 60;
  const KnownPoints<Curve> known = known_points<Curve>(n, rng);
  std::vector<Fr> scalars = random_scalars(rng, n);
  for (std::size_t i = 0; i < n; i += 3) scalars[i] = Fr::zero();
  scalars.back() = Fr::zero();
  check_all_modes(known.points, scalars, log_msm(known, scalars));

  const std::vector<Fr> zeros(n, Fr::zero());
  check_all_modes(known.points, zeros, Jacobian::infinity());
  check_all_modes<Curve>({}, {}, Jacobian::infinity());
  check_all_modes<Curve>({known.points[0]}, {Fr::zero()}, Jacobian::infinity());
}

template <class Curve>
void check_special_scalars() {
  const std::uint64_t seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  const Fr half = Fr::from_canonical([] {  // (r − 1) / 2, the largest scalar the abs trick keeps
    BigInt<4> h = Fr::modulus;
    h.shift_right_1();
    return h;
  }());
  const Fr specials[] = {Fr::one(),        -Fr::one(),       Fr::from_u64(2), -Fr::from_u64(2), half,
                         half + Fr::one(), half - Fr::one(), Fr::from_u64(3), -Fr::from_u64(3)};
  // Each special scalar alone on one point, then all of them together with random ones around.
  const KnownPoints<Curve> known = known_points<Curve>(40, rng);
  for (const Fr& s : specials) {
    CAPTURE(s.canonical().limb[0]);
    check_all_modes<Curve>({known.points[5]}, {s}, known.points[5].mul(s));
  }
  std::vector<Fr> scalars = random_scalars(rng, known.points.size());
  for (std::size_t k = 0; k < std::size(specials); ++k) scalars[3 * k + 1] = specials[k];
  const auto expected = naive_msm(known.points, scalars);
  REQUIRE(log_msm(known, scalars) == expected);
  check_all_modes(known.points, scalars, expected);
  // All scalars r − 1: −Σ P.
  const std::vector<Fr> minus_ones(known.points.size(), -Fr::one());
  check_all_modes(known.points, minus_ones, log_msm(known, minus_ones));
}

template <class Curve>
void check_infinity_points() {
  using Jacobian = JacobianPoint<Curve>;
  const std::uint64_t seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  const std::size_t n = 50;
  KnownPoints<Curve> known = known_points<Curve>(n, rng);
  for (std::size_t i = 0; i < n; i += 4) known.set_infinity(i);
  known.set_infinity(n - 1);
  std::vector<Fr> scalars = random_scalars(rng, n);
  scalars[4] = Fr::one();  // a scalar 1 and a scalar r − 1 on infinity, for the split path
  scalars[8] = -Fr::one();
  check_all_modes(known.points, scalars, log_msm(known, scalars));

  const std::vector<AffinePoint<Curve>> all_infinity(n, AffinePoint<Curve>::infinity());
  check_all_modes(all_infinity, scalars, Jacobian::infinity());
}

template <class Curve>
void check_repeated_points() {
  const std::uint64_t seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  const std::size_t n = 64;
  const KnownPoints<Curve> base = known_points<Curve>(3, rng);
  // One point everywhere with one scalar: every window puts all of them in the same bucket (P + P, then the
  // doubling's result plus P, ...). Then three points repeated with random scalars.
  KnownPoints<Curve> known{std::vector(n, base.points[0]), std::vector(n, base.logs[0])};
  const std::vector<Fr> same(n, random_field<Fr>(rng));
  check_all_modes(known.points, same, log_msm(known, same));
  for (std::size_t i = 0; i < n; ++i) known.set(i, base.points[i % 3], base.logs[i % 3]);
  const std::vector<Fr> scalars = random_scalars(rng, n);
  check_all_modes(known.points, scalars, log_msm(known, scalars));
  // Pairs (P, s), (P, s): the second lands in the first's bucket in every window with a nonzero digit.
  std::vector<Fr> paired = random_scalars(rng, n);
  for (std::size_t i = 1; i < n; i += 2) paired[i] = paired[i - 1];
  check_all_modes(known.points, paired, log_msm(known, paired));
  // Scalars ±1 on repeated points: the split's pairwise sum doubles (P + P) and cancels (P − P).
  std::vector<Fr> ones(n, Fr::one());
  for (std::size_t i = 0; i < n; i += 5) ones[i] = -Fr::one();
  check_all_modes(known.points, ones, log_msm(known, ones));
  const std::vector<Fr> all_one(n, Fr::one());
  check_all_modes(std::vector(n, base.points[1]), all_one, base.points[1].mul(Fr::from_u64(n)));
}

template <class Curve>
void check_opposite_points() {
  using Jacobian = JacobianPoint<Curve>;
  const std::uint64_t seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  const std::size_t n = 40;
  const KnownPoints<Curve> base = known_points<Curve>(n / 2, rng);
  // (P, s) and (−P, s), and (P, s) and (P, r − s): each pair cancels in every bucket it reaches.
  KnownPoints<Curve> known;
  std::vector<Fr> scalars;
  for (std::size_t i = 0; i < n / 2; ++i) {
    const Fr s = random_field<Fr>(rng);
    known.points.push_back(base.points[i]);
    known.logs.push_back(base.logs[i]);
    known.points.push_back(i % 2 ? -base.points[i] : base.points[i]);
    known.logs.push_back(i % 2 ? -base.logs[i] : base.logs[i]);
    scalars.push_back(s);
    scalars.push_back(i % 2 ? s : -s);
  }
  check_all_modes(known.points, scalars, Jacobian::infinity());
  // The same pairs with scalars ±1 cancel in the split's pairwise sum.
  std::vector<Fr> ones;
  for (std::size_t i = 0; i < n / 2; ++i)
    ones.insert(ones.end(), {Fr::one(), i % 2 ? Fr::one() : -Fr::one()});
  check_all_modes(known.points, ones, Jacobian::infinity());
  // A cancelled bucket filled again: a third point after each pair.
  std::vector<AffinePoint<Curve>> points;
  std::vector<Fr> with_third;
  for (std::size_t i = 0; i < n; i += 2) {
    points.insert(points.end(), {known.points[i], known.points[i + 1], base.points[(i / 2 + 1) % (n / 2)]});
    with_third.insert(with_third.end(), {scalars[i], scalars[i + 1], scalars[i]});
  }
  check_all_modes(points, with_third, naive_msm(points, with_third));
}

/// Groth16 witnesses: 20% zeros, 45% ones, 5% r − 1, 30% random.
template <class Curve>
void check_groth16_mix(std::size_t n) {
  const std::uint64_t seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  const KnownPoints<Curve> known = known_points<Curve>(n, rng);
  std::vector<Fr> scalars(n);
  for (Fr& s : scalars) {
    const auto draw = rng() % 100;
    s = draw < 20 ? Fr::zero() : draw < 65 ? Fr::one() : draw < 70 ? -Fr::one() : random_field<Fr>(rng);
  }
  check_all_modes(known.points, scalars, log_msm(known, scalars));
}

/// Σ_w d_w·2^(low_w) as a field element, over the windows of at most c bits.
Fr recombine(const BigInt<4>& magnitude, unsigned c) {
  Fr sum = Fr::zero();
  const unsigned windows = cpu::detail::msm_windows(c);
  unsigned next_low = 0;
  for (unsigned w = 0; w < windows; ++w) {
    const cpu::detail::MsmWindow window = cpu::detail::msm_window(windows, w);
    CHECK(window.low == next_low);  // the windows tile the bits
    CHECK(window.width <= c);
    CHECK(window.width >= 255 / windows);  // even shares: widths differ by one at most
    CHECK(window.width <= 255 / windows + 1);
    next_low = window.low + window.width;
    const std::int32_t d = cpu::detail::msm_booth_digit(magnitude.limb, window.low, window.width);
    CHECK(d >= -(std::int32_t{1} << (window.width - 1)));
    CHECK(d <= (std::int32_t{1} << (window.width - 1)));
    const Fr digit = Fr::from_u64(static_cast<std::uint64_t>(d < 0 ? -d : d));
    sum += (d < 0 ? -digit : digit) * Fr::from_u64(2).pow(window.low);
  }
  CHECK(next_low == 255);
  return sum;
}

}  // namespace

TEST_CASE("arith/msm/g1 matches naive double-and-add at sizes 1 to 4096 in every mode") {
  check_sizes_against_naive<G1Params>({1, 2, 3, 17, 100, 1000, 4096});
}

TEST_CASE("arith/msm/g2 matches naive double-and-add at sizes 1 to 1000 in every mode") {
  check_sizes_against_naive<G2Params>({1, 2, 3, 17, 100, 1000});
}

TEST_CASE("arith/msm/g1 at 2^14 with the automatic plan matches the discrete-log reference") {
  const std::uint64_t seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  const std::size_t n = std::size_t{1} << 14;
  const KnownPoints<G1Params> known = known_points<G1Params>(n, rng);
  const std::vector<Fr> scalars = random_scalars(rng, n);
  const auto expected = log_msm(known, scalars);
  CHECK(cpu::msm(known.points, scalars) == expected);
  CHECK(cpu::msm(known.points, scalars, {.buckets = MsmBuckets::batch_affine}) == expected);
}

TEST_CASE("arith/msm/every window width chunk count and bucket kind gives the naive sum") {
  const std::uint64_t seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  const std::size_t n = 48;
  const KnownPoints<G1Params> known = known_points<G1Params>(n, rng);
  std::vector<Fr> scalars = random_scalars(rng, n);
  scalars[7] = Fr::zero();
  scalars[8] = -Fr::one();
  const G1Jacobian expected = naive_msm(known.points, scalars);
  for (unsigned c = 1; c <= 12; ++c) {
    for (unsigned chunks : {1u, 3u}) {
      // Wide windows: the reduction dominates, one chunk suffices. Batch affine with one or two buckets pays
      // an inversion per addition: one chunk there too.
      for (const MsmBuckets kind : {MsmBuckets::xyzz, MsmBuckets::batch_affine}) {
        if (chunks > 1 && (c > 8 || (c <= 2 && kind == MsmBuckets::batch_affine))) continue;
        CAPTURE(c);
        CAPTURE(chunks);
        CAPTURE(kind == MsmBuckets::xyzz);
        CHECK(cpu::msm(known.points, scalars, {.window_bits = c, .chunks = chunks, .buckets = kind}) ==
              expected);
      }
    }
  }
  // More chunks than points: empty chunks.
  CHECK(cpu::msm(std::span(known.points).first(3), std::span(scalars).first(3),
                 {.window_bits = 4, .chunks = 9}) ==
        naive_msm<G1Params>({known.points[0], known.points[1], known.points[2]},
                            {scalars[0], scalars[1], scalars[2]}));
}

TEST_CASE("arith/msm/g1 zero scalars all-zero scalars and empty input") {
  check_zero_scalars<G1Params>();
}
TEST_CASE("arith/msm/g2 zero scalars all-zero scalars and empty input") {
  check_zero_scalars<G2Params>();
}

TEST_CASE("arith/msm/g1 scalars 1 r-1 and the abs-trick boundaries") {
  check_special_scalars<G1Params>();
}
TEST_CASE("arith/msm/g2 scalars 1 r-1 and the abs-trick boundaries") {
  check_special_scalars<G2Params>();
}

TEST_CASE("arith/msm/g1 points at infinity anywhere") {
  check_infinity_points<G1Params>();
}
TEST_CASE("arith/msm/g2 points at infinity anywhere") {
  check_infinity_points<G2Params>();
}

TEST_CASE("arith/msm/g1 repeated points double inside a bucket") {
  check_repeated_points<G1Params>();
}
TEST_CASE("arith/msm/g2 repeated points double inside a bucket") {
  check_repeated_points<G2Params>();
}

TEST_CASE("arith/msm/g1 P and -P in one bucket cancel") {
  check_opposite_points<G1Params>();
}
TEST_CASE("arith/msm/g2 P and -P in one bucket cancel") {
  check_opposite_points<G2Params>();
}

TEST_CASE("arith/msm/g1 groth16 mix of zeros ones and random scalars") {
  check_groth16_mix<G1Params>(2000);
}
TEST_CASE("arith/msm/g2 groth16 mix of zeros ones and random scalars") {
  check_groth16_mix<G2Params>(300);
}

TEST_CASE("arith/msm/booth digits and the abs trick reconstruct the scalar at every width") {
  const std::uint64_t seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  std::vector<Fr> scalars = random_scalars(rng, 40);
  const BigInt<4> r = Fr::modulus;
  BigInt<4> half = r;
  half.shift_right_1();
  scalars.insert(scalars.end(), {Fr::zero(), Fr::one(), -Fr::one(), Fr::from_canonical(half),
                                 Fr::from_canonical(half) + Fr::one(), Fr::from_u64(2).pow(253u),
                                 Fr::from_u64(2).pow(253u) - Fr::one()});
  for (const Fr& s : scalars) {
    CAPTURE(s.canonical().limb[3]);
    BigInt<4> magnitude;
    const bool negate = cpu::detail::msm_abs_scalar(s.canonical(), magnitude);
    CHECK(magnitude.bit_length() <= 254);
    CHECK(!(half < magnitude));
    const Fr value = Fr::from_canonical(magnitude);
    CHECK((negate ? -value : value) == s);
    for (unsigned c = 1; c <= cpu::kMsmMaxWindowBits; ++c) {
      CAPTURE(c);
      CHECK(recombine(magnitude, c) == value);
    }
  }
  // Every window count leaves room for the top window's Booth bit.
  for (unsigned c = 1; c <= cpu::kMsmMaxWindowBits; ++c) {
    CHECK(cpu::detail::msm_windows(c) * c >= 255);
    CHECK((cpu::detail::msm_windows(c) - 1) * c < 255);
  }
}

TEST_CASE("arith/msm/plan widens the window with the size and keeps fixed options") {
  unsigned last = 0;
  for (unsigned log_n = 0; log_n <= 26; ++log_n) {
    for (unsigned threads : {1u, 2u, 16u}) {
      CAPTURE(log_n);
      CAPTURE(threads);
      const auto plan = cpu::detail::msm_plan(std::size_t{1} << log_n, threads, {});
      CHECK(plan.window_bits >= 1);
      CHECK(plan.window_bits <= 20);
      CHECK(plan.windows == cpu::detail::msm_windows(plan.window_bits));
      CHECK(plan.chunks >= 1);
      CHECK(plan.chunks <= std::max<std::size_t>(1, std::size_t{1} << log_n));
      CHECK((plan.batch > 0) == plan.batch_affine);
      if (threads == 1) {
        CHECK(plan.window_bits + 1 >= last);  // (nearly) monotone in n
        CHECK(plan.chunks == 1);              // one thread: chunks only add reductions
        last = plan.window_bits;
      }
    }
  }
  CHECK(cpu::detail::msm_plan(std::size_t{1} << 20, 2, {}).window_bits >= 14);
  const auto fixed =
      cpu::detail::msm_plan(1000, 4, {.window_bits = 7, .chunks = 5, .buckets = MsmBuckets::xyzz});
  CHECK(fixed.window_bits == 7);
  CHECK(fixed.windows == 37);
  CHECK(fixed.chunks == 5);
  CHECK(!fixed.batch_affine);
  const auto affine = cpu::detail::msm_plan(1000, 4, {.window_bits = 3, .buckets = MsmBuckets::batch_affine});
  CHECK(affine.batch_affine);
  CHECK(affine.batch >= 1);
}

TEST_CASE("arith/msm/bucket sets match naive bucket sums with tiny batches and few buckets") {
  const std::uint64_t seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  const KnownPoints<G1Params> base = known_points<G1Params>(6, rng);
  // With few buckets and larger batches, points for a bucket already queued (the XYZZ twins) are common.
  for (const std::size_t buckets : {1u, 3u, 8u, 40u}) {
    for (const std::size_t batch : {1u, 2u, 4u, 5u, 16u, 64u, 256u}) {
      CAPTURE(buckets);
      CAPTURE(batch);
      cpu::detail::XyzzBuckets<G1Params> xyzz;
      cpu::detail::AffineBuckets<G1Params> affine;
      xyzz.reset(buckets);
      affine.reset(buckets, batch);
      std::vector<G1Jacobian> expected(buckets, G1Jacobian::infinity());
      // Few distinct points, so repeats, opposites and emptied buckets are frequent; some infinity.
      for (int i = 0; i < 600; ++i) {
        const auto b = static_cast<std::uint32_t>(rng() % buckets);
        const bool negate = rng() % 2;
        const G1Affine point =
            rng() % 20 == 0 ? G1Affine::infinity() : base.points[rng() % base.points.size()];
        xyzz.add(b, point, negate);
        affine.add(b, point, negate);
        expected[b] = negate ? expected[b] - point : expected[b] + point;
      }
      G1Jacobian total = G1Jacobian::infinity();
      for (std::size_t b = 0; b < buckets; ++b) total += expected[b].mul(BigInt<1>::from_u64(b + 1));
      CHECK(xyzz.reduce(buckets) == total.to_xyzz());
      CHECK(affine.reduce(buckets) == total.to_xyzz());
      // Reuse after reset starts from empty buckets.
      affine.reset(buckets, batch);
      affine.add(0, base.points[0], false);
      CHECK(affine.reduce(buckets) == base.points[0].to_xyzz());
    }
  }
  // The pairwise batched sum, with repeats, opposites and infinity everywhere, at sizes around its leaf size.
  for (const std::size_t n : {0u, 1u, 2u, 16u, 17u, 18u, 33u, 100u, 257u}) {
    CAPTURE(n);
    std::vector<G1Affine> list(n);
    G1Jacobian expected = G1Jacobian::infinity();
    for (G1Affine& point : list) {
      const auto draw = rng() % 10;
      point = draw == 0 ? G1Affine::infinity() : base.points[rng() % base.points.size()];
      if (draw < 5) point = -point;
      expected += point;
    }
    CHECK(cpu::detail::batch_affine_sum(list) == expected.to_xyzz());
  }
}

TEST_CASE("arith/msm/mismatched sizes and options out of range are rejected") {
  const std::vector<G1Affine> points(3, G1Affine::generator());
  const std::vector<Fr> scalars(2, Fr::one());
  CHECK_THROWS_AS(cpu::msm(points, scalars), Error);
  const std::vector<Fr> three(3, Fr::one());
  CHECK_THROWS_AS(cpu::msm(points, three, {.window_bits = cpu::kMsmMaxWindowBits + 1}), Error);
  CHECK_THROWS_AS(cpu::msm(points, three, {.chunks = (1u << 16) + 1}), Error);
  const std::vector<G2Affine> points2(1, G2Affine::generator());
  CHECK_THROWS_AS(cpu::msm(points2, three), Error);
  CHECK_NOTHROW(cpu::detail::msm_plan(3, 1, {.window_bits = cpu::kMsmMaxWindowBits, .chunks = 1u << 16}));
  CHECK(cpu::msm(points, three) == G1Affine::generator().mul(Fr::from_u64(3)));
}
