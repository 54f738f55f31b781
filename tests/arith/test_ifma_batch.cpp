// The CPU MSM's batch-affine additions eight at a time with AVX-512 IFMA (cpu/detail/ifma_batch.hpp) against
// the curve's own additions: G1 and G2 of BLS12-381 (6-limb Fp) and BN254 (4-limb Fp), batches of 1 to 129
// (partial rows of eight, several rows), fresh random points and the generator with its double. Skipped where
// the CPU lacks AVX-512 IFMA; there the scalar flush is what the MSM tests exercise.
#include <doctest/doctest.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <random>
#include <tuple>
#include <type_traits>
#include <vector>

#include <proofline/arith/bn254/fr.hpp>
#include <proofline/arith/curves.hpp>
#include <proofline/arith/fr.hpp>
#include <proofline/cpu/detail/ifma_batch.hpp>

#include "support/field_vectors.hpp"
#include "support/seed.hpp"

using namespace proofline;
using namespace proofline::test_support;

namespace {

/// The base-field components of an Fp or Fp2 element.
template <class Field>
auto components(Field& x) {
  if constexpr (requires { x.c0; })
    return std::array{&x.c0, &x.c1};
  else
    return std::array{&x};
}

template <class Field>
void invert_eight(std::uint64_t* values) {
  for (std::size_t k = 0; k < 8; ++k) {
    Field x;
    const auto parts = components(x);
    constexpr std::size_t n = std::remove_pointer_t<typename decltype(parts)::value_type>::N;
    for (std::size_t c = 0; c < parts.size(); ++c)
      for (std::size_t q = 0; q < n; ++q) parts[c]->limb[q] = values[(k * parts.size() + c) * n + q];
    Field inverse = x.inverse();
    const auto out = components(inverse);
    for (std::size_t c = 0; c < out.size(); ++c)
      for (std::size_t q = 0; q < n; ++q) values[(k * out.size() + c) * n + q] = out[c]->limb[q];
  }
}

template <class Affine>
void check_batches() {
  using Field = typename Affine::Field;
  using Scalar = typename Affine::Scalar;
  const auto seed = test_seed();
  CAPTURE(seed);
  std::mt19937_64 rng(seed);
  Field probe{};
  const auto probe_parts = components(probe);
  using Base = std::remove_pointer_t<typename decltype(probe_parts)::value_type>;
  constexpr std::size_t degree = std::tuple_size_v<decltype(probe_parts)>;
  cpu::detail::IfmaModulus modulus;
  modulus.limbs64 = Base::N;
  for (std::size_t q = 0; q < Base::N; ++q) modulus.p[q] = Base::modulus.limb[q];
  const auto random_point = [&] {
    return Affine::generator().mul(random_scalars<Scalar>(rng, 1).front()).to_affine();
  };

  for (const std::size_t count : {1u, 2u, 7u, 8u, 9u, 16u, 23u, 64u, 129u}) {
    CAPTURE(count);
    std::vector<Affine> buckets(count), points(count);
    for (std::size_t k = 0; k < count; ++k) {
      buckets[k] = random_point();
      points[k] = random_point();
    }
    // The generator and its small multiples: small coordinates in Montgomery form, and a point added to
    // its own double.
    if (count > 3) {
      buckets[2] = Affine::generator();
      points[2] = Affine::generator().to_jacobian().add_mixed(Affine::generator()).to_affine();
      buckets[3] = points[2];
      points[3] = Affine::generator();
    }
    std::vector<Affine> expected(count);
    for (std::size_t k = 0; k < count; ++k) {
      REQUIRE(buckets[k].x != points[k].x);
      expected[k] = buckets[k].to_jacobian().add_mixed(points[k]).to_affine();
    }
    std::vector<std::uint64_t*> bucket_limbs[2][2];
    std::vector<const std::uint64_t*> point_limbs[2][2];
    cpu::detail::BatchPoints batch;
    batch.degree = degree;
    for (std::size_t xy = 0; xy < 2; ++xy)
      for (std::size_t c = 0; c < degree; ++c) {
        for (std::size_t k = 0; k < count; ++k) {
          bucket_limbs[xy][c].push_back(components(xy == 0 ? buckets[k].x : buckets[k].y)[c]->limb);
          point_limbs[xy][c].push_back(components(xy == 0 ? points[k].x : points[k].y)[c]->limb);
        }
        batch.bucket[xy][c] = bucket_limbs[xy][c].data();
        batch.point[xy][c] = point_limbs[xy][c].data();
      }
    std::vector<std::uint64_t> scratch(cpu::detail::ifma_scratch_words(count, Base::N, degree));
    cpu::detail::ifma_add_batch(modulus, batch, count, &invert_eight<Field>, scratch.data());
    std::size_t wrong = 0;
    for (std::size_t k = 0; k < count; ++k)
      if (buckets[k].x != expected[k].x || buckets[k].y != expected[k].y) ++wrong;
    CHECK(wrong == 0);
    // The points are left as they were.
    for (std::size_t k = 0; k < count; ++k) CHECK(points[k].is_on_curve());
  }
}

}  // namespace

TEST_CASE("arith/ifma/eight-lane batch-affine additions equal the curve's in G1 and G2 of both curves") {
  if (!cpu::detail::ifma_enabled()) {
    MESSAGE("this CPU has no AVX-512 IFMA (or PROOFLINE_CPU_IFMA=0): nothing to check");
    return;
  }
  check_batches<G1Affine>();
  check_batches<bn254::G1Affine>();
  check_batches<G2Affine>();
  check_batches<bn254::G2Affine>();
}
