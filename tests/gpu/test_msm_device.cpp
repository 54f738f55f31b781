// The GPU MSM (cuda/gpu_msm.hpp) and fixed-base multiplication (cuda/gpu_fixed_base.hpp) on the device:
// against naive double-and-add on the host at small sizes (G1 and G2, every scalar and point edge case, both
// scalar forms, forced small windows so that spanning and hot buckets are common), and at large sizes against
// the closed form [sum s_i k_i]·G for points P_i = [k_i]·G made on the GPU. Fresh random inputs every run;
// the seed is printed on failure.
#include <doctest/doctest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <span>
#include <vector>

#include <proofline/cuda/check.hpp>
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

/// One MSM on the device through the public API; the result lands in pinned host memory or device memory.
template <class Curve>
JacobianPoint<Curve> device_msm(const cuda::MsmEngine& engine, const AffinePoint<Curve>* points,
                                const cuda::DeviceBuffer<Fr>& scalars, std::size_t n, bool pinned_result) {
  cuda::DeviceBuffer<std::byte> scratch(engine.scratch_bytes());
  cuda::Stream stream;
  JacobianPoint<Curve> out;
  cuda::DeviceBuffer<JacobianPoint<Curve>> device_result(1);
  JacobianPoint<Curve>* target = device_result.data();
  const auto backend = memory::default_backend();
  const memory::PinnedBuffer pinned = backend->allocate(sizeof(JacobianPoint<Curve>));
  if (pinned_result) target = static_cast<JacobianPoint<Curve>*>(pinned.data);
  if constexpr (std::is_same_v<Curve, G1Params>) {
    engine.enqueue_msm_g1(points, scalars.data(), n, target, scratch.data(), stream.get());
  } else {
    engine.enqueue_msm_g2(points, scalars.data(), n, target, scratch.data(), stream.get());
  }
  stream.synchronize();
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
JacobianPoint<Curve> device_msm(const std::vector<AffinePoint<Curve>>& points, const std::vector<Fr>& scalars,
                                const cuda::MsmOptions& options, bool pinned_result = false) {
  const cuda::MsmEngine engine(std::is_same_v<Curve, G1Params> ? cuda::MsmGroup::g1 : cuda::MsmGroup::g2,
                               std::max<std::size_t>(points.size(), 1), options);
  const auto device_points = to_device(points);
  const auto device_scalars = to_device(scalars);
  return device_msm<Curve>(engine, device_points.data(), device_scalars, scalars.size(), pinned_result);
}

std::vector<Fr> canonical_form(const std::vector<Fr>& scalars) {
  std::vector<Fr> out(scalars.size());
  for (std::size_t i = 0; i < scalars.size(); ++i) out[i] = Fr::from_montgomery(scalars[i].canonical());
  return out;
}

/// Groth16-like: 20% zero, 50% one, 30% random (a few of them r - 1).
std::vector<Fr> groth16_mix(std::uint64_t seed, std::size_t n) {
  std::vector<Fr> out = random_scalars_parallel(seed, n);
  std::mt19937_64 rng(seed + 1);
  for (auto& s : out) {
    const auto u = rng() % 100;
    if (u < 20) {
      s = Fr::zero();
    } else if (u < 70) {
      s = Fr::one();
    } else if (u < 72) {
      s = -Fr::one();
    }
  }
  return out;
}

template <class Curve>
void check_small_against_naive(std::uint64_t seed, std::size_t n) {
  std::mt19937_64 rng(seed);
  CAPTURE(n);
  auto points = random_points<Curve>(rng, n);
  auto scalars = edge_scalars(rng, n);
  if (n >= 40) {
    points[3] = AffinePoint<Curve>::infinity();
    points[10] = points[11] = points[12];  // equal points in one bucket: the doubling branch
    scalars[10] = scalars[11] = scalars[12];
    points[20] = -points[21];  // P and -P in one bucket
    scalars[20] = scalars[21];
    for (std::size_t i = 30; i < 40; ++i) scalars[i] = Fr::from_u64(77);  // a shared digit
  }
  const JacobianPoint<Curve> expected = naive_msm<Curve>(points, scalars);
  const std::vector<Fr> canonical = canonical_form(scalars);
  for (int window_bits : {0, 3, 8, 13}) {
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

}  // namespace

TEST_CASE("gpu/msm/G1 small sizes equal naive double-and-add") {
  const std::uint64_t seed = test_seed();
  MESSAGE("seed ", seed);
  CAPTURE(seed);
  for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{100}, std::size_t{1023},
                        std::size_t{1024}}) {
    check_small_against_naive<G1Params>(seed + n, n);
  }
}

TEST_CASE("gpu/msm/G2 small sizes equal naive double-and-add") {
  const std::uint64_t seed = test_seed();
  MESSAGE("seed ", seed);
  CAPTURE(seed);
  for (std::size_t n : {std::size_t{1}, std::size_t{77}, std::size_t{1024}}) {
    check_small_against_naive<G2Params>(seed + n, n);
  }
}

TEST_CASE("gpu/msm/edge inputs: all zero scalars, infinity points, n = 0, fewer points than planned") {
  const std::uint64_t seed = test_seed();
  MESSAGE("seed ", seed);
  CAPTURE(seed);
  std::mt19937_64 rng(seed);
  auto points = random_points<G1Params>(rng, 300);
  for (bool split : {false, true}) {
    cuda::MsmOptions options;
    options.split_zero_one = split;
    CHECK(device_msm(points, std::vector<Fr>(300, Fr::zero()), options).is_infinity());
    std::vector<G1Affine> infinity(300, G1Affine::infinity());
    CHECK(device_msm(infinity, edge_scalars(rng, 300), options).is_infinity());
    const cuda::MsmEngine engine(cuda::MsmGroup::g1, 300, options);
    const auto device_points = to_device(points);
    const auto scalars = edge_scalars(rng, 300);
    const auto device_scalars = to_device(scalars);
    CHECK(device_msm<G1Params>(engine, device_points.data(), device_scalars, 0, false).is_infinity());
    CHECK(device_msm<G1Params>(engine, device_points.data(), device_scalars, 123, true) ==
          naive_msm<G1Params>(std::span(points).first(123), std::span(scalars).first(123)));
  }
  const cuda::MsmEngine g2_engine(cuda::MsmGroup::g2, 10);
  CHECK_THROWS_AS(g2_engine.enqueue_msm_g1(nullptr, nullptr, 1, nullptr, nullptr, nullptr), Error);
}

TEST_CASE("gpu/fixed_base/G1 and G2 results equal host scalar multiplication") {
  const std::uint64_t seed = test_seed();
  MESSAGE("seed ", seed);
  CAPTURE(seed);
  std::mt19937_64 rng(seed);
  {
    const G1Affine base = random_points<G1Params>(rng, 1)[0];
    const auto scalars = edge_scalars(rng, 3000);
    std::vector<G1Affine> out(scalars.size());
    cuda::fixed_base_mul_g1(base, scalars, out);
    std::size_t mismatches = 0;
    for (std::size_t i = 0; i < scalars.size(); ++i) mismatches += out[i] != base.mul(scalars[i]).to_affine();
    CHECK(mismatches == 0);
  }
  {
    const G2Affine base = random_points<G2Params>(rng, 1)[0];
    const auto scalars = edge_scalars(rng, 700);
    std::vector<G2Affine> out(scalars.size());
    cuda::fixed_base_mul_g2(base, scalars, out);
    std::size_t mismatches = 0;
    for (std::size_t i = 0; i < scalars.size(); ++i) mismatches += out[i] != base.mul(scalars[i]).to_affine();
    CHECK(mismatches == 0);
  }
  {
    // Several chunks of the host path (2^20 per chunk): sample each chunk's first, last and random outputs.
    const std::size_t n = (std::size_t{1} << 21) + 12345;
    const auto scalars = random_scalars_parallel(seed, n);
    std::vector<G1Affine> out(n);
    const cuda::FixedBaseMul<G1Params> generator_table(G1Affine::generator());
    generator_table.run(scalars, out);
    std::vector<std::size_t> sample = {0,
                                       (std::size_t{1} << 20) - 1,
                                       std::size_t{1} << 20,
                                       (std::size_t{1} << 21) - 1,
                                       std::size_t{1} << 21,
                                       n - 1};
    for (int k = 0; k < 200; ++k) sample.push_back(rng() % n);
    std::size_t mismatches = 0;
    for (std::size_t i : sample) mismatches += out[i] != G1Affine::generator().mul(scalars[i]).to_affine();
    CHECK(mismatches == 0);
  }
}

TEST_CASE("gpu/msm/G1 large sizes equal the closed form on GPU-made points") {
  const std::uint64_t seed = test_seed();
  MESSAGE("seed ", seed);
  CAPTURE(seed);
  const std::size_t max_n = std::size_t{1} << 24;
  const KnownPoints<G1Params> known(seed, max_n);
  for (std::size_t n : {std::size_t{1} << 16, (std::size_t{1} << 20) + 3, std::size_t{1} << 22, max_n}) {
    CAPTURE(n);
    const auto scalars = random_scalars_parallel(seed + n, n);
    const auto device_scalars = to_device(scalars);
    const cuda::MsmEngine engine(cuda::MsmGroup::g1, n);
    CHECK(device_msm<G1Params>(engine, known.points.data(), device_scalars, n, true) ==
          known.expected_msm(scalars));
  }
  // Skewed scalars: one value shared by most points makes a bucket spread over thousands of chunks (hot
  // path).
  const std::size_t n = std::size_t{1} << 20;
  auto scalars = random_scalars_parallel(seed + 7, n);
  for (std::size_t i = 0; i < n; i += 8) scalars[i] = scalars[i + 1] = scalars[i + 2] = Fr::from_u64(5);
  for (std::size_t i = 3; i < n; i += 8) scalars[i] = -Fr::from_u64(1000);
  const auto device_scalars = to_device(scalars);
  const cuda::MsmEngine engine(cuda::MsmGroup::g1, n);
  CHECK(device_msm<G1Params>(engine, known.points.data(), device_scalars, n, false) ==
        known.expected_msm(scalars));
}

TEST_CASE("gpu/msm/Groth16 split of zeros and ones equals the closed form and the unsplit MSM") {
  const std::uint64_t seed = test_seed();
  MESSAGE("seed ", seed);
  CAPTURE(seed);
  const std::size_t n = std::size_t{1} << 22;
  const KnownPoints<G1Params> known(seed, n);
  const auto scalars = groth16_mix(seed, n);
  const auto device_scalars = to_device(scalars);
  cuda::MsmOptions split;
  split.split_zero_one = true;
  split.expected_dense = n * 3 / 10;
  const auto expected = known.expected_msm(scalars);
  CHECK(device_msm<G1Params>(cuda::MsmEngine(cuda::MsmGroup::g1, n, split), known.points.data(),
                             device_scalars, n, true) == expected);
  CHECK(device_msm<G1Params>(cuda::MsmEngine(cuda::MsmGroup::g1, n), known.points.data(), device_scalars, n,
                             true) == expected);
}

TEST_CASE("gpu/msm/G2 large sizes equal the closed form on GPU-made points") {
  const std::uint64_t seed = test_seed();
  MESSAGE("seed ", seed);
  CAPTURE(seed);
  const std::size_t max_n = std::size_t{1} << 20;
  const KnownPoints<G2Params> known(seed, max_n);
  for (std::size_t n : {std::size_t{1} << 16, max_n}) {
    CAPTURE(n);
    const auto scalars = n == max_n ? groth16_mix(seed + n, n) : random_scalars_parallel(seed + n, n);
    const auto device_scalars = to_device(scalars);
    cuda::MsmOptions options;
    options.split_zero_one = n == max_n;
    const cuda::MsmEngine engine(cuda::MsmGroup::g2, n, options);
    CHECK(device_msm<G2Params>(engine, known.points.data(), device_scalars, n, true) ==
          known.expected_msm(scalars));
  }
}
