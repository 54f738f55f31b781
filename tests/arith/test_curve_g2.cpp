// G2 = E'(Fp2)[r], E': y^2 = x^3 + 4(1 + u). Known answers (the standard generator, [7]G2 as published with
// the aptos-core BLS12-381 test vectors), every formula against the GMP affine reference over mpz pairs, and
// the psi subgroup check against [r]P == O.
#include <doctest/doctest.h>

#include <vector>

#include <proofline/arith/g2.hpp>

#include "arith/test_curve_checks.hpp"
#include "arith/test_curve_support.hpp"
#include "support/seed.hpp"

using namespace proofline;
using namespace proofline::test;
using namespace proofline::test_support;

namespace {

RefPoint<G2Params> ref_point(const char* x0, const char* x1, const char* y0, const char* y1) {
  RefPoint<G2Params> out;
  out.infinity = false;
  out.x = {from_hex_text(x0), from_hex_text(x1)};
  out.y = {from_hex_text(y0), from_hex_text(y1)};
  return out;
}

const RefPoint<G2Params>& ref_generator() {
  static const auto point = ref_point(
      "0x024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8",
      "0x13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e",
      "0x0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801",
      "0x0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be");
  return point;
}

/// h2 = #E'(Fp2) / r = (z^8 - 4z^7 + 5z^6 - 4z^4 + 6z^3 - 4z^2 - 4z + 13) / 9.
mpz_class g2_cofactor() {
  const mpz_class z = bls_z();
  mpz_class z_pow[9];
  z_pow[0] = 1;
  for (int i = 1; i < 9; ++i) z_pow[i] = z_pow[i - 1] * z;
  const mpz_class numerator =
      z_pow[8] - 4 * z_pow[7] + 5 * z_pow[6] - 4 * z_pow[4] + 6 * z_pow[3] - 4 * z_pow[2] - 4 * z + 13;
  REQUIRE(numerator % 9 == 0);
  return numerator / 9;
}

}  // namespace

TEST_CASE("arith/g2/generator and its multiples match the known answers") {
  const G2Affine g = G2Affine::generator();
  CHECK_POINT(g, ref_generator());
  CHECK_POINT(G2Jacobian::generator(), ref_generator());
  CHECK_POINT(G2Xyzz::generator(), ref_generator());
  CHECK(ref_on_curve(ref_generator()));
  CHECK(Fp2Oracle::equal(Fp2Oracle::value(G2Params::b), {4, 4}));

  const auto seven_g = ref_point(
      "0x049cd1dbb2d2c3581e54c088135fef36505a6823d61b859437bfc79b617030dc8b40e32bad1fa85b9c0f368af6d38d3c",
      "0x0d0273f6bf31ed37c3b8d68083ec3d8e20b5f2cc170fa24b9b5be35b34ed013f9a921f1cad1644d4bdb14674247234c8",
      "0x08b7ae4dbf802c17a6648842922c9467e460a71c88d393ee7af356da123a2f3619e80c3bdcc8e2b1da52f8cd9913ccdd",
      "0x05ecf93654b7a1885695aaeeb7caf41b0239dc45e1022be55d37111af2aecef87799638bec572de86a7437898efa7020");
  CHECK(ref_mul(ref_generator(), 7) == seven_g);
  CHECK_POINT(g.mul(BigInt<1>::from_u64(7)), seven_g);
  CHECK_POINT(g.mul(Fr::from_u64(7)), seven_g);
  CHECK_POINT(G2Xyzz::generator().mul(BigInt<1>::from_u64(7)), seven_g);
  G2Xyzz sum = G2Xyzz::infinity();
  for (int i = 0; i < 7; ++i) sum += g;
  CHECK_POINT(sum, seven_g);
  CHECK(to_ref(sum.to_affine()) == seven_g);

  const auto two_g = ref_add(ref_generator(), ref_generator());
  CHECK_POINT(G2Jacobian::generator().dbl(), two_g);
  CHECK_POINT(G2Xyzz::generator().dbl(), two_g);
  CHECK_POINT(G2Xyzz::dbl_affine(g), two_g);
  CHECK_POINT(G2Jacobian::generator() + g, two_g);
}

TEST_CASE("arith/g2/add mixed add and double match the gmp affine reference in every coordinate system") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  check_against_reference<G2Params>(rng, 12);
}

TEST_CASE("arith/g2/group laws and equality hold across coordinate systems") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  check_group_laws<G2Params>(rng, 8);
}

TEST_CASE("arith/g2/infinity in every operation") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  check_infinity<G2Params>(rng);
}

TEST_CASE("arith/g2/scalar multiplication matches repeated addition and the reference") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  check_scalar_mul<G2Params>(rng);
}

TEST_CASE("arith/g2/psi coefficients follow from their definition and psi acts as [z]") {
  using O = Fp2Oracle;
  const mpz_class& p = FpOracle::p();
  const MpzFp2 xi{1, 1};  // 1 + u, the twist's non-residue
  CHECK(O::equal(O::value(g2_psi_coeff_x), O::inverse(O::pow(xi, (p - 1) / 3))));
  CHECK(O::equal(O::value(g2_psi_coeff_y), O::inverse(O::pow(xi, (p - 1) / 2))));

  const G2Affine g = G2Affine::generator();
  const auto z_g = ref_neg(ref_mul(ref_generator(), to_mpz(bls_z_abs_int)));  // z < 0
  CHECK_POINT(g2_psi(g), z_g);
  Rng rng(test_seed());
  CHECK_POINT(g2_psi(random_jacobian(g, rng)), z_g);
  CHECK(g2_psi(G2Affine::infinity()).is_infinity());
  // psi maps the twist to itself (also outside G2), as a group homomorphism.
  const G2Affine a = random_curve_point<G2Params>(rng), b = random_curve_point<G2Params>(rng);
  CHECK(g2_psi(a).is_on_curve());
  CHECK(g2_psi((a.to_jacobian() + b).to_affine()) == g2_psi(a).to_jacobian() + g2_psi(b));
}

TEST_CASE("arith/g2/every twist point has order dividing h2 r") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  const mpz_class h2 = g2_cofactor();
  const auto group_order = bigint_of<12>(h2 * FrOracle::p());
  for (int i = 0; i < 4; ++i) {
    const G2Affine p = random_curve_point<G2Params>(rng);
    CHECK(p.mul(group_order).is_infinity());
    CHECK_FALSE(p.mul(bigint_of<8>(h2)).is_infinity());
  }
}

TEST_CASE("arith/g2/subgroup check agrees with [r]P == O on subgroup points and on points outside") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  const auto h2 = bigint_of<8>(g2_cofactor());
  for (int i = 0; i < 12; ++i) {
    CAPTURE(i);
    const G2Affine in = random_subgroup_point<G2Params>(rng);
    CHECK(is_in_subgroup_slow(in));
    CHECK(is_in_subgroup(in));
    CHECK(is_in_subgroup(random_jacobian(in, rng)));
    CHECK(is_in_subgroup_slow(random_jacobian(in, rng)));

    const G2Affine out = random_curve_point<G2Params>(rng);
    CHECK_FALSE(is_in_subgroup_slow(out));
    CHECK_FALSE(is_in_subgroup(out));
    CHECK_FALSE(is_in_subgroup(random_jacobian(out, rng)));
    const G2Affine cleared = out.mul(h2).to_affine();
    CHECK(is_in_subgroup_slow(cleared));
    CHECK(is_in_subgroup(cleared));
  }
}

TEST_CASE("arith/g2/subgroup check rejects small-order points and subgroup points plus torsion") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  const mpz_class r = FrOracle::p();
  const mpz_class h2 = g2_cofactor();
  for (const unsigned long q : {13ul, 23ul, 2713ul, 11953ul, 262069ul}) {
    CAPTURE(q);
    REQUIRE(h2 % q == 0);
    const RefPoint<G2Params> torsion = point_of_order<G2Params>(q, r * h2, rng);
    const G2Affine t = from_ref(torsion);
    CHECK(t.is_on_curve());
    CHECK_FALSE(is_in_subgroup_slow(t));
    CHECK_FALSE(is_in_subgroup(t));
    const G2Affine mixed = (G2Jacobian::generator().mul(random_scalar(rng)) + t).to_affine();
    CHECK_FALSE(is_in_subgroup_slow(mixed));
    CHECK_FALSE(is_in_subgroup(mixed));
    CHECK_FALSE(is_in_subgroup(random_jacobian(mixed, rng)));
  }
}

TEST_CASE("arith/g2/batch conversion to affine matches one-by-one conversion with infinity anywhere") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  check_batch_to_affine<G2Params>(rng, {0, 1, 2, 5, 1023, 1025, 3000});
}
