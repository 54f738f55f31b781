// The main() of proofline_gpu_tests: the GPU suite runs only where a CUDA device exists. Elsewhere it says so
// and exits 0; ctest matches the SKIPPED line and reports the test as skipped, not passed.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>

#include <proofline/cuda/device.hpp>

int main(int argc, char** argv) {
  if (!proofline::cuda::built_with_cuda() || proofline::cuda::device_count() == 0) {
    std::printf("SKIPPED: no CUDA device (proofline_gpu_tests needs a GPU)\n");
    return 0;
  }
  for (const auto& device : proofline::cuda::list_devices()) {
    std::printf("device %d: %s, sm_%d%d, %d SMs, %.1f GiB\n", device.index, device.name.c_str(),
                device.compute_major, device.compute_minor, device.multiprocessors,
                static_cast<double>(device.total_memory) / (1 << 30));
  }
  doctest::Context context(argc, argv);
  return context.run();
}
