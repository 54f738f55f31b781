#include <proofline/cuda/check.hpp>

#include <string>

#include <proofline/util/error.hpp>

namespace proofline::detail {

void throw_cuda_error(cudaError_t status, const char* call, const char* file, int line) {
  (void)cudaGetLastError();  // a sticky error stays (the context is lost); any other is cleared
  throw Error(Errc::cuda, std::string(call) + " failed: " + cudaGetErrorName(status) + " (" +
                              cudaGetErrorString(status) + ") at " + file + ":" + std::to_string(line));
}

}  // namespace proofline::detail
