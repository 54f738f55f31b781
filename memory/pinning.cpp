#include <proofline/memory/pinning.hpp>

#include <chrono>
#include <string>

#include <proofline/memory/detail/backends.hpp>
#include <proofline/memory/detail/page_memory.hpp>
#include <proofline/util/error.hpp>

namespace proofline::memory {

namespace {

std::uint64_t elapsed_ns(std::chrono::steady_clock::time_point start) {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count());
}

}  // namespace

std::string_view to_string(PinningKind kind) noexcept {
  switch (kind) {
    case PinningKind::cuda_host_alloc:
      return "cuda-alloc";
    case PinningKind::cuda_host_register:
      return "cuda-register";
    case PinningKind::host:
      return "host";
  }
  return "unknown";
}

PinningKind parse_pinning_kind(std::string_view name) {
  if (name == "cuda-alloc") return PinningKind::cuda_host_alloc;
  if (name == "cuda-register") return PinningKind::cuda_host_register;
  if (name == "host") return PinningKind::host;
  throw Error(Errc::invalid_argument,
              "unknown pinning backend '" + std::string(name) + "' (use cuda-alloc, cuda-register or host)");
}

PinnedBuffer PinningBackend::allocate(std::uint64_t bytes) {
  if (bytes == 0) throw Error(Errc::invalid_argument, std::string(name()) + " backend: cannot pin 0 bytes");
  const auto start = std::chrono::steady_clock::now();
  PinnedBuffer buffer;
  try {
    buffer = do_allocate(bytes);
  } catch (...) {
    failed_pins_.fetch_add(1, std::memory_order_relaxed);
    throw;
  }
  pin_ns_.fetch_add(elapsed_ns(start), std::memory_order_relaxed);
  pin_calls_.fetch_add(1, std::memory_order_relaxed);
  if (!buffer.page_locked) unlocked_pins_.fetch_add(1, std::memory_order_relaxed);
  bytes_pinned_.fetch_add(buffer.bytes, std::memory_order_relaxed);
  bytes_live_.fetch_add(buffer.bytes, std::memory_order_relaxed);
  return buffer;
}

void PinningBackend::deallocate(const PinnedBuffer& buffer, bool zero_first) noexcept {
  if (buffer.data == nullptr) return;
  const auto start = std::chrono::steady_clock::now();
  if (zero_first) zero(buffer);
  do_deallocate(buffer);
  unpin_ns_.fetch_add(elapsed_ns(start), std::memory_order_relaxed);
  unpin_calls_.fetch_add(1, std::memory_order_relaxed);
  bytes_live_.fetch_sub(buffer.bytes, std::memory_order_relaxed);
}

void PinningBackend::zero(const PinnedBuffer& buffer) noexcept {
  detail::zero_pages(buffer.data, buffer.bytes, 0);
}

PinStats PinningBackend::stats() const noexcept {
  PinStats out;
  out.pin_calls = pin_calls_.load(std::memory_order_relaxed);
  out.unpin_calls = unpin_calls_.load(std::memory_order_relaxed);
  out.failed_pins = failed_pins_.load(std::memory_order_relaxed);
  out.unlocked_pins = unlocked_pins_.load(std::memory_order_relaxed);
  out.bytes_pinned = bytes_pinned_.load(std::memory_order_relaxed);
  out.bytes_live = bytes_live_.load(std::memory_order_relaxed);
  out.pin_seconds = static_cast<double>(pin_ns_.load(std::memory_order_relaxed)) * 1e-9;
  out.unpin_seconds = static_cast<double>(unpin_ns_.load(std::memory_order_relaxed)) * 1e-9;
  return out;
}

namespace detail {

void require_cuda_device(const char* what) {
  std::string why;
  if (cuda_device_count(&why) <= 0)
    throw Error(Errc::cuda, std::string(what) + " needs a CUDA device: " + why);
}

}  // namespace detail

bool cuda_device_available() noexcept {
  return detail::cuda_device_count(nullptr) > 0;
}

std::unique_ptr<PinningBackend> make_backend(PinningKind kind, const BackendOptions& options) {
  switch (kind) {
    case PinningKind::cuda_host_alloc:
      return detail::make_cuda_host_alloc_backend(options);
    case PinningKind::cuda_host_register:
      return detail::make_cuda_register_backend(options);
    case PinningKind::host:
      return detail::make_host_backend(options);
  }
  throw Error(Errc::invalid_argument, "make_backend: unknown pinning kind");
}

std::unique_ptr<PinningBackend> default_backend(const BackendOptions& options) {
  return make_backend(cuda_device_available() ? PinningKind::cuda_host_register : PinningKind::host, options);
}

}  // namespace proofline::memory
