#include <proofline/cuda/device.hpp>

#if PROOFLINE_HAVE_CUDA
#include <cuda_runtime.h>
#endif

namespace proofline::cuda {

bool built_with_cuda() noexcept {
  return PROOFLINE_HAVE_CUDA != 0;
}

int device_count() noexcept {
#if PROOFLINE_HAVE_CUDA
  int count = 0;
  // No driver or no device is not an error for us: it selects the CPU backend.
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return count;
#else
  return 0;
#endif
}

std::vector<DeviceInfo> list_devices() noexcept {
  std::vector<DeviceInfo> devices;
#if PROOFLINE_HAVE_CUDA
  const int count = device_count();
  for (int index = 0; index < count; ++index) {
    cudaDeviceProp properties{};
    if (cudaGetDeviceProperties(&properties, index) != cudaSuccess) continue;
    DeviceInfo info;
    info.index = index;
    info.name = properties.name;
    info.total_memory = properties.totalGlobalMem;
    info.multiprocessors = properties.multiProcessorCount;
    info.compute_major = properties.major;
    info.compute_minor = properties.minor;
    int previous = 0;
    if (cudaGetDevice(&previous) == cudaSuccess && cudaSetDevice(index) == cudaSuccess) {
      std::size_t free = 0, total = 0;
      if (cudaMemGetInfo(&free, &total) == cudaSuccess) info.free_memory = free;
      (void)cudaSetDevice(previous);
    }
    devices.push_back(std::move(info));
  }
  (void)cudaGetLastError();
#endif
  return devices;
}

}  // namespace proofline::cuda
