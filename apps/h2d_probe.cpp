#include "h2d_probe.hpp"

#include <atomic>
#include <chrono>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include <proofline/util/error.hpp>

#if PROOFLINE_APP_CUDA
#include <proofline/cuda/device_buffer.hpp>
#include <proofline/cuda/stream.hpp>
#include <proofline/memory/pinning.hpp>
#endif

namespace proofline::apps {

#if PROOFLINE_APP_CUDA

namespace {

/// A block of pinned memory from the backend the pinned pool uses (only memory/ pins), given back on
/// destruction.
class PinnedBlock {
 public:
  explicit PinnedBlock(std::uint64_t bytes)
      : backend_(memory::default_backend()), buffer_(backend_->allocate(bytes)) {}
  ~PinnedBlock() { backend_->deallocate(buffer_); }
  PinnedBlock(const PinnedBlock&) = delete;
  PinnedBlock& operator=(const PinnedBlock&) = delete;
  std::byte* data() const noexcept { return static_cast<std::byte*>(buffer_.data); }

 private:
  std::unique_ptr<memory::PinningBackend> backend_;
  memory::PinnedBuffer buffer_;
};

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
std::pair<double, int> copy_rate(const std::byte* src, cuda::DeviceBuffer<std::byte>& dst, double seconds,
                                 const cuda::Stream& stream) {
  using Clock = std::chrono::steady_clock;
  const auto copy = [&] {
    dst.upload(src, dst.size(), stream);
    PL_CUDA_CHECK(cudaStreamSynchronize(stream));
  };
  copy();  // untimed: the driver's first touch of a buffer is not the rate
  int copies = 0;
  double busy = 0;
  const auto start = Clock::now();
  while (copies < 2 || std::chrono::duration<double>(Clock::now() - start).count() < seconds) {
    const auto t0 = Clock::now();
    copy();
    busy += std::chrono::duration<double>(Clock::now() - t0).count();
    ++copies;
  }
  return {static_cast<double>(dst.bytes()) * copies / busy * 1e-9, copies};
}

}  // namespace

std::optional<H2dProbeResult> probe_h2d(int device, std::uint64_t bytes, double seconds,
                                        const std::function<void(const std::atomic<bool>& stop)>& load) {
  std::optional<cuda::DeviceGuard> guard;
  std::optional<cuda::DeviceBuffer<std::byte>> dst;
  std::optional<cuda::Stream> stream;
  std::optional<PinnedBlock> pinned;
  try {
    guard.emplace(device);
    dst.emplace(bytes);
    stream.emplace();
    pinned.emplace(bytes);
  } catch (const Error& e) {
    throw Error(e.code(), std::string("--h2d-probe: ") + e.what());
  }
  std::vector<std::byte> pageable(bytes);
  fill_pattern(pinned->data(), bytes);
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
    std::tie(r.pinned_gbps, r.pinned_copies) = copy_rate(pinned->data(), *dst, seconds, *stream);
    std::tie(r.pageable_gbps, r.pageable_copies) = copy_rate(pageable.data(), *dst, seconds, *stream);
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
