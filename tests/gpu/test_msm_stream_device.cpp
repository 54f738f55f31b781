// The streamed MSM (cuda/gpu_msm_stream.hpp): points in page-locked host memory, uploaded in batches through
// two staging buffers. Small staging buffers force many batches (and a last, short one), so every result is
// the sum of several partial MSMs; results are checked against naive double-and-add and against the same
// MSM over device-resident points, for G1 and G2 of both curves, with and without the 0/1 split; calls follow
// each other on one stream without waiting; pageable points are refused. A large case streams 2^22 GPU-made
// points through the default buffers against the closed form. The points sit in pinned buffers of the
// cuda-register backend.
#include <doctest/doctest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <memory>
#include <random>
#include <span>
#include <vector>

#include <proofline/arith/random.hpp>
#include <proofline/cuda/device_buffer.hpp>
#include <proofline/cuda/gpu_msm.hpp>
#include <proofline/cuda/gpu_msm_stream.hpp>
#include <proofline/cuda/stream.hpp>
#include <proofline/memory/page_locked.hpp>
#include <proofline/memory/pinning.hpp>
#include <proofline/util/error.hpp>

#include "msm_test_support.hpp"
#include "support/field_vectors.hpp"
#include "support/msm_reference.hpp"

using namespace proofline;
using namespace proofline::gpu_test;
using namespace proofline::test_support;

namespace {

/// The curve whose engine serves the group `Group` (G1Params, bn254::G2Params, ...).
template <class Group>
using CurveOf =
    std::conditional_t<std::is_same_v<Group, bn254::G1Params> || std::is_same_v<Group, bn254::G2Params>,
                       Bn254, Bls12_381>;

template <class Group>
constexpr bool is_g1 = std::is_same_v<Group, typename CurveOf<Group>::G1Params>;

template <class Curve>
constexpr cuda::MsmGroup group_of() {
  return is_g1<Curve> ? cuda::MsmGroup::g1 : cuda::MsmGroup::g2;
}

/// Zeros, ones, r - 1 and random scalars (the split's three classes and Pippenger's input).
template <class F>
std::vector<F> mixed_scalars(std::mt19937_64& rng, std::size_t n) {
  std::vector<F> out(n);
  for (auto& s : out) {
    const auto u = rng() % 10;
    s = u < 2 ? F::zero() : u < 5 ? F::one() : u < 6 ? -F::one() : random_field<F>(rng);
  }
  return out;
}

/// A copy of `points` in a pinned block of the cuda-register backend, returned to it at scope exit.
template <class Curve>
struct PinnedPoints {
  std::unique_ptr<memory::PinningBackend> backend =
      memory::make_backend(memory::PinningKind::cuda_host_register);
  memory::PinnedBuffer block;
  AffinePoint<Curve>* data = nullptr;

  explicit PinnedPoints(std::span<const AffinePoint<Curve>> points)
      : block(backend->allocate(points.size_bytes())), data(static_cast<AffinePoint<Curve>*>(block.data)) {
    std::copy(points.begin(), points.end(), data);
  }
  ~PinnedPoints() { backend->deallocate(block); }
  PinnedPoints(const PinnedPoints&) = delete;
  PinnedPoints& operator=(const PinnedPoints&) = delete;
};

template <class Curve>
void enqueue(cuda::MsmPointStream& stream, const cuda::BasicMsmEngine<CurveOf<Curve>>& engine,
             const AffinePoint<Curve>* points, const typename Curve::Scalar* scalars, std::size_t n,
             JacobianPoint<Curve>* result, void* scratch, cudaStream_t s) {
  if constexpr (is_g1<Curve>)
    stream.enqueue_msm_g1(engine, points, scalars, n, result, scratch, s);
  else
    stream.enqueue_msm_g2(engine, points, scalars, n, result, scratch, s);
}

template <class Curve>
void check_streamed_small(std::uint64_t seed, std::size_t n, std::size_t batch_points) {
  CAPTURE(n);
  CAPTURE(batch_points);
  std::mt19937_64 rng(seed);
  auto points = random_points<Curve>(rng, n);
  points[n / 2] = AffinePoint<Curve>::infinity();
  points[batch_points] = points[batch_points - 1];  // equal points on both sides of a batch border
  const auto scalars = mixed_scalars<typename Curve::Scalar>(rng, n);
  CHECK_FALSE(memory::page_locked(std::as_bytes(std::span(points))));
  const PinnedPoints<Curve> pinned(points);
  CHECK(memory::page_locked(std::as_bytes(std::span(pinned.data, n))));
  const auto device_scalars = to_device(scalars);
  cuda::MsmPointStream stream(batch_points * sizeof(AffinePoint<Curve>));
  cuda::Stream compute;
  const JacobianPoint<Curve> expected = naive_msm<Curve>(points, scalars);
  for (bool split : {false, true}) {
    CAPTURE(split);
    const cuda::BasicMsmEngine<CurveOf<Curve>> engine(group_of<Curve>(), batch_points,
                                                      cuda::MsmOptions{.split_zero_one = split});
    REQUIRE(stream.batch_points(engine) == batch_points);
    cuda::DeviceBuffer<std::byte> scratch(engine.scratch_bytes());
    cuda::DeviceBuffer<JacobianPoint<Curve>> results(3);
    const auto before = stream.stats();
    // Three calls back to back on one stream: the whole vector, a prefix, and nothing.
    enqueue<Curve>(stream, engine, pinned.data, device_scalars.data(), n, results.data(), scratch.data(),
                   compute);
    enqueue<Curve>(stream, engine, pinned.data, device_scalars.data(), batch_points + 1, results.data() + 1,
                   scratch.data(), compute);
    enqueue<Curve>(stream, engine, pinned.data, device_scalars.data(), 0, results.data() + 2, scratch.data(),
                   compute);
    compute.synchronize();
    const auto out = to_host(results, 3);
    CHECK(out[0] == expected);
    CHECK(out[1] == naive_msm<Curve>(std::span(points).first(batch_points + 1),
                                     std::span(scalars).first(batch_points + 1)));
    CHECK(out[2].is_infinity());
    const auto after = stream.stats();
    CHECK(after.calls - before.calls == 3);
    CHECK(after.batches - before.batches == (n + batch_points - 1) / batch_points + 2);
    CHECK(after.bytes_uploaded - before.bytes_uploaded ==
          (n + batch_points + 1) * sizeof(AffinePoint<Curve>));
  }
}

}  // namespace

TEST_CASE("gpu/msm_stream/G1 and G2 from page-locked host memory equal naive double-and-add") {
  const std::uint64_t seed = test_seed();
  MESSAGE("seed ", seed);
  CAPTURE(seed);
  check_streamed_small<G1Params>(seed, 1000, 97);  // 11 batches, the last of 30 points
  check_streamed_small<G2Params>(seed + 1, 300, 64);
}

TEST_CASE("gpu/msm_stream/BN254 G1 and G2 from page-locked host memory equal naive double-and-add") {
  const std::uint64_t seed = test_seed();
  MESSAGE("seed ", seed);
  CAPTURE(seed);
  check_streamed_small<bn254::G1Params>(seed, 1000, 97);
  check_streamed_small<bn254::G2Params>(seed + 1, 300, 64);
}

TEST_CASE("gpu/msm_stream/refuses pageable points, wrong groups and buffers without room for a point") {
  std::vector<G1Affine> pageable(1000, G1Affine::generator());
  const auto scalars = to_device(std::vector<Fr>(1000, Fr::one()));
  cuda::MsmPointStream stream(1 << 20);
  const cuda::MsmEngine g1(cuda::MsmGroup::g1, 1000), g2(cuda::MsmGroup::g2, 1000);
  cuda::DeviceBuffer<std::byte> scratch(std::max(g1.scratch_bytes(), g2.scratch_bytes()));
  cuda::DeviceBuffer<G1Jacobian> result(1);
  cuda::Stream compute;
  CHECK_THROWS_WITH_AS(stream.enqueue_msm_g1(g1, pageable.data(), scalars.data(), 1000, result.data(),
                                             scratch.data(), compute),
                       doctest::Contains("page-locked"), Error);
  CHECK_THROWS_AS(stream.enqueue_msm_g1(g2, pageable.data(), scalars.data(), 1000, result.data(),
                                        scratch.data(), compute),
                  Error);
  CHECK_THROWS_AS(cuda::MsmPointStream(100), Error);
  compute.synchronize();
}

TEST_CASE("gpu/msm_stream/2^22 GPU-made points through the default buffers equal the closed form") {
  const std::uint64_t seed = test_seed();
  MESSAGE("seed ", seed);
  CAPTURE(seed);
  const std::size_t n = std::size_t{1} << 22;
  const KnownPoints<G1Params> known(seed, n);
  const auto backend = memory::default_backend();
  const memory::PinnedBuffer pinned = backend->allocate(n * sizeof(G1Affine));
  auto* host_points = static_cast<G1Affine*>(pinned.data);
  PL_CUDA_CHECK(cudaMemcpy(host_points, known.points.data(), n * sizeof(G1Affine), cudaMemcpyDeviceToHost));
  const auto scalars = random_scalars_parallel(seed + 1, n);
  const auto device_scalars = to_device(scalars);
  cuda::MsmPointStream stream;
  const cuda::MsmEngine engine(cuda::MsmGroup::g1, stream.buffer_bytes() / sizeof(G1Affine));
  cuda::DeviceBuffer<std::byte> scratch(engine.scratch_bytes());
  cuda::Stream compute;
  const memory::PinnedBuffer result = backend->allocate(sizeof(G1Jacobian));
  stream.enqueue_msm_g1(engine, host_points, device_scalars.data(), n, static_cast<G1Jacobian*>(result.data),
                        scratch.data(), compute);
  compute.synchronize();
  CHECK(stream.stats().batches == (n + engine.max_points() - 1) / engine.max_points());
  CHECK(*static_cast<const G1Jacobian*>(result.data) == known.expected_msm(scalars));
  backend->deallocate(result);
  backend->deallocate(pinned);
}
