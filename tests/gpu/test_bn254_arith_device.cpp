// BN254's field and curve arithmetic on the device (the same MontField, Fp2T and curve templates as
// BLS12-381's, with 8-limb Fp and Fr): Fp, Fr and Fp2 operations against GMP on carry edge cases and fresh
// random inputs, and the G1 and G2 additions and doublings of every coordinate system against the host's
// Jacobian arithmetic, with the equal, opposite and infinity cases.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <vector>

#include <proofline/arith/curves.hpp>
#include <proofline/arith/random.hpp>

#include "arith/gmp_oracle.hpp"
#include "bn254_kernels.hpp"
#include "support/msm_reference.hpp"
#include "support/seed.hpp"

using namespace proofline;
using proofline::test::FieldOracle;
using proofline::test_support::test_seed;

namespace {

/// Pairs of every edge value with every other (both orders), then `random_pairs` random pairs.
template <class F>
void edge_and_random_pairs(std::mt19937_64& rng, std::size_t random_pairs, std::vector<F>& a,
                           std::vector<F>& b) {
  using O = FieldOracle<F>;
  std::vector<F> edges;
  for (const mpz_class& v : O::edge_values()) edges.push_back(O::element(v));
  for (const F& x : edges)
    for (const F& y : edges) {
      a.push_back(x);
      b.push_back(y);
    }
  for (std::size_t i = 0; i < random_pairs; ++i) {
    a.push_back(O::random_element(rng));
    b.push_back(O::random_element(rng));
  }
}

/// The device's {a b, a + b, a - b, b / a, a^2} against GMP; counts wrong or unreduced results.
template <class F>
std::size_t prime_field_mismatches(const std::vector<F>& a, const std::vector<F>& b,
                                   const std::vector<F>& out) {
  using O = FieldOracle<F>;
  const mpz_class& p = O::p();
  std::size_t bad = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const mpz_class x = O::value(a[i]), y = O::value(b[i]);
    const mpz_class expected[5] = {test::mod(x * y, p), test::mod(x + y, p), test::mod(x - y, p),
                                   test::mod(test::invert(x, p) * y, p), test::mod(x * x, p)};
    for (int k = 0; k < 5; ++k) {
      const F& got = out[5 * i + static_cast<std::size_t>(k)];
      bad += !O::reduced(got) || O::value(got) != expected[k];
    }
  }
  return bad;
}

template <class F>
void check_prime_field(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<F> a, b;
  edge_and_random_pairs(rng, 4099, a, b);  // not a multiple of the block size
  const std::vector<F> out = gpu_test::field_ops_on_device(a, b);
  CHECK(prime_field_mismatches(a, b, out) == 0);
}

/// Fp2 = Fp[u] / (u^2 + 1) from its definition in GMP.
std::size_t fp2_mismatches(const std::vector<bn254::Fp2>& a, const std::vector<bn254::Fp2>& b,
                           const std::vector<bn254::Fp2>& out) {
  using O = FieldOracle<bn254::Fp>;
  const mpz_class& p = O::p();
  std::size_t bad = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const mpz_class a0 = O::value(a[i].c0), a1 = O::value(a[i].c1), b0 = O::value(b[i].c0),
                    b1 = O::value(b[i].c1);
    const mpz_class norm_inv = test::invert(test::mod(a0 * a0 + a1 * a1, p), p);
    const mpz_class i0 = a0 * norm_inv, i1 = -a1 * norm_inv;  // 1 / a
    const mpz_class expected[5][2] = {{a0 * b0 - a1 * b1, a0 * b1 + a1 * b0},
                                      {a0 + b0, a1 + b1},
                                      {a0 - b0, a1 - b1},
                                      {i0 * b0 - i1 * b1, i0 * b1 + i1 * b0},
                                      {a0 * a0 - a1 * a1, 2 * a0 * a1}};
    for (int k = 0; k < 5; ++k) {
      const bn254::Fp2& got = out[5 * i + static_cast<std::size_t>(k)];
      bad += !O::reduced(got.c0) || !O::reduced(got.c1) || O::value(got.c0) != test::mod(expected[k][0], p) ||
             O::value(got.c1) != test::mod(expected[k][1], p);
    }
  }
  return bad;
}

/// P[i], Q[i] random, except: P = Q (doubling inside the additions), P = -Q, P = O, Q = O, both O.
template <class Curve>
void edge_point_pairs(std::mt19937_64& rng, std::size_t n, std::vector<AffinePoint<Curve>>& p,
                      std::vector<AffinePoint<Curve>>& q) {
  p = test_support::random_points<Curve>(rng, n);
  q = test_support::random_points<Curve>(rng, n);
  q[0] = p[0];
  q[1] = -p[1];
  p[2] = AffinePoint<Curve>::infinity();
  q[3] = AffinePoint<Curve>::infinity();
  p[4] = q[4] = AffinePoint<Curve>::infinity();
}

/// Every device result against the host's Jacobian P + Q, P - Q, 2P and 2Q (other formulas than most of the
/// device's); counts mismatches.
template <class Curve>
std::size_t curve_mismatches(const std::vector<AffinePoint<Curve>>& p,
                             const std::vector<AffinePoint<Curve>>& q,
                             const std::vector<gpu_test::CurveOpsOut<Curve>>& out) {
  std::size_t bad = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const JacobianPoint<Curve> sum = p[i].to_jacobian() + q[i].to_jacobian();
    const JacobianPoint<Curve> difference = p[i].to_jacobian() - q[i].to_jacobian();
    const JacobianPoint<Curve> twice_p = p[i].to_jacobian().dbl(), twice_q = q[i].to_jacobian().dbl();
    const gpu_test::CurveOpsOut<Curve>& r = out[i];
    bad += !(r.add_mixed == sum) + !(r.sub_mixed == difference) + !(r.add == sum) + !(r.dbl == twice_p) +
           !(r.dbl_affine == twice_q) + !(r.jadd == sum) + !(r.jadd_mixed == sum) + !(r.jdbl == twice_p) +
           !(r.affine == sum.to_affine());
    bad += !r.add_mixed.is_on_curve() + !r.jadd.is_on_curve() + !r.affine.is_on_curve();
  }
  return bad;
}

template <class Curve>
void check_curve_ops(std::uint64_t seed, std::size_t n) {
  std::mt19937_64 rng(seed);
  std::vector<AffinePoint<Curve>> p, q;
  edge_point_pairs<Curve>(rng, n, p, q);
  CHECK(curve_mismatches(p, q, gpu_test::curve_ops_on_device(p, q)) == 0);
}

}  // namespace

TEST_CASE("gpu/bn254/Fr and Fp operations on the device equal GMP on edge and random inputs") {
  const std::uint64_t seed = test_seed();
  MESSAGE("seed ", seed);
  CAPTURE(seed);
  check_prime_field<bn254::Fr>(seed);
  check_prime_field<bn254::Fp>(seed + 1);
}

TEST_CASE("gpu/bn254/Fp2 operations on the device equal GMP on edge and random inputs") {
  const std::uint64_t seed = test_seed();
  MESSAGE("seed ", seed);
  CAPTURE(seed);
  std::mt19937_64 rng(seed);
  using O = FieldOracle<bn254::Fp>;
  std::vector<bn254::Fp> edges;
  for (const mpz_class& v : O::edge_values()) edges.push_back(O::element(v));
  std::vector<bn254::Fp2> a, b;
  for (std::size_t i = 0; i < edges.size(); ++i)
    for (std::size_t j = 0; j < edges.size(); ++j) {
      a.push_back({edges[i], edges[j]});
      b.push_back({edges[j], edges[(i + j) % edges.size()]});
    }
  for (int i = 0; i < 4099; ++i) {
    a.push_back({O::random_element(rng), O::random_element(rng)});
    b.push_back({O::random_element(rng), O::random_element(rng)});
  }
  CHECK(fp2_mismatches(a, b, gpu_test::field_ops_on_device(a, b)) == 0);
}

TEST_CASE("gpu/bn254/G1 and G2 additions and doublings on the device equal the host's") {
  const std::uint64_t seed = test_seed();
  MESSAGE("seed ", seed);
  CAPTURE(seed);
  check_curve_ops<bn254::G1Params>(seed, 300);
  check_curve_ops<bn254::G2Params>(seed + 1, 100);
}
