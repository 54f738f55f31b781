// Whether a device can run this build's GPU code. The probe kernel is compiled with the same architectures as
// every other kernel, so the driver finds code for it (native, or PTX it compiles and caches) exactly where
// it finds code for them.
#include <cuda_runtime.h>

#include <proofline/cuda/detail/device_support.hpp>

namespace proofline::cuda::detail {
namespace {

__global__ void arch_probe_kernel() {}

}  // namespace

/// Whether the driver finds code of this build it can run on `device`. Never throws; leaves the current
/// device and the runtime's last error as they were.
CodeLookup find_code(int device) noexcept {
  int previous = 0;
  if (cudaGetDevice(&previous) != cudaSuccess || cudaSetDevice(device) != cudaSuccess) {
    (void)cudaGetLastError();
    return CodeLookup::missing;
  }
  cudaFuncAttributes attributes{};
  const cudaError_t status = cudaFuncGetAttributes(&attributes, arch_probe_kernel);
  (void)cudaSetDevice(previous);
  (void)cudaGetLastError();
  // Only the driver's "no code for this device" answers rule a GPU out; any other failure is left to the
  // kernels' own launches to report, rather than moving the work to the CPU on a guess.
  switch (status) {
    case cudaErrorUnsupportedPtxVersion:
      return CodeLookup::ptx_too_new;
    case cudaErrorNoKernelImageForDevice:
    case cudaErrorInvalidDeviceFunction:
    case cudaErrorInvalidPtx:
    case cudaErrorInvalidKernelImage:
      return CodeLookup::missing;
    default:
      return CodeLookup::found;
  }
}

}  // namespace proofline::cuda::detail
