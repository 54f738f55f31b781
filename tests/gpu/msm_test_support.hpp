// Helpers of the GPU MSM and fixed-base tests: device copies, points generated on the GPU as known multiples
// of the generator (so that an MSM of any size has a closed-form answer), and the host-side sum that gives
// it. Random inputs and the naive reference are tests/support's.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include <proofline/arith/curves.hpp>
#include <proofline/cuda/check.hpp>
#include <proofline/cuda/device_buffer.hpp>
#include <proofline/cuda/gpu_fixed_base.hpp>
#include <proofline/cuda/stream.hpp>

#include "support/field_vectors.hpp"

namespace proofline::gpu_test {

/// sum_i a_i b_i in F (either curve's Fr), in parallel.
template <class F>
F dot(const std::vector<F>& a, const std::vector<F>& b) {
  return tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, a.size(), std::size_t{1} << 14), F::zero(),
      [&](const tbb::blocked_range<std::size_t>& range, F acc) {
        for (std::size_t i = range.begin(); i < range.end(); ++i) acc += a[i] * b[i];
        return acc;
      },
      [](const F& x, const F& y) { return x + y; });
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
  using Scalar = typename Curve::Scalar;
  std::vector<Scalar> logs;  ///< k_i
  cuda::DeviceBuffer<AffinePoint<Curve>> points;

  KnownPoints(std::uint64_t seed, std::size_t n)
      : logs(test_support::random_scalars_parallel<Scalar>(seed, n)), points(n) {
    const cuda::FixedBaseMul<Curve> generator_table(AffinePoint<Curve>::generator());
    const auto device_logs = to_device(logs);
    cuda::DeviceBuffer<std::byte> scratch(cuda::FixedBaseMul<Curve>::scratch_bytes(n));
    cuda::Stream stream;
    generator_table.enqueue(device_logs.data(), n, points.data(), scratch.data(), stream.get());
    stream.synchronize();
  }

  /// [sum s_i k_i]·G.
  JacobianPoint<Curve> expected_msm(const std::vector<Scalar>& scalars) const {
    std::vector<Scalar> head(logs.begin(), logs.begin() + static_cast<std::ptrdiff_t>(scalars.size()));
    return AffinePoint<Curve>::generator().mul(dot(head, scalars));
  }
};

}  // namespace proofline::gpu_test
