// The GPU MSM with precomputed windows (MsmOptions::precomputed): tables built on the device are checked
// point by point against host multiplication by 2^(c w), and MSMs over them against the CPU MSM (cpu::msm)
// on fresh random host points with edge scalars and points, in both scalar forms, with and without the
// Groth16 split, forced and modelled window widths, for G1 and G2 of BLS12-381 and BN254; at 2^20-2^22
// against the closed form [sum s_i k_i]·G on GPU-made points, uniform, Groth16-mixed and skewed (hot
// buckets), with the table built in place over the points. And the shared scalar work of a Groth16 job
// (enqueue_sort once, then sorted MSMs over several G1 and G2 point sets, plain and precomputed) against the
// same references. The seed is printed on failure.
#include <doctest/doctest.h>

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <type_traits>
#include <vector>

#include <proofline/arith/curves.hpp>
#include <proofline/cpu/msm.hpp>
#include <proofline/cuda/device_buffer.hpp>
#include <proofline/cuda/gpu_msm.hpp>
#include <proofline/cuda/stream.hpp>
#include <proofline/util/error.hpp>

#include "msm_test_support.hpp"
#include "support/field_vectors.hpp"
#include "support/msm_reference.hpp"
#include "support/seed.hpp"

using namespace proofline;
using namespace proofline::gpu_test;
using namespace proofline::test_support;

namespace {

template <class Curve>
constexpr bool is_g1 = std::is_same_v<Curve, G1Params> || std::is_same_v<Curve, bn254::G1Params>;
template <class Curve>
using CurveOf =
    std::conditional_t<std::is_same_v<Curve, G1Params> || std::is_same_v<Curve, G2Params>, Bls12_381, Bn254>;
template <class Curve>
using Engine = cuda::BasicMsmEngine<CurveOf<Curve>>;

/// A precomputed engine for n points of Curve's group.
template <class Curve>
Engine<Curve> table_engine(std::size_t n, cuda::MsmOptions options) {
  options.precomputed = true;
  return Engine<Curve>(is_g1<Curve> ? cuda::MsmGroup::g1 : cuda::MsmGroup::g2, n, options);
}

/// The engine's table of n device points: into a fresh buffer, or in place (the points uploaded into the
/// table's first block).
template <class Curve>
cuda::DeviceBuffer<AffinePoint<Curve>> device_table(const Engine<Curve>& engine,
                                                    const AffinePoint<Curve>* points, std::size_t n,
                                                    bool in_place) {
  cuda::DeviceBuffer<AffinePoint<Curve>> table(engine.table_points(n));
  cuda::DeviceBuffer<std::byte> scratch(engine.table_scratch_bytes(n));
  cuda::Stream stream;
  const AffinePoint<Curve>* source = points;
  if (in_place) {
    PL_CUDA_CHECK(cudaMemcpy(table.data(), points, n * sizeof(AffinePoint<Curve>), cudaMemcpyDefault));
    source = table.data();
  }
  if constexpr (is_g1<Curve>) {
    engine.enqueue_table_g1(source, n, table.data(), scratch.data(), stream.get());
  } else {
    engine.enqueue_table_g2(source, n, table.data(), scratch.data(), stream.get());
  }
  stream.synchronize();
  return table;
}

template <class Curve, class Scalar>
JacobianPoint<Curve> table_msm(const Engine<Curve>& engine, const AffinePoint<Curve>* table,
                               const cuda::DeviceBuffer<Scalar>& scalars, std::size_t n) {
  cuda::DeviceBuffer<std::byte> scratch(engine.scratch_bytes());
  cuda::DeviceBuffer<JacobianPoint<Curve>> result(1);
  cuda::Stream stream;
  if constexpr (is_g1<Curve>) {
    engine.enqueue_msm_g1(table, scalars.data(), n, result.data(), scratch.data(), stream.get());
  } else {
    engine.enqueue_msm_g2(table, scalars.data(), n, result.data(), scratch.data(), stream.get());
  }
  JacobianPoint<Curve> out;
  result.download(&out, 1, stream.get());
  stream.synchronize();
  return out;
}

/// P_i = [k_i]·G made on the host (the reference's inputs owe nothing to GPU code).
template <class Curve>
std::vector<AffinePoint<Curve>> host_points(std::uint64_t seed, std::size_t n) {
  const auto logs = random_scalars_parallel<typename Curve::Scalar>(seed, n);
  std::vector<AffinePoint<Curve>> out(n);
  tbb::parallel_for(std::size_t{0}, n, [&](std::size_t i) {
    out[i] = AffinePoint<Curve>::generator().mul(logs[i]).to_affine();
  });
  return out;
}

template <class Curve>
void check_small(std::uint64_t seed, std::size_t n, std::initializer_list<int> widths) {
  using Scalar = typename Curve::Scalar;
  CAPTURE(n);
  std::mt19937_64 rng(seed);
  std::vector<AffinePoint<Curve>> points = host_points<Curve>(seed, n);
  std::vector<Scalar> scalars = edge_scalars<Scalar>(rng, n);
  if (n >= 50) {
    points[3] = points[n - 1] = AffinePoint<Curve>::infinity();
    points[10] = points[11] = points[12];  // equal points with equal scalars: the bucket doubling
    scalars[10] = scalars[11] = scalars[12];
    points[20] = -points[21];  // P and -P in one bucket
    scalars[20] = scalars[21];
    for (std::size_t i = 30; i < 40; ++i) scalars[i] = Scalar::from_u64(77);
    scalars[41] = -Scalar::one();
    scalars[42] = Scalar::one();
  }
  const JacobianPoint<Curve> expected = cpu::msm(points, scalars);
  std::vector<Scalar> canonical(n);
  for (std::size_t i = 0; i < n; ++i) canonical[i] = Scalar::from_montgomery(scalars[i].canonical());
  const auto device_points = to_device(points);
  const auto device_scalars = to_device(scalars);
  const auto device_canonical = to_device(canonical);
  for (int window_bits : widths) {
    CAPTURE(window_bits);
    for (bool split : {false, true}) {
      CAPTURE(split);
      const auto engine = table_engine<Curve>(n, {.split_zero_one = split, .window_bits = window_bits});
      const auto table = device_table<Curve>(engine, device_points.data(), n, split);
      // Every block of a small table equals host multiplication by 2^(c w).
      if (n <= 300) {
        const auto host_table = to_host(table, engine.table_points(n));
        std::size_t mismatches = 0;
        for (int w = 0; w < engine.windows(); ++w) {
          BigInt<4> multiple;  // 2^(c w)
          const int bit = engine.window_bits() * w;
          multiple.limb[bit / 64] = std::uint64_t{1} << (bit % 64);
          for (std::size_t i = 0; i < n; ++i)
            mismatches +=
                host_table[static_cast<std::size_t>(w) * n + i] != points[i].mul(multiple).to_affine();
        }
        CHECK(mismatches == 0);
      }
      CHECK(table_msm(engine, table.data(), device_scalars, n) == expected);
      const auto canonical_engine = table_engine<Curve>(
          n,
          {.scalar_form = cuda::ScalarForm::canonical, .split_zero_one = split, .window_bits = window_bits});
      REQUIRE(canonical_engine.windows() == engine.windows());
      CHECK(table_msm(canonical_engine, table.data(), device_canonical, n) == expected);
    }
  }
}

/// 20% zero, 50% one, 2% r - 1, the rest uniform.
template <class Scalar>
std::vector<Scalar> groth16_mix(std::uint64_t seed, std::size_t n) {
  std::vector<Scalar> out = random_scalars_parallel<Scalar>(seed, n);
  std::mt19937_64 rng(seed + 1);
  for (auto& s : out) {
    const auto u = rng() % 100;
    s = u < 20 ? Scalar::zero() : u < 70 ? Scalar::one() : u < 72 ? -Scalar::one() : s;
  }
  return out;
}

/// At size n on GPU-made points: uniform, Groth16-mixed (split) and skewed scalars against the closed form,
/// with the table built in place over the points.
template <class Curve>
void check_large(std::uint64_t seed, std::size_t n) {
  using Scalar = typename Curve::Scalar;
  CAPTURE(n);
  const KnownPoints<Curve> known(seed, n);
  {
    const auto engine = table_engine<Curve>(n, {});
    const auto table = device_table<Curve>(engine, known.points.data(), n, true);
    const auto uniform = random_scalars_parallel<Scalar>(seed + 1, n);
    CHECK(table_msm(engine, table.data(), to_device(uniform), n) == known.expected_msm(uniform));
    // Skewed: most points share two digits' buckets (hot buckets across many chunks).
    auto skewed = random_scalars_parallel<Scalar>(seed + 2, n);
    for (std::size_t i = 0; i + 3 < n; i += 8) {
      skewed[i] = skewed[i + 1] = skewed[i + 2] = Scalar::from_u64(5);
      skewed[i + 3] = -Scalar::from_u64(1000);
    }
    CHECK(table_msm(engine, table.data(), to_device(skewed), n) == known.expected_msm(skewed));
  }
  const auto mix = groth16_mix<Scalar>(seed + 3, n);
  const auto split = table_engine<Curve>(n, {.split_zero_one = true, .expected_dense = n * 3 / 10});
  const auto table = device_table<Curve>(split, known.points.data(), n, false);
  CHECK(table_msm(split, table.data(), to_device(mix), n) == known.expected_msm(mix));
}

/// One scalar sort, then sorted MSMs over two G1 point sets and one G2 set (G2 first: the order must not
/// matter), plain or precomputed, against cpu::msm.
template <class C>
void check_shared_sort(std::uint64_t seed, std::size_t n, bool precomputed) {
  using G1 = typename C::G1Params;
  using G2 = typename C::G2Params;
  using Scalar = typename C::Fr;
  CAPTURE(n);
  CAPTURE(precomputed);
  std::mt19937_64 rng(seed);
  const auto p = host_points<G1>(seed + 1, n), q = host_points<G1>(seed + 2, n);
  const auto r = host_points<G2>(seed + 3, n);
  std::vector<Scalar> scalars = groth16_mix<Scalar>(seed + 4, n);
  const std::vector<Scalar> edges = edge_scalars<Scalar>(rng, std::min<std::size_t>(n, 64));
  std::copy(edges.begin(), edges.end(), scalars.begin());
  const cuda::MsmOptions options{.split_zero_one = true, .precomputed = precomputed};
  const cuda::BasicMsmEngine<C> g1(cuda::MsmGroup::g1, n, options), g2(cuda::MsmGroup::g2, n, options);
  REQUIRE(g2.shares_sort(g1));
  const auto device_p = to_device(p), device_q = to_device(q);
  const auto device_r = to_device(r);
  cuda::DeviceBuffer<AffinePoint<G1>> table_p, table_q;
  cuda::DeviceBuffer<AffinePoint<G2>> table_r;
  if (precomputed) {
    table_p = device_table<G1>(g1, device_p.data(), n, false);
    table_q = device_table<G1>(g1, device_q.data(), n, false);
    table_r = device_table<G2>(g2, device_r.data(), n, false);
  }
  const auto device_scalars = to_device(scalars);
  cuda::DeviceBuffer<std::byte> scratch(std::max(g1.scratch_bytes(), g2.scratch_bytes()));
  cuda::DeviceBuffer<JacobianPoint<G1>> g1_results(2);
  cuda::DeviceBuffer<JacobianPoint<G2>> g2_result(1);
  cuda::Stream stream;
  g1.enqueue_sort(device_scalars.data(), n, scratch.data(), stream.get());
  g2.enqueue_sorted_msm_g2(precomputed ? table_r.data() : device_r.data(), n, g2_result.data(),
                           scratch.data(), stream.get());
  g1.enqueue_sorted_msm_g1(precomputed ? table_p.data() : device_p.data(), n, g1_results.data(),
                           scratch.data(), stream.get());
  g1.enqueue_sorted_msm_g1(precomputed ? table_q.data() : device_q.data(), n, g1_results.data() + 1,
                           scratch.data(), stream.get());
  stream.synchronize();
  const auto g1_out = to_host(g1_results, 2);
  const auto g2_out = to_host(g2_result, 1);
  CHECK(g1_out[0] == cpu::msm(p, scalars));
  CHECK(g1_out[1] == cpu::msm(q, scalars));
  CHECK(g2_out[0] == cpu::msm(r, scalars));
}

}  // namespace

TEST_CASE("gpu/msm_shared/one scalar sort serves G1 and G2 point sets, plain and precomputed") {
  const std::uint64_t seed = test_seed();
  MESSAGE("seed ", seed);
  CAPTURE(seed);
  for (bool precomputed : {false, true}) {
    for (std::size_t n : {std::size_t{1}, std::size_t{300}, std::size_t{20011}}) {
      check_shared_sort<Bls12_381>(seed + n, n, precomputed);
      check_shared_sort<Bn254>(seed + 7 * n, n, precomputed);
    }
  }
  // Plans that differ do not share their sorted scalars.
  const cuda::MsmEngine split_g1(cuda::MsmGroup::g1, 1000, {.split_zero_one = true});
  CHECK(cuda::MsmEngine(cuda::MsmGroup::g2, 1000, {.split_zero_one = true}).shares_sort(split_g1));
  CHECK_FALSE(cuda::MsmEngine(cuda::MsmGroup::g1, 1000).shares_sort(split_g1));
  CHECK_FALSE(cuda::MsmEngine(cuda::MsmGroup::g1, 1001, {.split_zero_one = true}).shares_sort(split_g1));
  CHECK_FALSE(cuda::MsmEngine(cuda::MsmGroup::g1, 1000,
                              {.split_zero_one = true, .window_bits = split_g1.window_bits() + 1})
                  .shares_sort(split_g1));
  CHECK_FALSE(cuda::MsmEngine(cuda::MsmGroup::g1, 1000, {.split_zero_one = true, .precomputed = true})
                  .shares_sort(split_g1));
}

TEST_CASE("gpu/msm_table/BLS12-381 G1 and G2 tables and MSMs over them equal cpu::msm") {
  const std::uint64_t seed = test_seed();
  MESSAGE("seed ", seed);
  CAPTURE(seed);
  for (std::size_t n : {std::size_t{1}, std::size_t{37}, std::size_t{300}, std::size_t{4099}})
    check_small<G1Params>(seed + n, n, {0, 5, 13});
  for (std::size_t n : {std::size_t{1}, std::size_t{61}, std::size_t{1029}})
    check_small<G2Params>(seed + n, n, {0, 7});
}

TEST_CASE("gpu/msm_table/BN254 G1 and G2 tables and MSMs over them equal cpu::msm") {
  const std::uint64_t seed = test_seed();
  MESSAGE("seed ", seed);
  CAPTURE(seed);
  for (std::size_t n : {std::size_t{1}, std::size_t{53}, std::size_t{300}, std::size_t{4099}})
    check_small<bn254::G1Params>(seed + n, n, {0, 6, 13});
  for (std::size_t n : {std::size_t{2}, std::size_t{61}, std::size_t{1029}})
    check_small<bn254::G2Params>(seed + n, n, {0, 9});
}

TEST_CASE("gpu/msm_table/large tables: uniform, Groth16-mixed and skewed scalars equal the closed form") {
  const std::uint64_t seed = test_seed();
  MESSAGE("seed ", seed);
  CAPTURE(seed);
  check_large<G1Params>(seed, (std::size_t{1} << 22) + 5);
  check_large<G2Params>(seed + 1, std::size_t{1} << 18);
  check_large<bn254::G1Params>(seed + 2, (std::size_t{1} << 20) + 3);
  check_large<bn254::G2Params>(seed + 3, std::size_t{1} << 18);
}

TEST_CASE("gpu/msm_table/misuse is refused with Error") {
  const cuda::MsmEngine plain(cuda::MsmGroup::g1, 100);
  CHECK(plain.table_points(100) == static_cast<std::size_t>(plain.windows()) * 100);
  CHECK_THROWS_AS(plain.enqueue_table_g1(nullptr, 100, nullptr, nullptr, nullptr), Error);
  const auto g1 = table_engine<G1Params>(100, {});
  CHECK_THROWS_AS(g1.enqueue_table_g2(nullptr, 100, nullptr, nullptr, nullptr), Error);
  cuda::DeviceBuffer<std::byte> scratch(g1.table_scratch_bytes(100));
  CHECK_THROWS_AS(g1.enqueue_table_g1(nullptr, 101, nullptr, scratch.data(), nullptr), Error);
  CHECK_THROWS_AS(g1.enqueue_table_g1(nullptr, 0, nullptr, scratch.data(), nullptr), Error);
  // A table of more than 2^31 - 1 points cannot be indexed.
  CHECK_THROWS_AS(table_engine<G1Params>(std::size_t{1} << 28, {}), Error);
}
