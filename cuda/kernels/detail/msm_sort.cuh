// Internal: the phases of the GPU MSM that depend on the scalar field only (the Groth16 split of the scalars,
// the signed window digits and the counting sort of (bucket, point) entries), templated on the field and
// instantiated once per curve by cuda/kernels/msm_sort.cu and msm_sort_bn254.cu. See msm_body.hpp for the
// algorithm.
#pragma once

#include <algorithm>

#include <proofline/cuda/check.hpp>
#include <proofline/cuda/kernels/detail/msm_body.hpp>
#include <proofline/cuda/kernels/detail/msm_launch.hpp>

namespace proofline::cuda::detail {

inline constexpr unsigned kMsmSortThreads = 256;

/// Appends `value` to list[counter++] for the lanes with `take`, one atomic per warp (all 32 lanes active).
__device__ __forceinline__ void warp_append(std::uint32_t* counter, std::uint32_t* list, bool take,
                                            std::uint32_t value) {
  const unsigned mask = __ballot_sync(0xffffffffu, take);
  if (mask == 0) return;
  const unsigned lane = threadIdx.x & 31u;
  const int leader = __ffs(mask) - 1;
  std::uint32_t base = 0;
  if (static_cast<int>(lane) == leader) base = atomicAdd(counter, static_cast<std::uint32_t>(__popc(mask)));
  base = __shfl_sync(0xffffffffu, base, leader);
  if (take) list[base + static_cast<std::uint32_t>(__popc(mask & ((1u << lane) - 1u)))] = value;
}

template <class F>
__global__ void __launch_bounds__(kMsmSortThreads) msm_classify_kernel(MsmCommonArgs<F> a) {
  // Every thread of a block runs the same number of rounds, so whole warps reach the ballots.
  for (std::uint32_t base = blockIdx.x * kMsmSortThreads; base < a.n; base += gridDim.x * kMsmSortThreads) {
    const std::uint32_t i = base + threadIdx.x;
    ScalarClass cls = ScalarClass::zero;
    std::uint32_t ones_entry = 0;
    if (i < a.n) cls = classify_scalar(a.scalars[i], a.montgomery, i, ones_entry);
    warp_append(&a.counters->rest, a.rest_index, cls == ScalarClass::rest, i);
    warp_append(&a.counters->ones, a.ones_entry, cls == ScalarClass::one, ones_entry);
  }
}

template <class F>
__global__ void __launch_bounds__(kMsmSortThreads) msm_digits_kernel(MsmCommonArgs<F> a) {
  const std::uint32_t j = blockIdx.x * kMsmSortThreads + threadIdx.x;
  if (j < a.item_count()) digits_body(a, j);
}

template <class F>
__global__ void __launch_bounds__(kMsmSortThreads) msm_scatter_kernel(MsmCommonArgs<F> a) {
  const std::uint32_t j = blockIdx.x * kMsmSortThreads + threadIdx.x;
  // Grid rows: pass-major, then window, so a row's writes stay in one magnitude range of one window.
  const auto w = static_cast<int>(blockIdx.y % static_cast<unsigned>(a.windows));
  if (j < a.item_count()) scatter_body(a, j, w, blockIdx.y / static_cast<unsigned>(a.windows));
}

inline unsigned msm_sort_blocks(std::size_t items) {
  return static_cast<unsigned>((items + kMsmSortThreads - 1) / kMsmSortThreads);
}

template <class F>
void launch_msm_sort_impl(const MsmCommonArgs<F>& a, void* scan_temp, std::size_t scan_temp_bytes,
                          cudaStream_t stream) {
  const std::size_t slots = a.bucket_slots();
  PL_CUDA_CHECK(cudaMemsetAsync(a.counters, 0, sizeof(MsmCounters), stream));
  PL_CUDA_CHECK(cudaMemsetAsync(a.counts, 0, (slots + 1) * sizeof(std::uint32_t), stream));
  if (a.split) {
    int device = 0, sms = 0;
    PL_CUDA_CHECK(cudaGetDevice(&device));
    PL_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    const unsigned blocks = std::min(msm_sort_blocks(a.n), static_cast<unsigned>(sms) * 8u);
    msm_classify_kernel<F><<<blocks, kMsmSortThreads, 0, stream>>>(a);
    PL_CUDA_CHECK(cudaGetLastError());
  }
  // Sized for every item; in split mode the threads past the rest count return at once.
  msm_digits_kernel<F><<<msm_sort_blocks(a.n), kMsmSortThreads, 0, stream>>>(a);
  PL_CUDA_CHECK(cudaGetLastError());
  launch_msm_scan(a.counts, a.starts, slots + 1, scan_temp, scan_temp_bytes, stream);
  PL_CUDA_CHECK(
      cudaMemcpyAsync(a.cursor, a.starts, slots * sizeof(std::uint32_t), cudaMemcpyDeviceToDevice, stream));
  // One grid row per pass and window: its entries are written close together in time.
  const unsigned rows = static_cast<unsigned>(a.windows) << a.scatter_passes_log;
  msm_scatter_kernel<F><<<dim3(msm_sort_blocks(a.n), rows), kMsmSortThreads, 0, stream>>>(a);
  PL_CUDA_CHECK(cudaGetLastError());
}

}  // namespace proofline::cuda::detail
