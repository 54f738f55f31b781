// Whether a CUDA device is usable, asked once: the first runtime call initialises the driver (slow), and
// the answer does not change during a run.
#include <cuda_runtime.h>

#include <string>

#include <proofline/memory/detail/backends.hpp>

namespace proofline::memory::detail {

namespace {

struct Probe {
  int count = 0;
  std::string why;
};

const Probe& probe() noexcept {
  static const Probe result = [] {
    Probe p;
    const cudaError_t status = cudaGetDeviceCount(&p.count);
    if (status != cudaSuccess) {
      (void)cudaGetLastError();
      p.count = 0;
      p.why = std::string("cudaGetDeviceCount: ") + cudaGetErrorName(status) + " (" +
              cudaGetErrorString(status) + ")";
    } else if (p.count == 0) {
      p.why = "no CUDA device";
    }
    return p;
  }();
  return result;
}

}  // namespace

int cuda_device_count(std::string* why) noexcept {
  const Probe& p = probe();
  if (why != nullptr) *why = p.why;
  return p.count;
}

}  // namespace proofline::memory::detail
