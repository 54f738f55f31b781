// Asks the CUDA driver whether an address is page-locked host memory (memory/page_locked.hpp).
#include <cuda_runtime.h>

#include <proofline/memory/detail/backends.hpp>

namespace proofline::memory::detail {

bool is_page_locked(const void* address) noexcept {
  if (cuda_device_count(nullptr) <= 0) return false;
  cudaPointerAttributes attributes{};
  if (cudaPointerGetAttributes(&attributes, address) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return attributes.type == cudaMemoryTypeHost;
}

}  // namespace proofline::memory::detail
