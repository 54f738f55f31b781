// Pinning backends: where page-locked host memory comes from. H2D copies from pageable memory crawl through
// the driver's bounce buffer at a fraction of the pinned rate, and pinning is expensive (cudaHostAlloc most
// of all; touch + MADV_HUGEPAGE + cudaHostRegister an order of magnitude less; docs/design.md has the
// figures), so buffers are pinned once and pooled (PinnedPool). Only memory/ pins or unpins host memory.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string_view>

namespace proofline::memory {

enum class PinningKind {
  cuda_host_alloc,     ///< cudaHostAlloc(portable) / cudaFreeHost
  cuda_host_register,  ///< mmap + MADV_HUGEPAGE + parallel first touch + cudaHostRegister(portable)
  host,                ///< mmap + first touch + mlock where permitted; no GPU needed
};

/// "cuda-alloc", "cuda-register", "host".
std::string_view to_string(PinningKind kind) noexcept;
/// Parses the names above; throws Error(invalid_argument) otherwise.
PinningKind parse_pinning_kind(std::string_view name);

/// A block from a backend. A plain value: whoever holds it gives it back with deallocate().
struct PinnedBuffer {
  void* data = nullptr;
  std::uint64_t bytes = 0;   ///< what was mapped (the request rounded up by round_size)
  bool page_locked = false;  ///< really pinned; false for host pages that mlock refused
};

struct BackendOptions {
  unsigned touch_threads = 0;  ///< threads for first touch and zeroing; 0: all hardware threads
  bool huge_pages = true;      ///< MADV_HUGEPAGE and 2 MiB alignment for blocks of 2 MiB and more
  bool lock_pages = true;      ///< host backend: try mlock (needs CAP_IPC_LOCK or RLIMIT_MEMLOCK)
};

struct PinStats {
  std::uint64_t pin_calls = 0;
  std::uint64_t unpin_calls = 0;
  std::uint64_t failed_pins = 0;
  std::uint64_t unlocked_pins = 0;  ///< blocks handed out without being page-locked
  std::uint64_t bytes_pinned = 0;   ///< summed over pin calls
  std::uint64_t bytes_live = 0;     ///< allocated and not yet deallocated
  double pin_seconds = 0;           ///< first touch included
  double unpin_seconds = 0;
};

class PinningBackend {
 public:
  virtual ~PinningBackend() = default;
  PinningBackend() = default;
  PinningBackend(const PinningBackend&) = delete;
  PinningBackend& operator=(const PinningBackend&) = delete;

  virtual PinningKind kind() const noexcept = 0;
  virtual std::string_view name() const noexcept = 0;
  /// Whether blocks are expected to be page-locked (the host backend: only if mlock is permitted).
  virtual bool pins() const noexcept = 0;
  /// The size a request really occupies (page or huge-page multiple): what a pool charges to its budget.
  virtual std::uint64_t round_size(std::uint64_t bytes) const noexcept = 0;

  /// A block of at least `bytes`, every page touched. Counted and timed. Throws Error(io or cuda).
  PinnedBuffer allocate(std::uint64_t bytes);
  /// Unpins and frees; `zero` first overwrites the block (witness data is secret). Counted and timed.
  void deallocate(const PinnedBuffer& buffer, bool zero = false) noexcept;

  PinStats stats() const noexcept;

 protected:
  virtual PinnedBuffer do_allocate(std::uint64_t bytes) = 0;
  virtual void do_deallocate(const PinnedBuffer& buffer) noexcept = 0;
  /// Overwrites a block with zeros before it is freed; backends override it to use their threads.
  virtual void zero(const PinnedBuffer& buffer) noexcept;

 private:
  std::atomic<std::uint64_t> pin_calls_{0}, unpin_calls_{0}, failed_pins_{0}, unlocked_pins_{0};
  std::atomic<std::uint64_t> bytes_pinned_{0}, bytes_live_{0}, pin_ns_{0}, unpin_ns_{0};
};

/// Whether this build has CUDA and the machine has a device it can use.
bool cuda_device_available() noexcept;

/// Makes a backend. The CUDA kinds throw Error(cuda) naming the reason when the build has no CUDA or no
/// device is usable.
std::unique_ptr<PinningBackend> make_backend(PinningKind kind, const BackendOptions& options = {});

/// cuda_host_register where a device is usable (the cheapest to pin, see docs/design.md), else host.
std::unique_ptr<PinningBackend> default_backend(const BackendOptions& options = {});

}  // namespace proofline::memory
