// G1 = E(Fp)[r], E: y^2 = x^3 + 4. Known answers (the generator as arkworks and zkcrypto/bls12_381 publish
// it), every formula against the GMP affine reference, the endomorphism subgroup check against [r]P == O.
#include <doctest/doctest.h>

#include <vector>

#include <proofline/arith/g1.hpp>

#include "arith/test_curve_checks.hpp"
#include "arith/test_curve_support.hpp"
#include "support/seed.hpp"

using namespace proofline;
using namespace proofline::test;
using namespace proofline::test_support;

namespace {

RefPoint<G1Params> ref_point(const char* x, const char* y) {
  RefPoint<G1Params> out;
  out.infinity = false;
  out.x = from_hex_text(x);
  out.y = from_hex_text(y);
  return out;
}

const RefPoint<G1Params>& ref_generator() {
  static const auto point = ref_point(
      "0x17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb",
      "0x08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1");
  return point;
}

}  // namespace

TEST_CASE("arith/g1/generator and its multiples 2 and 10 match the known answers") {
  const auto two_g = ref_point(
      "0x0572cbea904d67468808c8eb50a9450c9721db309128012543902d0ac358a62ae28f75bb8f1c7c42c39a8c5529bf0f4e",
      "0x166a9d8cabc673a322fda673779d8e3822ba3ecb8670e461f73bb9021d5fd76a4c56d9d4cd16bd1bba86881979749d28");
  const auto ten_g = ref_point(
      "0x0f81da25ecf1c84b577fefbedd61077a81dc43b00304015b2b596ab67f00e41c86bb00ebd0f90d4b125eb0539891aeed",
      "0x11af629591ec86916d6ce37877b743fe209a3af61147996c1df7fd1c47b03181cd806fd31c3071b739e4deb234bd9e19");
  const G1Affine g = G1Affine::generator();
  CHECK_POINT(g, ref_generator());
  CHECK_POINT(G1Jacobian::generator(), ref_generator());
  CHECK_POINT(G1Xyzz::generator(), ref_generator());
  CHECK(ref_on_curve(ref_generator()));
  CHECK(FpOracle::value(G1Params::b) == 4);

  CHECK_POINT(G1Jacobian::generator().dbl(), two_g);
  CHECK_POINT(G1Xyzz::generator().dbl(), two_g);
  CHECK_POINT(G1Xyzz::dbl_affine(g), two_g);
  CHECK_POINT(G1Jacobian::generator() + g, two_g);
  CHECK_POINT(g.mul(BigInt<1>::from_u64(2)), two_g);
  CHECK(to_ref(G1Jacobian::generator().dbl().to_affine()) == two_g);

  CHECK_POINT(g.mul(BigInt<1>::from_u64(10)), ten_g);
  CHECK_POINT(g.mul(Fr::from_u64(10)), ten_g);
  CHECK_POINT(G1Xyzz::generator().mul(BigInt<1>::from_u64(10)), ten_g);
  G1Xyzz sum = G1Xyzz::infinity();
  for (int i = 0; i < 10; ++i) sum += g;
  CHECK_POINT(sum, ten_g);
  CHECK(to_ref(sum.to_affine()) == ten_g);
  // The reference agrees too (a check of the reference itself).
  CHECK(ref_mul(ref_generator(), 10) == ten_g);
  CHECK(ref_add(ref_generator(), ref_generator()) == two_g);
}

TEST_CASE("arith/g1/add mixed add and double match the gmp affine reference in every coordinate system") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  check_against_reference<G1Params>(rng, 24);
}

TEST_CASE("arith/g1/group laws and equality hold across coordinate systems") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  check_group_laws<G1Params>(rng, 16);
}

TEST_CASE("arith/g1/infinity in every operation") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  check_infinity<G1Params>(rng);
}

TEST_CASE("arith/g1/scalar multiplication matches repeated addition and the reference") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  check_scalar_mul<G1Params>(rng);
}

TEST_CASE("arith/g1/bls parameter cofactor and endomorphism constant follow from their definitions") {
  const mpz_class& p = FpOracle::p();
  const mpz_class& r = FrOracle::p();
  const mpz_class z = bls_z();
  CHECK(r == z * z * z * z - z * z + 1);
  CHECK(p == (z - 1) * (z - 1) * (z * z * z * z - z * z + 1) / 3 + z);
  CHECK(to_mpz(bls_z_squared) == z * z);
  CHECK(to_mpz(bls_z_abs_int) == -z);

  // h1 = (z - 1)^2 / 3 and #E(Fp) = p + 1 - t with trace t = z + 1.
  const mpz_class h1 = to_mpz(g1_cofactor);
  CHECK(h1 == (z - 1) * (z - 1) / 3);
  CHECK(h1 * r == p + 1 - (z + 1));

  // beta = 2^((p - 1) / 3): a primitive cube root of unity.
  const mpz_class beta = FpOracle::value(g1_beta);
  CHECK(beta == powm(2, (p - 1) / 3, p));
  CHECK(beta != 1);
  CHECK(powm(beta, 3, p) == 1);

  // phi acts on G1 as [-z^2]; with the other cube root it would be [z^2 - 1] (= [lambda^2]), so the check
  // in is_in_subgroup depends on this choice.
  const G1Affine g = G1Affine::generator();
  const mpz_class lambda = mod(-z * z, r);
  CHECK(mod(lambda * lambda + lambda + 1, r) == 0);
  CHECK_POINT(g1_endomorphism(g), ref_mul(ref_generator(), lambda));
  CHECK(g1_endomorphism(g) == -g.mul(bls_z_squared));
  const G1Affine other_root{g.x * g1_beta * g1_beta, g.y};
  CHECK(other_root != -g.mul(bls_z_squared));
  CHECK_POINT(other_root, ref_mul(ref_generator(), mod(lambda * lambda, r)));
  // The Jacobian form of phi agrees.
  Rng rng(test_seed());
  CHECK(g1_endomorphism(random_jacobian(g, rng)) == g1_endomorphism(g));
}

TEST_CASE("arith/g1/every curve point has order dividing h1 r") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  const auto group_order = bigint_of<6>(to_mpz(g1_cofactor) * FrOracle::p());
  for (int i = 0; i < 8; ++i) {
    const G1Affine p = random_curve_point<G1Params>(rng);
    CHECK(p.mul(group_order).is_infinity());
    CHECK_FALSE(p.mul(to_bigint<2>(to_mpz(g1_cofactor))).is_infinity());  // p is not of cofactor order
  }
}

TEST_CASE("arith/g1/subgroup check agrees with [r]P == O on subgroup points and on points outside") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  for (int i = 0; i < 24; ++i) {
    CAPTURE(i);
    const G1Affine in = random_subgroup_point<G1Params>(rng);
    CHECK(is_in_subgroup_slow(in));
    CHECK(is_in_subgroup(in));
    CHECK(is_in_subgroup(random_jacobian(in, rng)));
    CHECK(is_in_subgroup_slow(random_jacobian(in, rng)));

    // Random x, y solved from the equation, no cofactor clearing: outside except with probability 1 / h1.
    const G1Affine out = random_curve_point<G1Params>(rng);
    CHECK_FALSE(is_in_subgroup_slow(out));
    CHECK_FALSE(is_in_subgroup(out));
    CHECK_FALSE(is_in_subgroup(random_jacobian(out, rng)));
    // Clearing the cofactor moves it into the subgroup.
    const G1Affine cleared = out.mul(g1_cofactor).to_affine();
    CHECK(is_in_subgroup_slow(cleared));
    CHECK(is_in_subgroup(cleared));
  }
}

TEST_CASE("arith/g1/subgroup check rejects small-order points and subgroup points plus torsion") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  const mpz_class r = FrOracle::p();
  const mpz_class h1 = to_mpz(g1_cofactor);
  // h1 = 3 * 11^2 * 10177^2 * 859267^2 * 52437899^2.
  const std::vector<unsigned long> primes = {3, 11, 10177, 859267, 52437899};
  mpz_class product = 3;
  for (std::size_t i = 1; i < primes.size(); ++i) product *= mpz_class(primes[i]) * primes[i];
  REQUIRE(product == h1);
  for (const unsigned long q : primes) {
    CAPTURE(q);
    const RefPoint<G1Params> torsion = point_of_order<G1Params>(q, r * h1, rng);
    const G1Affine t = from_ref(torsion);
    CHECK(t.is_on_curve());
    CHECK_FALSE(is_in_subgroup_slow(t));
    CHECK_FALSE(is_in_subgroup(t));
    const G1Affine mixed = (G1Jacobian::generator().mul(random_scalar(rng)) + t).to_affine();
    CHECK_FALSE(is_in_subgroup_slow(mixed));
    CHECK_FALSE(is_in_subgroup(mixed));
    CHECK_FALSE(is_in_subgroup(random_jacobian(mixed, rng)));
  }
  // (0, 2): x = 0 gives a point of order 3.
  const G1Affine order3{Fp::zero(), Fp::from_u64(2)};
  CHECK(order3.is_on_curve());
  CHECK(order3.mul(BigInt<1>::from_u64(3)).is_infinity());
  CHECK_FALSE(is_in_subgroup(order3));
  CHECK_FALSE(is_in_subgroup(-order3));
}

TEST_CASE("arith/g1/batch conversion to affine matches one-by-one conversion with infinity anywhere") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  check_batch_to_affine<G1Params>(rng, {0, 1, 2, 3, 17, 1023, 1024, 1025, 5000});
}
