// The curve-independent phases of the GPU MSM: the Groth16 split of the scalars, the signed window digits and
// the counting sort of (bucket, point) entries. See cuda/kernels/detail/msm_body.hpp for the algorithm.
#include <cub/device/device_scan.cuh>

#include <proofline/cuda/check.hpp>
#include <proofline/cuda/kernels/detail/msm_body.hpp>
#include <proofline/cuda/kernels/detail/msm_launch.hpp>

namespace proofline::cuda::detail {

namespace {

constexpr unsigned kThreads = 256;

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

__global__ void __launch_bounds__(kThreads) classify_kernel(MsmCommonArgs a) {
  // Every thread of a block runs the same number of rounds, so whole warps reach the ballots.
  for (std::uint32_t base = blockIdx.x * kThreads; base < a.n; base += gridDim.x * kThreads) {
    const std::uint32_t i = base + threadIdx.x;
    ScalarClass cls = ScalarClass::zero;
    std::uint32_t ones_entry = 0;
    if (i < a.n) cls = classify_scalar(a.scalars[i], a.montgomery, i, ones_entry);
    warp_append(&a.counters->rest, a.rest_index, cls == ScalarClass::rest, i);
    warp_append(&a.counters->ones, a.ones_entry, cls == ScalarClass::one, ones_entry);
  }
}

__global__ void __launch_bounds__(kThreads) digits_kernel(MsmCommonArgs a) {
  const std::uint32_t j = blockIdx.x * kThreads + threadIdx.x;
  if (j < a.item_count()) digits_body(a, j);
}

__global__ void __launch_bounds__(kThreads) scatter_kernel(MsmCommonArgs a) {
  const std::uint32_t j = blockIdx.x * kThreads + threadIdx.x;
  if (j < a.item_count()) scatter_body(a, j, static_cast<int>(blockIdx.y));
}

unsigned blocks_for(std::size_t items) {
  return static_cast<unsigned>((items + kThreads - 1) / kThreads);
}

}  // namespace

std::size_t msm_scan_temp_bytes(std::size_t items) {
  std::size_t bytes = 0;
  PL_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, static_cast<const std::uint32_t*>(nullptr),
                                              static_cast<std::uint32_t*>(nullptr), static_cast<int>(items)));
  return bytes;
}

void launch_msm_sort(const MsmCommonArgs& a, void* scan_temp, std::size_t scan_temp_bytes,
                     CUstream_st* stream) {
  const std::size_t slots = a.bucket_slots();
  PL_CUDA_CHECK(cudaMemsetAsync(a.counters, 0, sizeof(MsmCounters), stream));
  PL_CUDA_CHECK(cudaMemsetAsync(a.counts, 0, (slots + 1) * sizeof(std::uint32_t), stream));
  if (a.split) {
    int device = 0, sms = 0;
    PL_CUDA_CHECK(cudaGetDevice(&device));
    PL_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    const unsigned blocks = std::min(blocks_for(a.n), static_cast<unsigned>(sms) * 8u);
    classify_kernel<<<blocks, kThreads, 0, stream>>>(a);
    PL_CUDA_CHECK(cudaGetLastError());
  }
  // Sized for every item; in split mode the threads past the rest count return at once.
  digits_kernel<<<blocks_for(a.n), kThreads, 0, stream>>>(a);
  PL_CUDA_CHECK(cudaGetLastError());
  std::size_t bytes = scan_temp_bytes;
  PL_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scan_temp, bytes, a.counts, a.starts,
                                              static_cast<int>(slots + 1), stream));
  PL_CUDA_CHECK(
      cudaMemcpyAsync(a.cursor, a.starts, slots * sizeof(std::uint32_t), cudaMemcpyDeviceToDevice, stream));
  // One grid row per window: a window's entries (about n of them) are written close together in time.
  scatter_kernel<<<dim3(blocks_for(a.n), static_cast<unsigned>(a.windows)), kThreads, 0, stream>>>(a);
  PL_CUDA_CHECK(cudaGetLastError());
}

}  // namespace proofline::cuda::detail
