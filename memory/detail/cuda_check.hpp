// Internal, CUDA builds only: turns a failed CUDA runtime call into Error(Errc::cuda) naming the call.
// (memory/ sits below cuda/ in the module order, so it carries its own small check.)
#pragma once

#include <cuda_runtime.h>

#include <string>

#include <proofline/util/error.hpp>

namespace proofline::memory::detail {

inline void check_cuda(cudaError_t status, const std::string& what) {
  if (status != cudaSuccess) {
    (void)cudaGetLastError();  // clear the sticky-free error so later calls do not report it again
    throw Error(Errc::cuda,
                what + " failed: " + cudaGetErrorName(status) + " (" + cudaGetErrorString(status) + ")");
  }
}

}  // namespace proofline::memory::detail
