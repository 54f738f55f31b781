// Inputs that reach the MSM's corner cases and the naive reference it is checked against, shared by the CPU
// MSM tests, the host emulation of the GPU kernels and the GPU suite.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <span>
#include <vector>

#include <proofline/arith/bigint.hpp>
#include <proofline/arith/curve.hpp>
#include <proofline/arith/fr.hpp>
#include <proofline/arith/random.hpp>

namespace proofline::test_support {

/// n random points (random multiples of the generator), one scalar multiplication each.
template <class Curve>
std::vector<AffinePoint<Curve>> random_points(std::mt19937_64& rng, std::size_t n) {
  std::vector<AffinePoint<Curve>> out(n);
  for (auto& point : out)
    point = AffinePoint<Curve>::generator().mul(random_field<typename Curve::Scalar>(rng)).to_affine();
  return out;
}

/// n scalars, shuffled: 0, ±1, ±2, (r−1)/2 and the two above it (the border of the signed-digit "abs" trick),
/// powers of two across all limbs, then random values. With n below the number of edges, the first n edges.
template <class Fr = proofline::Fr>
std::vector<Fr> edge_scalars(std::mt19937_64& rng, std::size_t n) {
  BigInt<4> half = Fr::modulus;
  half.shift_right_1();
  std::vector<Fr> out = {Fr::zero(),
                         Fr::one(),
                         Fr::from_u64(2),
                         -Fr::one(),
                         -Fr::from_u64(2),
                         Fr::from_canonical(half),
                         Fr::from_canonical(half) + Fr::one(),
                         Fr::from_canonical(half) + Fr::from_u64(2)};
  for (int k = 0; k < 254; k += 29) {
    BigInt<4> power;
    power.limb[k / 64] = std::uint64_t{1} << (k % 64);
    out.push_back(Fr::from_canonical(power));
  }
  while (out.size() < n) out.push_back(random_field<Fr>(rng));
  out.resize(n);
  std::shuffle(out.begin(), out.end(), rng);
  return out;
}

/// Σ scalars[i]·points[i], one double-and-add scalar multiplication at a time: obviously correct, and no code
/// shared with any MSM under test.
template <class Curve>
JacobianPoint<Curve> naive_msm(std::span<const AffinePoint<Curve>> points,
                               std::span<const typename Curve::Scalar> scalars) {
  REQUIRE(points.size() == scalars.size());
  JacobianPoint<Curve> sum = JacobianPoint<Curve>::infinity();
  for (std::size_t i = 0; i < points.size(); ++i) sum += points[i].mul(scalars[i]);
  return sum;
}

template <class Curve>
JacobianPoint<Curve> naive_msm(const std::vector<AffinePoint<Curve>>& points,
                               const std::vector<typename Curve::Scalar>& scalars) {
  return naive_msm<Curve>(std::span<const AffinePoint<Curve>>(points),
                          std::span<const typename Curve::Scalar>(scalars));
}

}  // namespace proofline::test_support
