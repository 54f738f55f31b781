// Helpers of the GPU MSM and fixed-base tests: fast random field elements, device copies, points generated on
// the GPU as known multiples of the generator (so that an MSM of any size has a closed-form answer), and the
// host-side sum that gives it.
#pragma once

#include <cstdint>
#include <random>
#include <span>
#include <vector>

#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <proofline/arith/fr.hpp>
#include <proofline/arith/g1.hpp>
#include <proofline/arith/g2.hpp>
#include <proofline/arith/random.hpp>
#include <proofline/cuda/detail/device_buffer.hpp>
#include <proofline/cuda/detail/stream.hpp>
#include <proofline/cuda/gpu_fixed_base.hpp>

namespace proofline::gpu_test {

/// Random points (random multiples of the generator), made on the host.
template <class Curve>
std::vector<AffinePoint<Curve>> random_points(std::mt19937_64& rng, std::size_t n) {
  std::vector<AffinePoint<Curve>> out(n);
  for (auto& p : out) p = AffinePoint<Curve>::generator().mul(random_field<Fr>(rng)).to_affine();
  return out;
}

/// sum_i scalars[i]·points[i] one scalar multiplication at a time: the reference for small MSMs.
template <class Curve>
JacobianPoint<Curve> naive_msm(std::span<const AffinePoint<Curve>> points, std::span<const Fr> scalars) {
  JacobianPoint<Curve> sum = JacobianPoint<Curve>::infinity();
  for (std::size_t i = 0; i < scalars.size(); ++i) sum = sum + points[i].mul(scalars[i]);
  return sum;
}

inline std::uint64_t fresh_seed() {
  std::random_device source;
  return (static_cast<std::uint64_t>(source()) << 32) | source();
}

/// n uniform elements of Fr drawn in parallel: uniform Montgomery limbs below r are uniform field elements.
inline std::vector<Fr> random_scalars(std::uint64_t seed, std::size_t n) {
  std::vector<Fr> out(n);
  constexpr std::size_t block = std::size_t{1} << 16;
  tbb::parallel_for(std::size_t{0}, (n + block - 1) / block, [&](std::size_t b) {
    std::mt19937_64 rng(seed ^ (0x9e3779b97f4a7c15ull * (b + 1)));
    for (std::size_t i = b * block; i < std::min(n, (b + 1) * block); ++i) {
      for (;;) {
        Fr::Int raw;
        for (auto& limb : raw.limb) limb = rng();
        raw.limb[3] &= (std::uint64_t{1} << 63) - 1;
        if (Fr::is_canonical(raw)) {
          out[i] = Fr::from_montgomery(raw);
          break;
        }
      }
    }
  });
  return out;
}

/// sum_i a_i b_i in Fr, in parallel.
inline Fr dot(const std::vector<Fr>& a, const std::vector<Fr>& b) {
  return tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, a.size(), std::size_t{1} << 14), Fr::zero(),
      [&](const tbb::blocked_range<std::size_t>& range, Fr acc) {
        for (std::size_t i = range.begin(); i < range.end(); ++i) acc += a[i] * b[i];
        return acc;
      },
      [](const Fr& x, const Fr& y) { return x + y; });
}

template <class T>
cuda::DeviceBuffer<T> to_device(const std::vector<T>& host) {
  cuda::DeviceBuffer<T> out(host.size());
  PL_CUDA_CHECK(cudaMemcpy(out.data(), host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  return out;
}

template <class T>
std::vector<T> to_host(const cuda::DeviceBuffer<T>& device, std::size_t count) {
  std::vector<T> out(count);
  PL_CUDA_CHECK(cudaMemcpy(out.data(), device.data(), count * sizeof(T), cudaMemcpyDeviceToHost));
  return out;
}

/// Device points P_i = [k_i]·G made by the GPU fixed-base multiplication (k_i uniform and kept: then
/// sum s_i P_i = [sum s_i k_i]·G whatever n is). The fixed-base results themselves are checked against host
/// multiplication in their own test.
template <class Curve>
struct KnownPoints {
  std::vector<Fr> logs;  ///< k_i
  cuda::DeviceBuffer<AffinePoint<Curve>> points;

  KnownPoints(std::uint64_t seed, std::size_t n) : logs(random_scalars(seed, n)), points(n) {
    const cuda::FixedBaseMul<Curve> generator_table(AffinePoint<Curve>::generator());
    const auto device_logs = to_device(logs);
    cuda::DeviceBuffer<std::byte> scratch(cuda::FixedBaseMul<Curve>::scratch_bytes(n));
    cuda::Stream stream;
    generator_table.enqueue(device_logs.data(), n, points.data(), scratch.data(), stream.get());
    stream.synchronize();
  }

  /// [sum s_i k_i]·G.
  JacobianPoint<Curve> expected_msm(const std::vector<Fr>& scalars) const {
    std::vector<Fr> head(logs.begin(), logs.begin() + static_cast<std::ptrdiff_t>(scalars.size()));
    return AffinePoint<Curve>::generator().mul(dot(head, scalars));
  }
};

}  // namespace proofline::gpu_test
