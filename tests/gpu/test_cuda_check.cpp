// PL_CUDA_CHECK: a failed call becomes one Error naming the call and the CUDA error, and a failure that is
// not sticky is reported once: the next launch check of a caller that caught it and went on sees no error.
#include <doctest/doctest.h>

#include <cuda_runtime.h>

#include <cstddef>
#include <string>

#include <proofline/cuda/check.hpp>
#include <proofline/cuda/device_buffer.hpp>
#include <proofline/util/error.hpp>

using namespace proofline;

TEST_CASE("gpu/cuda/a refused allocation is reported once, not again by the next check") {
  std::string message;
  try {
    cuda::DeviceBuffer<std::byte> absurd(std::size_t{1} << 52);  // 4 PiB: no GPU has it
    FAIL("a 4 PiB allocation succeeded");
  } catch (const Error& e) {
    CHECK(e.code() == Errc::cuda);
    message = e.what();
  }
  CHECK(message.find("cudaMalloc") != std::string::npos);
  CHECK(message.find("cudaErrorMemoryAllocation") != std::string::npos);
  CHECK(cudaPeekAtLastError() == cudaSuccess);
  CHECK_NOTHROW(PL_CUDA_CHECK(cudaGetLastError()));
  cuda::DeviceBuffer<std::byte> small(1024);  // and the device still works
  CHECK_NOTHROW(PL_CUDA_CHECK(cudaMemset(small.data(), 0, 1024)));
  CHECK_NOTHROW(PL_CUDA_CHECK(cudaDeviceSynchronize()));
}
