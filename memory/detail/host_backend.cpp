// The backend for machines without a GPU (and for CI): anonymous pages, touched in parallel, then mlocked
// where the process may lock memory. Where it may not, the blocks are plain pages and say so
// (PinnedBuffer::page_locked), so nothing downstream mistakes them for DMA-able memory.
#include <sys/mman.h>

#include <atomic>
#include <cerrno>
#include <cstring>

#include <proofline/memory/detail/backends.hpp>
#include <proofline/memory/detail/page_memory.hpp>
#include <proofline/util/error.hpp>
#include <proofline/util/logging.hpp>
#include <proofline/util/size.hpp>

namespace proofline::memory::detail {

namespace {

class HostBackend final : public PinningBackend {
 public:
  explicit HostBackend(const BackendOptions& options) : options_(options) {}

  PinningKind kind() const noexcept override { return PinningKind::host; }
  std::string_view name() const noexcept override { return "host"; }
  bool pins() const noexcept override {
    return options_.lock_pages && !mlock_refused_.load(std::memory_order_relaxed);
  }
  std::uint64_t round_size(std::uint64_t bytes) const noexcept override {
    return round_mapping(bytes, options_.huge_pages);
  }

 protected:
  PinnedBuffer do_allocate(std::uint64_t bytes) override {
    const std::uint64_t size = round_size(bytes);
    void* data = map_pages(size, options_.huge_pages);
    try {
      touch_pages(data, size, options_.touch_threads);
    } catch (const std::exception& e) {
      unmap_pages(data, size);
      throw Error(Errc::io, "host backend: first touch of " + format_size(size) + " failed: " + e.what());
    }
    bool locked = false;
    if (options_.lock_pages) {
      if (::mlock(data, size) == 0) {
        locked = true;
      } else {
        const int err = errno;
        // Say it once: without CAP_IPC_LOCK every block of a run hits the same limit.
        if (!mlock_refused_.exchange(true)) {
          PL_LOG_WARN(
              "host backend: mlock of {} refused ({}); using unlocked pages. Raise RLIMIT_MEMLOCK "
              "(ulimit -l) or grant CAP_IPC_LOCK to lock them",
              format_size(size), std::strerror(err));
        }
      }
    }
    return PinnedBuffer{data, size, locked};
  }

  void do_deallocate(const PinnedBuffer& buffer) noexcept override {
    // munmap drops the lock with the pages.
    unmap_pages(buffer.data, buffer.bytes);
  }

  void zero(const PinnedBuffer& buffer) noexcept override {
    zero_pages(buffer.data, buffer.bytes, options_.touch_threads);
  }

 private:
  const BackendOptions options_;
  std::atomic<bool> mlock_refused_{false};
};

}  // namespace

std::unique_ptr<PinningBackend> make_host_backend(const BackendOptions& options) {
  return std::make_unique<HostBackend>(options);
}

}  // namespace proofline::memory::detail
