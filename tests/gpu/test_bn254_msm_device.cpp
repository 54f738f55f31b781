// The GPU MSM (BasicMsmEngine<Bn254>) and fixed-base multiplication on BN254's G1 and G2: against the CPU
// MSM (cpu::msm) on fresh random points made on the host, with every scalar and point edge case (0, +-1,
// r - 1, the abs trick's border, infinity points, equal and opposite points in one bucket), both scalar
// forms, the Groth16 split and forced small windows, at sizes 1 to 2^16 + 3; at 2^20 against the closed form
// [sum s_i k_i]·G for points P_i = [k_i]·G made by the GPU fixed-base kernel, which is itself checked against
// host scalar multiplication. The seed is printed on failure.
#include <doctest/doctest.h>

#include <cuda_runtime.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <span>
#include <type_traits>
#include <vector>

#include <proofline/arith/curves.hpp>
#include <proofline/cpu/msm.hpp>
#include <proofline/cuda/device_buffer.hpp>
#include <proofline/cuda/gpu_fixed_base.hpp>
#include <proofline/cuda/gpu_msm.hpp>
#include <proofline/cuda/stream.hpp>
#include <proofline/memory/pinning.hpp>
#include <proofline/util/error.hpp>

#include "msm_test_support.hpp"
#include "support/field_vectors.hpp"
#include "support/msm_reference.hpp"

using namespace proofline;
using namespace proofline::gpu_test;
using namespace proofline::test_support;

namespace {

using Engine = cuda::BasicMsmEngine<Bn254>;

template <class Curve>
constexpr bool is_g1 = std::is_same_v<Curve, bn254::G1Params>;

/// P_i = [k_i]·G for uniform k_i, on the host in parallel: the CPU reference's inputs owe nothing to GPU
/// code.
template <class Curve>
std::vector<AffinePoint<Curve>> host_points(std::uint64_t seed, std::size_t n) {
  const std::vector<bn254::Fr> logs = random_scalars_parallel<bn254::Fr>(seed, n);
  std::vector<AffinePoint<Curve>> out(n);
  tbb::parallel_for(std::size_t{0}, n, [&](std::size_t i) {
    out[i] = AffinePoint<Curve>::generator().mul(logs[i]).to_affine();
  });
  return out;
}

/// One MSM through the public API; the result lands in pinned host memory or device memory.
template <class Curve>
JacobianPoint<Curve> device_msm(const Engine& engine, const AffinePoint<Curve>* points,
                                const cuda::DeviceBuffer<bn254::Fr>& scalars, std::size_t n,
                                bool pinned_result) {
  cuda::DeviceBuffer<std::byte> scratch(engine.scratch_bytes());
  cuda::Stream stream;
  cuda::DeviceBuffer<JacobianPoint<Curve>> device_result(1);
  const auto backend = memory::default_backend();
  const memory::PinnedBuffer pinned = backend->allocate(sizeof(JacobianPoint<Curve>));
  JacobianPoint<Curve>* target =
      pinned_result ? static_cast<JacobianPoint<Curve>*>(pinned.data) : device_result.data();
  if constexpr (is_g1<Curve>) {
    engine.enqueue_msm_g1(points, scalars.data(), n, target, scratch.data(), stream.get());
  } else {
    engine.enqueue_msm_g2(points, scalars.data(), n, target, scratch.data(), stream.get());
  }
  stream.synchronize();
  JacobianPoint<Curve> out;
  if (pinned_result) {
    out = *static_cast<const JacobianPoint<Curve>*>(pinned.data);
  } else {
    device_result.download(&out, 1, stream.get());
    stream.synchronize();
  }
  backend->deallocate(pinned);
  return out;
}

template <class Curve>
JacobianPoint<Curve> device_msm(const std::vector<AffinePoint<Curve>>& points,
                                const std::vector<bn254::Fr>& scalars, const cuda::MsmOptions& options,
                                bool pinned_result = false) {
  const Engine engine(is_g1<Curve> ? cuda::MsmGroup::g1 : cuda::MsmGroup::g2,
                      std::max<std::size_t>(points.size(), 1), options);
  const auto device_points = to_device(points);
  const auto device_scalars = to_device(scalars);
  return device_msm<Curve>(engine, device_points.data(), device_scalars, scalars.size(), pinned_result);
}

/// Edge scalars and points: infinity points, equal points with equal scalars (the bucket doubling), P and -P
/// in one bucket, a digit shared by ten scalars, r - 1 and 1 beside the edges of edge_scalars.
template <class Curve>
void plant_edges(std::vector<AffinePoint<Curve>>& points, std::vector<bn254::Fr>& scalars) {
  const std::size_t n = points.size();
  if (n < 50) return;
  points[3] = points[n - 1] = AffinePoint<Curve>::infinity();
  points[10] = points[11] = points[12];
  scalars[10] = scalars[11] = scalars[12];
  points[20] = -points[21];
  scalars[20] = scalars[21];
  for (std::size_t i = 30; i < 40; ++i) scalars[i] = bn254::Fr::from_u64(77);
  scalars[41] = -bn254::Fr::one();
  scalars[42] = bn254::Fr::one();
  scalars[43] = bn254::Fr::zero();
}

template <class Curve>
void check_against_cpu_msm(std::uint64_t seed, std::size_t n, std::initializer_list<int> windows) {
  CAPTURE(n);
  std::mt19937_64 rng(seed);
  std::vector<AffinePoint<Curve>> points = host_points<Curve>(seed, n);
  std::vector<bn254::Fr> scalars = edge_scalars<bn254::Fr>(rng, n);
  plant_edges(points, scalars);
  const JacobianPoint<Curve> expected = cpu::msm(points, scalars);
  std::vector<bn254::Fr> canonical(n);
  for (std::size_t i = 0; i < n; ++i) canonical[i] = bn254::Fr::from_montgomery(scalars[i].canonical());
  for (int window_bits : windows) {
    CAPTURE(window_bits);
    cuda::MsmOptions options;
    options.window_bits = window_bits;
    CHECK(device_msm(points, scalars, options) == expected);
    options.split_zero_one = true;
    CHECK(device_msm(points, scalars, options, true) == expected);
    options.scalar_form = cuda::ScalarForm::canonical;
    CHECK(device_msm(points, canonical, options) == expected);
  }
}

/// 20% zero, 50% one, 2% r - 1, the rest uniform.
std::vector<bn254::Fr> groth16_mix(std::uint64_t seed, std::size_t n) {
  std::vector<bn254::Fr> out = random_scalars_parallel<bn254::Fr>(seed, n);
  std::mt19937_64 rng(seed + 1);
  for (auto& s : out) {
    const auto u = rng() % 100;
    s = u < 20 ? bn254::Fr::zero() : u < 70 ? bn254::Fr::one() : u < 72 ? -bn254::Fr::one() : s;
  }
  return out;
}

template <class Curve>
std::size_t fixed_base_mismatches(std::mt19937_64& rng, std::size_t n) {
  const AffinePoint<Curve> base = random_points<Curve>(rng, 1)[0];
  const std::vector<bn254::Fr> scalars = edge_scalars<bn254::Fr>(rng, n);
  std::vector<AffinePoint<Curve>> out(n);
  if constexpr (is_g1<Curve>) {
    cuda::fixed_base_mul_g1(base, scalars, out);
  } else {
    cuda::fixed_base_mul_g2(base, scalars, out);
  }
  std::size_t bad = 0;
  for (std::size_t i = 0; i < n; ++i) bad += out[i] != base.mul(scalars[i]).to_affine();
  return bad;
}

}  // namespace

TEST_CASE("gpu/bn254/G1 MSM equals cpu::msm from 1 to 2^16 + 3 points with edge scalars and points") {
  const std::uint64_t seed = test_seed();
  MESSAGE("seed ", seed);
  CAPTURE(seed);
  for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{100}, std::size_t{1023}})
    check_against_cpu_msm<bn254::G1Params>(seed + n, n, {0, 3, 8, 13});
  check_against_cpu_msm<bn254::G1Params>(seed, (std::size_t{1} << 16) + 3, {0, 5, 16});
}

TEST_CASE("gpu/bn254/G2 MSM equals cpu::msm from 1 to 2^16 + 1 points with edge scalars and points") {
  const std::uint64_t seed = test_seed();
  MESSAGE("seed ", seed);
  CAPTURE(seed);
  for (std::size_t n : {std::size_t{1}, std::size_t{77}, std::size_t{1024}})
    check_against_cpu_msm<bn254::G2Params>(seed + n, n, {0, 3, 8, 13});
  check_against_cpu_msm<bn254::G2Params>(seed, (std::size_t{1} << 16) + 1, {0, 7});
}

TEST_CASE("gpu/bn254/MSM edge inputs: all zero scalars, infinity points, n = 0, fewer points than planned") {
  const std::uint64_t seed = test_seed();
  MESSAGE("seed ", seed);
  CAPTURE(seed);
  std::mt19937_64 rng(seed);
  const auto points = random_points<bn254::G1Params>(rng, 300);
  for (bool split : {false, true}) {
    cuda::MsmOptions options;
    options.split_zero_one = split;
    CHECK(device_msm(points, std::vector<bn254::Fr>(300, bn254::Fr::zero()), options).is_infinity());
    const std::vector<bn254::G1Affine> infinity(300, bn254::G1Affine::infinity());
    CHECK(device_msm(infinity, edge_scalars<bn254::Fr>(rng, 300), options).is_infinity());
    const Engine engine(cuda::MsmGroup::g1, 300, options);
    const auto device_points = to_device(points);
    const auto scalars = edge_scalars<bn254::Fr>(rng, 300);
    const auto device_scalars = to_device(scalars);
    CHECK(device_msm<bn254::G1Params>(engine, device_points.data(), device_scalars, 0, false).is_infinity());
    CHECK(device_msm<bn254::G1Params>(engine, device_points.data(), device_scalars, 123, true) ==
          naive_msm<bn254::G1Params>(std::span(points).first(123), std::span(scalars).first(123)));
  }
  const Engine g2_engine(cuda::MsmGroup::g2, 10);
  CHECK_THROWS_AS(g2_engine.enqueue_msm_g1(nullptr, nullptr, 1, nullptr, nullptr, nullptr), Error);
}

TEST_CASE("gpu/bn254/fixed-base G1 and G2 results equal host scalar multiplication") {
  const std::uint64_t seed = test_seed();
  MESSAGE("seed ", seed);
  CAPTURE(seed);
  std::mt19937_64 rng(seed);
  CHECK(fixed_base_mismatches<bn254::G1Params>(rng, 3000) == 0);
  CHECK(fixed_base_mismatches<bn254::G2Params>(rng, 700) == 0);
}

TEST_CASE("gpu/bn254/G1 and G2 MSMs at 2^20 equal the closed form on GPU-made points") {
  const std::uint64_t seed = test_seed();
  MESSAGE("seed ", seed);
  CAPTURE(seed);
  const std::size_t n = std::size_t{1} << 20;
  const KnownPoints<bn254::G1Params> g1(seed, n);
  {
    const auto uniform = random_scalars_parallel<bn254::Fr>(seed + 1, n);
    CHECK(device_msm<bn254::G1Params>(Engine(cuda::MsmGroup::g1, n), g1.points.data(), to_device(uniform), n,
                                      true) == g1.expected_msm(uniform));
  }
  {
    const auto mix = groth16_mix(seed + 2, n);
    cuda::MsmOptions split;
    split.split_zero_one = true;
    split.expected_dense = n * 3 / 10;
    CHECK(device_msm<bn254::G1Params>(Engine(cuda::MsmGroup::g1, n, split), g1.points.data(), to_device(mix),
                                      n, true) == g1.expected_msm(mix));
  }
  {
    // Skewed: most points share two scalars, so their buckets spread over thousands of chunks (hot path).
    auto skewed = random_scalars_parallel<bn254::Fr>(seed + 3, n);
    for (std::size_t i = 0; i < n; i += 8) skewed[i] = skewed[i + 1] = skewed[i + 2] = bn254::Fr::from_u64(5);
    for (std::size_t i = 3; i < n; i += 8) skewed[i] = -bn254::Fr::from_u64(1000);
    CHECK(device_msm<bn254::G1Params>(Engine(cuda::MsmGroup::g1, n), g1.points.data(), to_device(skewed), n,
                                      false) == g1.expected_msm(skewed));
  }
  const KnownPoints<bn254::G2Params> g2(seed + 4, n);
  const auto mix = groth16_mix(seed + 5, n);
  cuda::MsmOptions split;
  split.split_zero_one = true;
  CHECK(device_msm<bn254::G2Params>(Engine(cuda::MsmGroup::g2, n, split), g2.points.data(), to_device(mix), n,
                                    true) == g2.expected_msm(mix));
  const auto uniform = random_scalars_parallel<bn254::Fr>(seed + 6, n);
  CHECK(device_msm<bn254::G2Params>(Engine(cuda::MsmGroup::g2, n), g2.points.data(), to_device(uniform), n,
                                    true) == g2.expected_msm(uniform));
}
