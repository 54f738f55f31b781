// cpu::scalar_mul (the proof assembly's scalar multiplications: a 4-bit window on the mulx twins where the
// CPU has them) against the portable double-and-add JacobianPoint::mul, in all four groups, on edge scalars
// (0, 1, 2, 15, 16, r − 1, r − 2, (r − 1)/2, powers of two) and fresh random ones, points random, the
// generator and infinity.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <vector>

#include <proofline/arith/bn254/g1.hpp>
#include <proofline/arith/bn254/g2.hpp>
#include <proofline/arith/g1.hpp>
#include <proofline/arith/g2.hpp>
#include <proofline/arith/random.hpp>
#include <proofline/cpu/scalar_mul.hpp>

#include "support/seed.hpp"

using namespace proofline;

namespace {

template <class Jacobian, class Scalar>
void check_scalar_mul(const Jacobian& generator) {
  const std::uint64_t seed = test_support::test_seed();
  CAPTURE(seed);
  std::mt19937_64 rng(seed);
  std::vector<Scalar> scalars = {Scalar::zero(),       Scalar::one(),        Scalar::from_u64(2),
                                 Scalar::from_u64(15), Scalar::from_u64(16), -Scalar::one(),
                                 -Scalar::from_u64(2)};
  scalars.push_back(-Scalar::one() * Scalar::from_u64(2).inverse());  // (r − 1) / 2
  Scalar power = Scalar::one();
  for (int i = 0; i < 255; ++i, power = power + power)
    if (i % 37 == 0 || i > 250) scalars.push_back(power);
  for (int i = 0; i < 40; ++i) scalars.push_back(random_field<Scalar>(rng));

  std::vector<Jacobian> points = {generator, Jacobian::infinity()};
  for (int i = 0; i < 3; ++i) points.push_back(generator.mul(random_field<Scalar>(rng)));
  std::size_t wrong = 0;
  for (const Jacobian& p : points)
    for (const Scalar& k : scalars) wrong += !(cpu::scalar_mul(p, k) == p.mul(k));
  CHECK(wrong == 0);
}

}  // namespace

TEST_CASE("arith/scalar_mul/the windowed host multiplication equals double-and-add in every group") {
  SUBCASE("BLS12-381 G1") {
    check_scalar_mul<G1Jacobian, Fr>(G1Affine::generator().to_jacobian());
  }
  SUBCASE("BLS12-381 G2") {
    check_scalar_mul<G2Jacobian, Fr>(G2Affine::generator().to_jacobian());
  }
  SUBCASE("BN254 G1") {
    check_scalar_mul<bn254::G1Jacobian, bn254::Fr>(bn254::G1Affine::generator().to_jacobian());
  }
  SUBCASE("BN254 G2") {
    check_scalar_mul<bn254::G2Jacobian, bn254::Fr>(bn254::G2Affine::generator().to_jacobian());
  }
}
