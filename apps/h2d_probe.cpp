#include "h2d_probe.hpp"

#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

#if PROOFLINE_APP_CUDA
#include <cuda_runtime.h>
#endif

#include <proofline/util/error.hpp>

namespace proofline::apps {

#if PROOFLINE_APP_CUDA

namespace {

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess)
    throw Error(Errc::cuda, std::string("--h2d-probe: ") + what + ": " + cudaGetErrorString(status));
}

/// Not zeros: a copy of zeros could be cheaper than a copy of data somewhere on the way.
void fill_pattern(std::byte* p, std::uint64_t bytes) {
  std::uint64_t x = 0x9e3779b97f4a7c15ull;
  for (std::uint64_t i = 0; i + 8 <= bytes; i += 8) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    std::memcpy(p + i, &x, 8);
  }
}

/// GB/s of whole-buffer copies from `src` for about `seconds` (at least two copies), and how many.
std::pair<double, int> copy_rate(const std::byte* src, void* dst, std::uint64_t bytes, double seconds,
                                 cudaStream_t stream) {
  using Clock = std::chrono::steady_clock;
  // One copy first, untimed: the driver's first touch of a buffer is not the rate.
  check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream), "cudaMemcpyAsync");
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  int copies = 0;
  double busy = 0;
  const auto start = Clock::now();
  while (copies < 2 || std::chrono::duration<double>(Clock::now() - start).count() < seconds) {
    const auto t0 = Clock::now();
    check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream), "cudaMemcpyAsync");
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    busy += std::chrono::duration<double>(Clock::now() - t0).count();
    ++copies;
  }
  return {static_cast<double>(bytes) * copies / busy * 1e-9, copies};
}

}  // namespace

std::optional<H2dProbeResult> probe_h2d(int device, std::uint64_t bytes, double seconds,
                                        const std::function<void(const std::atomic<bool>& stop)>& load) {
  check(cudaSetDevice(device), "cudaSetDevice");
  void* dst = nullptr;
  void* pinned = nullptr;
  cudaStream_t stream = nullptr;
  check(cudaMalloc(&dst, bytes), "cudaMalloc");
  struct Cleanup {
    void*& dst;
    void*& pinned;
    cudaStream_t& stream;
    ~Cleanup() {
      if (stream) (void)cudaStreamDestroy(stream);
      if (pinned) (void)cudaFreeHost(pinned);
      if (dst) (void)cudaFree(dst);
    }
  } cleanup{dst, pinned, stream};
  check(cudaHostAlloc(&pinned, bytes, cudaHostAllocDefault), "cudaHostAlloc");
  check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
  std::vector<std::byte> pageable(bytes);
  fill_pattern(static_cast<std::byte*>(pinned), bytes);
  fill_pattern(pageable.data(), bytes);

  std::atomic<bool> stop{false};
  std::atomic<bool> started{false};
  std::thread loader([&] {
    started.store(true);
    load(stop);
  });
  while (!started.load()) std::this_thread::yield();
  // Let the load reach its steady state before timing.
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  H2dProbeResult r;
  r.bytes = bytes;
  try {
    std::tie(r.pinned_gbps, r.pinned_copies) =
        copy_rate(static_cast<const std::byte*>(pinned), dst, bytes, seconds, stream);
    std::tie(r.pageable_gbps, r.pageable_copies) = copy_rate(pageable.data(), dst, bytes, seconds, stream);
  } catch (...) {
    stop = true;
    loader.join();
    throw;
  }
  stop = true;
  loader.join();
  return r;
}

#else

std::optional<H2dProbeResult> probe_h2d(int, std::uint64_t, double,
                                        const std::function<void(const std::atomic<bool>&)>&) {
  return std::nullopt;
}

#endif

}  // namespace proofline::apps
