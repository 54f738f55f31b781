// A real GPU failure for the failover tests: a kernel that traps kills the device's CUDA context (a sticky
// error every later call on it returns), as an uncorrectable ECC error or an Xid fault would.
#include <cuda_runtime.h>

#include "gpu/kill_context.hpp"

namespace proofline::test_support {

namespace {
__global__ void trap_kernel() {
  __trap();
}
}  // namespace

bool kill_cuda_context(int device) {
  if (cudaSetDevice(device) != cudaSuccess) return false;
  trap_kernel<<<1, 1>>>();
  const cudaError_t status = cudaDeviceSynchronize();
  // The context is dead when even a fresh query reports the error.
  return status != cudaSuccess && cudaStreamQuery(nullptr) != cudaSuccess;
}

}  // namespace proofline::test_support
