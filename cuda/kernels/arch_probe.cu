// Whether a device can run this build's GPU code. The probe kernel is compiled with the same architectures as
// every other kernel, so the driver finds code for it (native, or PTX it compiles and caches) exactly where
// it finds code for them.
#include <cuda_runtime.h>

namespace proofline::cuda::detail {
namespace {

__global__ void arch_probe_kernel() {}

}  // namespace

/// True when the driver can load this build's code on `device`. Never throws; leaves the current device
/// and the runtime's last error as they were.
bool device_has_code(int device) noexcept {
  int previous = 0;
  if (cudaGetDevice(&previous) != cudaSuccess || cudaSetDevice(device) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  cudaFuncAttributes attributes{};
  const bool loaded = cudaFuncGetAttributes(&attributes, arch_probe_kernel) == cudaSuccess;
  (void)cudaSetDevice(previous);
  (void)cudaGetLastError();
  return loaded;
}

}  // namespace proofline::cuda::detail
