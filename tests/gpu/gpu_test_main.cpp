// The main() of proofline_gpu_tests. Listing the cases (--list-test-cases, which ctest's discovery runs at
// build time, and doctest's other queries) touches no CUDA, so it works on a machine without a GPU. A run of
// cases needs a CUDA device: without one the program says so and exits 0, and ctest matches the SKIPPED line
// and reports each case as skipped, not passed.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>

#include <proofline/cuda/device.hpp>

namespace {

/// Whether the command line only asks doctest something (list, count, help, version, no-run): no case runs.
bool only_queries(doctest::Context& context) {
  context.setAsDefaultForAssertsOutOfTestCases();  // makes the parsed options readable before run()
  const doctest::ContextOptions& options = *doctest::getContextOptions();
  return options.list_test_cases || options.list_test_suites || options.list_reporters || options.count ||
         options.help || options.version || options.no_run;
}

}  // namespace

int main(int argc, char** argv) {
  doctest::Context context(argc, argv);
  if (only_queries(context)) return context.run();
  if (!proofline::cuda::built_with_cuda() || proofline::cuda::device_count() == 0) {
    std::printf("SKIPPED: no CUDA device (proofline_gpu_tests needs a GPU)\n");
    return 0;
  }
  for (const auto& device : proofline::cuda::list_devices()) {
    std::printf("device %d: %s, sm_%d%d, %d SMs, %.1f GiB\n", device.index, device.name.c_str(),
                device.compute_major, device.compute_minor, device.multiprocessors,
                static_cast<double>(device.total_memory) / (1 << 30));
  }
  return context.run();
}
