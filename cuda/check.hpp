// Internal: every CUDA runtime call goes through PL_CUDA_CHECK, which turns a failure into a proofline::Error
// naming the call, the CUDA error and the source location.
#pragma once

#include <cuda_runtime.h>

namespace proofline::detail {

/// Throws Error(Errc::cuda) for a failed call, after clearing the runtime's last error: a failure that is
/// not sticky (an allocation refused, an invalid argument) is reported once, here, and not again by the
/// next launch check of a caller that caught this and went on. Out of line: it is cold, and every kernel
/// file includes this header.
[[noreturn]] void throw_cuda_error(cudaError_t status, const char* call, const char* file, int line);

}  // namespace proofline::detail

#define PL_CUDA_CHECK(call)                                                              \
  do {                                                                                   \
    const cudaError_t pl_cuda_status_ = (call);                                          \
    if (pl_cuda_status_ != cudaSuccess) {                                                \
      ::proofline::detail::throw_cuda_error(pl_cuda_status_, #call, __FILE__, __LINE__); \
    }                                                                                    \
  } while (0)
