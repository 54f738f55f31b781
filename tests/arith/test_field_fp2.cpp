// Fp2 = Fp[u] / (u^2 + 1) against a GMP pair model written from the definition (u^2 = -1), on edge and
// random elements. The square test uses Euler's criterion on the norm, independent of the algorithm tested.
#include <doctest/doctest.h>

#include <vector>

#include <proofline/arith/fp.hpp>
#include <proofline/arith/fp2.hpp>

#include "arith/gmp_oracle.hpp"
#include "support/seed.hpp"

using namespace proofline;
using namespace proofline::test;
using namespace proofline::test_support;

namespace {

using O = Fp2Oracle;

constexpr int kRandomInputs = 2000;

MpzFp2 random_value(Rng& rng) {
  return {FpOracle::random_value(rng), FpOracle::random_value(rng)};
}

/// Pairs of a few Fp edges (0, 1, p-1, (p-1)/2, R, 2^64-1, and Montgomery-limb edges).
std::vector<MpzFp2> edge_values() {
  const mpz_class& p = FpOracle::p();
  const std::vector<mpz_class> parts = {0,
                                        1,
                                        2,
                                        p - 1,
                                        (p - 1) / 2,
                                        (p + 1) / 2,
                                        FpOracle::r(),
                                        pow2(64) - 1,
                                        mod((p - 1) * FpOracle::r_inv(), p),
                                        pow2(380)};
  std::vector<MpzFp2> out;
  for (const auto& c0 : parts) {
    for (const auto& c1 : parts) out.push_back({c0, c1});
  }
  return out;
}

std::vector<MpzFp2> edges_and_random(Rng& rng, int random_count) {
  std::vector<MpzFp2> values = edge_values();
  for (int i = 0; i < random_count; ++i) values.push_back(random_value(rng));
  return values;
}

}  // namespace

TEST_CASE("arith/fp2/add sub neg and double match the gmp pair model") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  const auto values = edges_and_random(rng, kRandomInputs);
  for (std::size_t i = 0; i < values.size(); ++i) {
    const MpzFp2& va = values[i];
    const MpzFp2& vb = values[(i * 7 + 3) % values.size()];
    const Fp2 a = O::element(va), b = O::element(vb);
    CAPTURE(a);
    CAPTURE(b);
    CHECK(a + b == O::element(O::add(va, vb)));
    CHECK(a - b == O::element(O::sub(va, vb)));
    CHECK(-a == O::element(O::neg(va)));
    CHECK(a.doubled() == O::element(O::add(va, va)));
    Fp2 sum = a;
    sum += b;
    CHECK(sum == a + b);
    Fp2 difference = a;
    difference -= b;
    CHECK(difference == a - b);
    CHECK(a.is_zero() == (va.c0 == 0 && va.c1 == 0));
  }
}

TEST_CASE("arith/fp2/mul and square match the gmp pair model") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  const auto edges = edge_values();
  auto check_pair = [](const MpzFp2& va, const MpzFp2& vb) {
    const Fp2 a = O::element(va), b = O::element(vb);
    CAPTURE(a);
    CAPTURE(b);
    CHECK(a * b == O::element(O::mul(va, vb)));
    Fp2 product = a;
    product *= b;
    CHECK(product == O::element(O::mul(va, vb)));
    // Multiplication by a base-field element.
    CHECK(a * b.c0 == O::element(O::mul(va, {vb.c0, 0})));
  };
  for (const auto& va : edges) {
    for (const auto& vb : edges) check_pair(va, vb);
  }
  for (int i = 0; i < kRandomInputs; ++i) {
    const MpzFp2 random = random_value(rng);
    check_pair(random, edges[i % edges.size()]);
    check_pair(random, random_value(rng));
  }
  for (const auto& va : edges_and_random(rng, kRandomInputs)) {
    const Fp2 a = O::element(va);
    CAPTURE(a);
    CHECK(a.squared() == O::element(O::mul(va, va)));
    CHECK(a * Fp2::one() == a);
  }
  // u^2 = -1.
  const Fp2 u = {Fp::zero(), Fp::one()};
  CHECK(u.squared() == -Fp2::one());
}

TEST_CASE("arith/fp2/conjugate mul_by_nonresidue and norm match the gmp pair model") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  const mpz_class& p = O::p();
  const MpzFp2 nonresidue = {1, 1};
  for (const auto& va : edges_and_random(rng, kRandomInputs)) {
    const Fp2 a = O::element(va);
    CAPTURE(a);
    CHECK(a.conjugate() == O::element({va.c0, -va.c1}));
    CHECK(a.mul_by_nonresidue() == O::element(O::mul(va, nonresidue)));
    CHECK(a.norm() == FpOracle::element(O::norm(va)));
  }
  // The conjugate is the Frobenius map x -> x^p.
  for (int i = 0; i < 100; ++i) {
    const MpzFp2 va = random_value(rng);
    const Fp2 a = O::element(va);
    CAPTURE(a);
    CHECK(a.conjugate() == O::element(O::pow(va, p)));
  }
}

TEST_CASE("arith/fp2/inverse matches the gmp pair model and the inverse of zero is zero") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  CHECK(Fp2::zero().inverse() == Fp2::zero());
  for (const auto& va : edges_and_random(rng, kRandomInputs)) {
    const Fp2 a = O::element(va);
    CAPTURE(a);
    CHECK(a.inverse() == O::element(O::inverse(va)));
    if (!a.is_zero()) CHECK(a * a.inverse() == Fp2::one());
  }
}

TEST_CASE("arith/fp2/pow matches the gmp pair model") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  const mpz_class& p = O::p();
  for (int i = 0; i < 300; ++i) {
    const MpzFp2 va = random_value(rng);
    const Fp2 a = O::element(va);
    const mpz_class exponent = random_mpz_bits(rng, 1 + rng() % 384);
    CAPTURE(a);
    CAPTURE(exponent);
    CHECK(a.pow(to_bigint<6>(exponent)) == O::element(O::pow(va, exponent)));
  }
  // x^(p^2 - 1) = 1 for x != 0.
  const MpzFp2 va = random_value(rng);
  CAPTURE(O::element(va));
  CHECK(O::element(va).pow(to_bigint<12>(p * p - 1)) == Fp2::one());
  CHECK(O::element(va).pow(to_bigint<1>(0)) == Fp2::one());
}

TEST_CASE("arith/fp2/sqrt exists exactly for squares and squares back") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  const mpz_class& p = O::p();
  auto check_sqrt = [](const MpzFp2& va) {
    const Fp2 a = O::element(va);
    CAPTURE(a);
    Fp2 root = Fp2::zero();
    const bool found = a.sqrt(root);
    CHECK(found == O::is_square(va));
    if (found) {
      CAPTURE(root);
      CHECK(root.squared() == a);
      CHECK(O::equal(O::mul(O::value(root), O::value(root)), O::reduce(va)));
    }
    return found;
  };
  int squares = 0, non_squares = 0;
  for (const auto& va : edges_and_random(rng, kRandomInputs / 2)) (check_sqrt(va) ? squares : non_squares)++;
  CHECK(squares > kRandomInputs / 8);
  CHECK(non_squares > kRandomInputs / 8);

  // Squares of known roots give back y or -y.
  for (int i = 0; i < kRandomInputs / 4; ++i) {
    const MpzFp2 y = random_value(rng);
    const Fp2 a = O::element(O::mul(y, y));
    CAPTURE(a);
    Fp2 root = Fp2::zero();
    REQUIRE(a.sqrt(root));
    const MpzFp2 found = O::value(root);
    CHECK((O::equal(found, O::reduce(y)) || O::equal(found, O::neg(y))));
  }

  // Every element of Fp is a square in Fp2: a non-square c0 has the root sqrt(-c0) u (the alpha = -1
  // branch of the algorithm). Also c0 = 0 (c1 u has norm c1^2), and c1 = 0 with c0 a square.
  int fp_non_squares = 0;
  for (int i = 0; i < 200; ++i) {
    const mpz_class c = FpOracle::random_value(rng);
    if (mpz_legendre(c.get_mpz_t(), p.get_mpz_t()) == -1) ++fp_non_squares;
    CHECK(check_sqrt({c, 0}));
    CHECK(check_sqrt({0, c}));
  }
  CHECK(fp_non_squares > 50);
  CHECK(check_sqrt({p - 1, 0}));  // -1 = u^2

  // 1 + u, the non-residue of the tower, has no root (its norm 2 is a non-square mod p).
  CHECK_FALSE(check_sqrt({1, 1}));
  CHECK(check_sqrt({0, 0}));
}
