// Internal: every CUDA runtime call goes through PL_CUDA_CHECK, which turns a failure into a proofline::Error
// naming the call, the CUDA error and the source location.
#pragma once

#include <cuda_runtime.h>

#include <string>

#include <proofline/util/error.hpp>

namespace proofline::detail {

[[noreturn]] inline void throw_cuda_error(cudaError_t status, const char* call, const char* file, int line) {
  throw Error(Errc::cuda, std::string(call) + " failed: " + cudaGetErrorName(status) + " (" +
                              cudaGetErrorString(status) + ") at " + file + ":" + std::to_string(line));
}

}  // namespace proofline::detail

#define PL_CUDA_CHECK(call)                                                              \
  do {                                                                                   \
    const cudaError_t pl_cuda_status_ = (call);                                          \
    if (pl_cuda_status_ != cudaSuccess) {                                                \
      ::proofline::detail::throw_cuda_error(pl_cuda_status_, #call, __FILE__, __LINE__); \
    }                                                                                    \
  } while (0)
