// Shared by the CPU MSM tests: random points with known discrete logarithms, and the second reference the MSM
// is checked against besides naive double-and-add (support/msm_reference.hpp): one scalar multiplication of
// the generator by Σ s_i·log_i. Neither shares code with the MSM.
#pragma once

#include <doctest/doctest.h>

#include <cstddef>
#include <vector>

#include <proofline/arith/curve_batch.hpp>
#include <proofline/arith/fr.hpp>
#include <proofline/arith/g1.hpp>
#include <proofline/arith/g2.hpp>
#include <proofline/arith/random.hpp>

#include "arith/gmp_oracle.hpp"
#include "support/field_vectors.hpp"
#include "support/msm_reference.hpp"

namespace proofline::test {

/// points[i] = logs[i]·G. The point at infinity has log 0.
template <class Curve>
struct KnownPoints {
  std::vector<AffinePoint<Curve>> points;
  std::vector<Fr> logs;

  void set_infinity(std::size_t i) {
    points[i] = AffinePoint<Curve>::infinity();
    logs[i] = Fr::zero();
  }
  void set(std::size_t i, const AffinePoint<Curve>& point, const Fr& log) {
    points[i] = point;
    logs[i] = log;
  }
};

/// n random points: a walk from a random multiple of G with eight random steps, one addition per point (a
/// scalar multiplication per point would cost as much as the naive reference).
template <class Curve>
KnownPoints<Curve> known_points(std::size_t n, Rng& rng) {
  using Affine = AffinePoint<Curve>;
  using Jacobian = JacobianPoint<Curve>;
  constexpr std::size_t kSteps = 8;
  Fr step_log[kSteps];
  Affine step[kSteps];
  for (std::size_t k = 0; k < kSteps; ++k) {
    step_log[k] = random_field<Fr>(rng);
    step[k] = Affine::generator().mul(step_log[k]).to_affine();
  }
  Fr log = random_field<Fr>(rng);
  Jacobian point = Affine::generator().mul(log);
  std::vector<Jacobian> walk(n);
  KnownPoints<Curve> out;
  out.logs.resize(n);
  out.points.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    walk[i] = point;
    out.logs[i] = log;
    const std::size_t k = rng() % kSteps;
    point += step[k];
    log += step_log[k];
  }
  batch_to_affine(std::span<const Jacobian>(walk), std::span<Affine>(out.points));
  return out;
}

/// (Σ s_i·log_i)·G: the same sum through the discrete logs, one scalar multiplication.
template <class Curve>
JacobianPoint<Curve> log_msm(const KnownPoints<Curve>& known, const std::vector<Fr>& scalars) {
  REQUIRE(known.points.size() == scalars.size());
  Fr total = Fr::zero();
  for (std::size_t i = 0; i < scalars.size(); ++i) total += known.logs[i] * scalars[i];
  return AffinePoint<Curve>::generator().mul(total);
}

}  // namespace proofline::test
