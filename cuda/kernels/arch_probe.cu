// Whether a device can run this build's GPU code. The probe kernel is compiled with the same architectures as
// every other kernel, so the driver finds code for it (native, or PTX it compiles and caches) exactly where
// it finds code for them.
#include <cuda_runtime.h>

namespace proofline::cuda::detail {
namespace {

__global__ void arch_probe_kernel() {}

}  // namespace

/// False when the driver finds no code of this build it can run on `device`. Never throws; leaves the
/// current device and the runtime's last error as they were.
bool device_has_code(int device) noexcept {
  int previous = 0;
  if (cudaGetDevice(&previous) != cudaSuccess || cudaSetDevice(device) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  cudaFuncAttributes attributes{};
  const cudaError_t status = cudaFuncGetAttributes(&attributes, arch_probe_kernel);
  (void)cudaSetDevice(previous);
  (void)cudaGetLastError();
  // Only the driver's "no code for this device" answers rule a GPU out; any other failure is left to the
  // kernels' own launches to report, rather than moving the work to the CPU on a guess.
  return status != cudaErrorNoKernelImageForDevice && status != cudaErrorInvalidDeviceFunction &&
         status != cudaErrorUnsupportedPtxVersion && status != cudaErrorInvalidPtx &&
         status != cudaErrorInvalidKernelImage;
}

}  // namespace proofline::cuda::detail
