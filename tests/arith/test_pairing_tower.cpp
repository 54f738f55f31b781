// The Fp6/Fp12 tower against the GMP model of fp12_oracle.hpp (schoolbook products in the w basis) on fresh
// random elements: products, squares, inverses, sparse line products, Frobenius maps against x^(p^k), and the
// cyclotomic squaring on elements of the cyclotomic subgroup.
#include <doctest/doctest.h>

#include <proofline/arith/fp12.hpp>
#include <proofline/arith/fp6.hpp>

#include "arith/fp12_oracle.hpp"
#include "arith/gmp_oracle.hpp"
#include "support/seed.hpp"

using namespace proofline;
using namespace proofline::test;
using namespace proofline::test_support;

namespace {

constexpr int kRounds = 40;

/// An Fp6 element as the Fp12 element with no odd powers of w.
Fp12 lift(const Fp6& x) {
  return {x, Fp6::zero()};
}

MpzFp12 oracle(const Fp12& x) {
  return Fp12Oracle::value(x);
}

void check_equal(const Fp12& got, const MpzFp12& expected) {
  CHECK(Fp12Oracle::equal(oracle(got), expected));
}

/// Random element of the cyclotomic subgroup, made by the oracle: x^((p^6 - 1)(p^2 + 1)).
Fp12 random_cyclotomic(Rng& rng) {
  const mpz_class exponent = (Fp12Oracle::p_power(6) - 1) * (Fp12Oracle::p_power(2) + 1);
  return Fp12Oracle::element(Fp12Oracle::pow(oracle(random_fp12(rng)), exponent));
}

}  // namespace

TEST_CASE("arith/fp6/products squares and sparse products match the oracle") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  for (int round = 0; round < kRounds; ++round) {
    const Fp6 a = random_fp6(rng), b = random_fp6(rng);
    const Fp2 s0 = random_fp2(rng), s1 = random_fp2(rng);
    const MpzFp12 product = Fp12Oracle::mul(oracle(lift(a)), oracle(lift(b)));
    check_equal(lift(a * b), product);
    check_equal(lift(b * a), product);
    check_equal(lift(a.squared()), Fp12Oracle::mul(oracle(lift(a)), oracle(lift(a))));
    check_equal(lift(a + b), Fp12Oracle::add(oracle(lift(a)), oracle(lift(b))));
    check_equal(lift(a - b), Fp12Oracle::sub(oracle(lift(a)), oracle(lift(b))));
    check_equal(lift(-a), Fp12Oracle::sub(Fp12Oracle::zero(), oracle(lift(a))));
    // v = w^2.
    const MpzFp12 v = Fp12Oracle::monomial({1, 0}, 2);
    check_equal(lift(a.mul_by_nonresidue()), Fp12Oracle::mul(oracle(lift(a)), v));
    const MpzFp12 sparse01 = Fp12Oracle::add(Fp12Oracle::monomial(Fp2Oracle::value(s0), 0),
                                             Fp12Oracle::monomial(Fp2Oracle::value(s1), 2));
    check_equal(lift(a.mul_by_01(s0, s1)), Fp12Oracle::mul(oracle(lift(a)), sparse01));
    check_equal(lift(a.mul_by_1(s1)),
                Fp12Oracle::mul(oracle(lift(a)), Fp12Oracle::monomial(Fp2Oracle::value(s1), 2)));
    check_equal(lift(a * s0),
                Fp12Oracle::mul(oracle(lift(a)), Fp12Oracle::monomial(Fp2Oracle::value(s0), 0)));
  }
}

TEST_CASE("arith/fp6/inverse") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  for (int round = 0; round < kRounds; ++round) {
    const Fp6 a = random_fp6(rng);
    REQUIRE(!a.is_zero());
    CHECK(a * a.inverse() == Fp6::one());
  }
  // Elements with zero coefficients exercise the adjugate's special cases.
  const Fp2 x = random_fp2(rng);
  for (const Fp6& a : {Fp6{x, Fp2::zero(), Fp2::zero()}, Fp6{Fp2::zero(), x, Fp2::zero()},
                       Fp6{Fp2::zero(), Fp2::zero(), x}, Fp6::one()}) {
    CHECK(a * a.inverse() == Fp6::one());
  }
  CHECK(Fp6::zero().inverse() == Fp6::zero());
}

TEST_CASE("arith/fp12/products squares and line products match the oracle") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  for (int round = 0; round < kRounds; ++round) {
    const Fp12 a = random_fp12(rng), b = random_fp12(rng);
    const MpzFp12 product = Fp12Oracle::mul(oracle(a), oracle(b));
    check_equal(a * b, product);
    check_equal(b * a, product);
    check_equal(a.squared(), Fp12Oracle::mul(oracle(a), oracle(a)));
    check_equal(a + b, Fp12Oracle::add(oracle(a), oracle(b)));
    check_equal(a - b, Fp12Oracle::sub(oracle(a), oracle(b)));
    check_equal(-a, Fp12Oracle::sub(Fp12Oracle::zero(), oracle(a)));
    // A line value a0 + a2 w^2 + a3 w^3.
    const Fp2 l0 = random_fp2(rng), l2 = random_fp2(rng), l3 = random_fp2(rng);
    const MpzFp12 line = Fp12Oracle::add(Fp12Oracle::add(Fp12Oracle::monomial(Fp2Oracle::value(l0), 0),
                                                         Fp12Oracle::monomial(Fp2Oracle::value(l2), 2)),
                                         Fp12Oracle::monomial(Fp2Oracle::value(l3), 3));
    check_equal(a.mul_by_line(l0, l2, l3), Fp12Oracle::mul(oracle(a), line));
  }
  // Associativity and distributivity on the implementation alone.
  const Fp12 a = random_fp12(rng), b = random_fp12(rng), c = random_fp12(rng);
  CHECK((a * b) * c == a * (b * c));
  CHECK(a * (b + c) == a * b + a * c);
  CHECK(a * Fp12::one() == a);
  CHECK(Fp12::one().is_one());
  CHECK(!a.is_one());
}

TEST_CASE("arith/fp12/inverse and conjugation") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  for (int round = 0; round < kRounds; ++round) {
    const Fp12 a = random_fp12(rng), b = random_fp12(rng);
    CHECK(a * a.inverse() == Fp12::one());
    CHECK(a.inverse().inverse() == a);
    // Conjugation is the p^6-power Frobenius and a field automorphism.
    CHECK(a.conjugate() == a.frobenius_map(6));
    CHECK((a * b).conjugate() == a.conjugate() * b.conjugate());
    CHECK(a.conjugate().conjugate() == a);
  }
  const Fp12 sparse = {Fp6::zero(), {Fp2::zero(), random_fp2(rng), Fp2::zero()}};
  CHECK(sparse * sparse.inverse() == Fp12::one());
  CHECK(Fp12::zero().inverse() == Fp12::zero());
}

TEST_CASE("arith/fp12/frobenius maps are powers of p") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  for (int round = 0; round < 4; ++round) {
    const Fp12 a = random_fp12(rng);
    const MpzFp12 a_value = oracle(a);
    // x^(p^k) from the oracle for k = 1, 2, 3 (the powers the final exponentiation uses) and 6.
    for (unsigned k : {1u, 2u, 3u, 6u}) {
      CAPTURE(k);
      check_equal(a.frobenius_map(k), Fp12Oracle::pow(a_value, Fp12Oracle::p_power(k)));
    }
    // Fp6's maps on their own.
    const Fp6 b = random_fp6(rng);
    check_equal(lift(b.frobenius_map(1)), Fp12Oracle::pow(oracle(lift(b)), Fp12Oracle::p_power(1)));
    check_equal(lift(b.frobenius_map(2)), Fp12Oracle::pow(oracle(lift(b)), Fp12Oracle::p_power(2)));
    // Every table entry: the k-th map is the first map applied k times, and the twelfth is the identity.
    Fp12 iterated = a;
    for (unsigned k = 1; k <= 12; ++k) {
      CAPTURE(k);
      iterated = iterated.frobenius_map(1);
      CHECK(iterated == a.frobenius_map(k));
    }
    CHECK(iterated == a);
    CHECK(a.frobenius_map(0) == a);
    // The map is multiplicative.
    const Fp12 c = random_fp12(rng);
    CHECK((a * c).frobenius_map(5) == a.frobenius_map(5) * c.frobenius_map(5));
  }
}

TEST_CASE("arith/fp12/cyclotomic squaring equals squaring in the cyclotomic subgroup") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  for (int round = 0; round < 4; ++round) {
    const Fp12 g = random_cyclotomic(rng);
    // Membership: g^(p^4 - p^2 + 1) = 1, and the conjugate is the inverse.
    const mpz_class phi12 = Fp12Oracle::p_power(4) - Fp12Oracle::p_power(2) + 1;
    REQUIRE(Fp12Oracle::equal(Fp12Oracle::pow(oracle(g), phi12), Fp12Oracle::one()));
    CHECK(g * g.conjugate() == Fp12::one());
    Fp12 x = g;
    for (int i = 0; i < 8; ++i) {
      CHECK(x.cyclotomic_squared() == x.squared());
      x = x.cyclotomic_squared() * g;
    }
  }
  // Off the subgroup the shortcut is wrong, so the test above has teeth.
  const Fp12 a = random_fp12(rng);
  CHECK(a.cyclotomic_squared() != a.squared());
}

TEST_CASE("arith/fp12/pow matches the oracle") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  const Fp12 a = random_fp12(rng);
  const BigInt<4> exponent = to_bigint<4>(random_mpz_bits(rng, 255));
  check_equal(a.pow(exponent), Fp12Oracle::pow(oracle(a), to_mpz(exponent)));
  CHECK(a.pow(BigInt<1>::from_u64(0)) == Fp12::one());
  CHECK(a.pow(BigInt<1>::from_u64(1)) == a);
}
