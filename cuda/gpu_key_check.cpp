#include <proofline/cuda/gpu_key_check.hpp>

#include <algorithm>
#include <cstdint>

#include <proofline/util/error.hpp>

#if PROOFLINE_HAVE_CUDA
#include <cuda_runtime.h>

#include <proofline/cuda/check.hpp>
#include <proofline/cuda/device_buffer.hpp>
#include <proofline/cuda/kernels/detail/key_check_launch.hpp>
#include <proofline/cuda/stream.hpp>
#endif

namespace proofline::cuda {

namespace {

#if PROOFLINE_HAVE_CUDA

/// Points a chunk holds: 256 MiB of them (a G2 query of 2^20 points in one or two chunks).
constexpr std::size_t kChunkBytes = std::size_t{256} << 20;

template <class Affine>
std::optional<std::size_t> first_outside(std::span<const Affine> points, int device) {
  if (points.empty()) return std::nullopt;
  if (device < 0) PL_CUDA_CHECK(cudaGetDevice(&device));
  DeviceGuard guard(device);
  const std::size_t chunk = std::min(points.size(), kChunkBytes / sizeof(Affine));
  DeviceBuffer<Affine> staged(chunk);
  DeviceBuffer<unsigned long long> first_bad(1);
  Stream stream;
  PL_CUDA_CHECK(cudaMemsetAsync(first_bad.data(), 0xff, sizeof(unsigned long long), stream.get()));
  for (std::size_t at = 0; at < points.size(); at += chunk) {
    const std::size_t count = std::min(chunk, points.size() - at);
    // The stream runs this copy after the previous chunk's kernel has read the buffer.
    PL_CUDA_CHECK(cudaMemcpyAsync(staged.data(), points.data() + at, count * sizeof(Affine),
                                  cudaMemcpyHostToDevice, stream.get()));
    detail::launch_subgroup_check(staged.data(), count, at, first_bad.data(), stream.get());
  }
  unsigned long long bad = 0;
  PL_CUDA_CHECK(cudaMemcpyAsync(&bad, first_bad.data(), sizeof bad, cudaMemcpyDeviceToHost, stream.get()));
  stream.synchronize();
  if (bad == ~0ull) return std::nullopt;
  return static_cast<std::size_t>(bad);
}

#else

template <class Affine>
std::optional<std::size_t> first_outside(std::span<const Affine>, int) {
  throw Error(Errc::cuda, "GPU subgroup check: proofline was built without CUDA");
}

#endif

}  // namespace

std::optional<std::size_t> first_outside_subgroup(std::span<const G1Affine> points, int device) {
  return first_outside(points, device);
}
std::optional<std::size_t> first_outside_subgroup(std::span<const G2Affine> points, int device) {
  return first_outside(points, device);
}
std::optional<std::size_t> first_outside_subgroup(std::span<const bn254::G1Affine>, int) {
  return std::nullopt;  // cofactor 1: the curve check the caller made is the subgroup check
}
std::optional<std::size_t> first_outside_subgroup(std::span<const bn254::G2Affine> points, int device) {
  return first_outside(points, device);
}

}  // namespace proofline::cuda
