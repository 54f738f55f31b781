// PL_CUDA_CHECK: a failed call becomes one Error naming the call and the CUDA error, and a failure that is
// not sticky is reported once: the next launch check of a caller that caught it and went on sees no error.
// And the probe that tells which GPUs can run this build's code.
#include <doctest/doctest.h>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdlib>
#include <string>

#include <proofline/cuda/check.hpp>
#include <proofline/cuda/device.hpp>
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

TEST_CASE(
    "gpu/cuda/the driver finds this build's code on every GPU of the machine, and the probe leaves no "
    "error") {
  // The suite runs only where a GPU is usable; on the GPUs it is measured on (sm_90) the default build
  // carries native code, and with CUDA_FORCE_PTX_JIT=1 the driver compiles the build's PTX instead: both are
  // found.
  const auto usable = cuda::list_devices();
  REQUIRE_FALSE(usable.empty());
  CHECK(cuda::all_devices().size() == usable.size());
  CHECK(cuda::unusable_devices_summary().empty());
  // Forced JIT runs the PTX everywhere; the default build runs native code on sm_90.
  const char* forced = std::getenv("CUDA_FORCE_PTX_JIT");
  const bool jit = forced != nullptr && std::string(forced) == "1";
  for (const auto& device : usable) CHECK(device.free_memory == 0);  // not asked for: no context made for it
  for (const auto& device : cuda::list_devices({.free_memory = true})) {
    CHECK(device.free_memory > 0);
    if (jit) CHECK(device.compiles_ptx);
    if (!jit && device.compute_major == 9 &&
        std::string(cuda::built_architectures()) == "90-real,80-real,80-virtual")
      CHECK_FALSE(device.compiles_ptx);
  }
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(std::string(cuda::built_architectures()).size() > 0);
}
