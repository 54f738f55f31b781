#include "bench_gpu_kernels.hpp"

#include <cuda_runtime.h>

#include <proofline/cuda/check.hpp>
#include <proofline/cuda/device_buffer.hpp>
#include <proofline/cuda/stream.hpp>

namespace proofline::bench {

namespace {

__device__ __forceinline__ std::uint64_t mix(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

template <class F>
__global__ void fill_kernel(F* data, std::size_t n, std::uint64_t seed) {
  constexpr unsigned top_bits = static_cast<unsigned>(F::modulus_bits) - 1 - 192;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    F x;
    for (int k = 0; k < 4; ++k) x.limb[k] = mix(seed + 4 * i + k + 1);
    x.limb[3] &= (std::uint64_t{1} << top_bits) - 1;  // < 2^(b-1) < r
    x.limb[0] |= 1;
    data[i] = x;
  }
}

constexpr int kChains = 4;
constexpr int kSteps = 256;

__global__ void __launch_bounds__(256, 2) mul_probe_kernel(Fr* out, Fr factor) {
  Fr x[kChains];
  for (int c = 0; c < kChains; ++c) {
    x[c] = Fr::zero();
    x[c].limb[0] = blockIdx.x * 1000003ULL + threadIdx.x * 7919ULL + c + 1;
  }
#pragma unroll 1
  for (int s = 0; s < kSteps; ++s) {
#pragma unroll
    for (int c = 0; c < kChains; ++c) x[c] = x[c] * factor;
  }
  Fr sum = x[0];
  for (int c = 1; c < kChains; ++c) sum = sum + x[c];
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

}  // namespace

void fill_random_fr(Fr* data, std::size_t n, std::uint64_t seed, CUstream_st* stream) {
  fill_kernel<<<132 * 8, 256, 0, stream>>>(data, n, seed);
  PL_CUDA_CHECK(cudaGetLastError());
}

void fill_random_fr(bn254::Fr* data, std::size_t n, std::uint64_t seed, CUstream_st* stream) {
  fill_kernel<<<132 * 8, 256, 0, stream>>>(data, n, seed);
  PL_CUDA_CHECK(cudaGetLastError());
}

double fr_mul_per_second() {
  int device = 0, sms = 0;
  PL_CUDA_CHECK(cudaGetDevice(&device));
  PL_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const int blocks = sms * 8, threads = 256;
  cuda::DeviceBuffer<Fr> out(static_cast<std::size_t>(blocks) * threads);
  cuda::Stream stream;
  cuda::Event start, stop;
  const Fr factor = Fr::from_u64(0x1234567890abcdefULL);
  mul_probe_kernel<<<blocks, threads, 0, stream>>>(out.data(), factor);  // warm-up
  PL_CUDA_CHECK(cudaGetLastError());
  double best = 0;
  for (int rep = 0; rep < 5; ++rep) {
    start.record(stream);
    mul_probe_kernel<<<blocks, threads, 0, stream>>>(out.data(), factor);
    PL_CUDA_CHECK(cudaGetLastError());
    stop.record(stream);
    stop.synchronize();
    const double seconds = stop.elapsed_ms_since(start) * 1e-3;
    const double rate = static_cast<double>(blocks) * threads * kChains * kSteps / seconds;
    if (rate > best) best = rate;
  }
  return best;
}

}  // namespace proofline::bench
