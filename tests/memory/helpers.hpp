// Shared by the memory tests: budget options without timed retries, patient blocking calls, and a backend
// wrapper that records what the pool really pins. Waiting for other threads is tests/support/waits.hpp.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <memory>

#include <proofline/memory/budget.hpp>
#include <proofline/memory/pinning.hpp>
#include <proofline/util/error.hpp>

namespace proofline::memory::test {

/// Budget options that keep the head waiter from re-asking the evictors on a timer, so a test sees exactly
/// the evictor calls that notifications cause.
inline constexpr BudgetOptions no_retry{.evict_retry = std::chrono::hours(1)};

/// Options for a blocking call in a test thread: long enough never to fire when the code is right, but a
/// failed check elsewhere cannot leave the thread (and the test run) blocked for ever.
inline ReserveOptions patient() {
  return ReserveOptions{.deadline = Clock::now() + std::chrono::seconds(60)};
}

/// The host backend as tests want it: small pages (a 4 KiB request stays 4 KiB), no mlock (the same
/// behaviour with or without CAP_IPC_LOCK), one touch thread.
inline std::unique_ptr<PinningBackend> small_host_backend() {
  return make_backend(PinningKind::host,
                      BackendOptions{.touch_threads = 1, .huge_pages = false, .lock_pages = false});
}

/// Wraps a backend; records live bytes and their maximum, whether each freed block was all zeros, and can
/// be told to fail the next pins.
class RecordingBackend final : public PinningBackend {
 public:
  explicit RecordingBackend(std::unique_ptr<PinningBackend> inner = small_host_backend())
      : inner_(std::move(inner)) {}

  PinningKind kind() const noexcept override { return inner_->kind(); }
  std::string_view name() const noexcept override { return "recording"; }
  bool pins() const noexcept override { return inner_->pins(); }
  std::uint64_t round_size(std::uint64_t bytes) const noexcept override { return inner_->round_size(bytes); }

  std::uint64_t live() const { return live_.load(); }
  std::uint64_t max_live() const { return max_live_.load(); }
  int freed_zeroed() const { return freed_zeroed_.load(); }
  int freed_dirty() const { return freed_dirty_.load(); }
  void fail_after(int successes) { fail_after_.store(successes); }

 protected:
  PinnedBuffer do_allocate(std::uint64_t bytes) override {
    if (fail_after_.load() >= 0 && fail_after_.fetch_sub(1) == 0) {
      throw Error(Errc::io, "recording backend: injected pin failure");
    }
    PinnedBuffer buffer = inner_->allocate(bytes);
    const std::uint64_t now = live_.fetch_add(buffer.bytes) + buffer.bytes;
    std::uint64_t seen = max_live_.load();
    while (now > seen && !max_live_.compare_exchange_weak(seen, now)) {
    }
    return buffer;
  }

  void do_deallocate(const PinnedBuffer& buffer) noexcept override {
    const auto* bytes = static_cast<const unsigned char*>(buffer.data);
    const bool zeroed = std::all_of(bytes, bytes + buffer.bytes, [](unsigned char b) { return b == 0; });
    (zeroed ? freed_zeroed_ : freed_dirty_).fetch_add(1);
    live_.fetch_sub(buffer.bytes);
    inner_->deallocate(buffer);
  }

  void zero(const PinnedBuffer& buffer) noexcept override { std::memset(buffer.data, 0, buffer.bytes); }

 private:
  std::unique_ptr<PinningBackend> inner_;
  std::atomic<std::uint64_t> live_{0}, max_live_{0};
  std::atomic<int> freed_zeroed_{0}, freed_dirty_{0};
  std::atomic<int> fail_after_{-1};
};

}  // namespace proofline::memory::test
