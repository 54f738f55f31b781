// The CPU MSM's batch-affine additions eight at a time with AVX-512 IFMA (cpu/detail/ifma_batch.hpp) against
// the curve's own additions: G1 of BLS12-381 (6-limb Fp) and BN254 (4-limb Fp), batches of 1 to 129 (partial
// rows of eight, several rows), fresh random points and the generator with its double. Skipped where the CPU
// lacks AVX-512 IFMA; there the scalar flush is what the MSM tests exercise.
#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <random>
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

template <class Field>
void invert_eight(std::uint64_t* values) {
  constexpr std::size_t n = Field::N;
  for (std::size_t k = 0; k < 8; ++k) {
    Field x;
    for (std::size_t q = 0; q < n; ++q) x.limb[q] = values[k * n + q];
    const Field inverse = x.inverse();
    for (std::size_t q = 0; q < n; ++q) values[k * n + q] = inverse.limb[q];
  }
}

template <class Affine>
void check_batches() {
  using Field = typename Affine::Field;
  using Scalar = typename Affine::Scalar;
  const auto seed = test_seed();
  CAPTURE(seed);
  std::mt19937_64 rng(seed);
  cpu::detail::IfmaModulus modulus;
  modulus.limbs64 = Field::N;
  for (std::size_t q = 0; q < Field::N; ++q) modulus.p[q] = Field::modulus.limb[q];
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
    std::vector<std::uint64_t*> bx(count), by(count);
    std::vector<const std::uint64_t*> px(count), py(count);
    for (std::size_t k = 0; k < count; ++k) {
      bx[k] = buckets[k].x.limb;
      by[k] = buckets[k].y.limb;
      px[k] = points[k].x.limb;
      py[k] = points[k].y.limb;
    }
    std::vector<std::uint64_t> scratch(cpu::detail::ifma_scratch_words(count, Field::N));
    cpu::detail::ifma_add_batch(modulus, cpu::detail::BatchPoints{bx.data(), by.data(), px.data(), py.data()},
                                count, &invert_eight<Field>, scratch.data());
    std::size_t wrong = 0;
    for (std::size_t k = 0; k < count; ++k)
      if (buckets[k].x != expected[k].x || buckets[k].y != expected[k].y) ++wrong;
    CHECK(wrong == 0);
    // The points are left as they were.
    for (std::size_t k = 0; k < count; ++k) CHECK(points[k].is_on_curve());
  }
}

}  // namespace

TEST_CASE("arith/ifma/eight-lane batch-affine additions equal the curve's in G1 of both curves") {
  if (!cpu::detail::ifma_enabled()) {
    MESSAGE("this CPU has no AVX-512 IFMA (or PROOFLINE_CPU_IFMA=0): nothing to check");
    return;
  }
  check_batches<G1Affine>();
  check_batches<bn254::G1Affine>();
}
