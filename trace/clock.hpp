// The one clock every span is expressed in: nanoseconds of std::chrono::steady_clock since an epoch (the
// recorder's construction), and how device time from CUDA events is brought onto it.
//
// GPU spans: CUDA events carry device timestamps that only cudaEventElapsedTime can compare, so the pipeline
// keeps one anchor per GPU, made off the hot path (at start, and again every few seconds from a thread that
// may block; never from a TBB worker or a host callback):
//
//   const std::int64_t before = clock.now_ns();
//   cudaEventRecord(anchor_event, idle_stream);   // an otherwise idle stream of that GPU
//   cudaEventSynchronize(anchor_event);
//   const std::int64_t after = clock.now_ns();
//   GpuClockAnchor anchor{(before + after) / 2};  // the event fired in [before, after]; error <= half of it
//
// and for a device operation bracketed by events `b` and `e` (timing-enabled, on any stream of the same GPU):
//
//   float ms_b, ms_e;
//   cudaEventElapsedTime(&ms_b, anchor_event, b);
//   cudaEventElapsedTime(&ms_e, anchor_event, e);
//   span.begin_ns = anchor.to_host_ns(ms_b);
//   span.end_ns = anchor.to_host_ns(ms_e);
//
// cudaEventElapsedTime returns a float of milliseconds (about 0.5 us resolution): its 24-bit mantissa keeps
// ~1 us steps only up to ~16 s after the anchor, so re-anchor at least that often. Device and host clocks
// drift by parts per million, which re-anchoring also absorbs.
#pragma once

#include <chrono>
#include <cmath>
#include <cstdint>

namespace proofline::trace {

class Clock {
 public:
  using time_point = std::chrono::steady_clock::time_point;

  Clock() noexcept : epoch_(std::chrono::steady_clock::now()) {}
  explicit Clock(time_point epoch) noexcept : epoch_(epoch) {}

  time_point epoch() const noexcept { return epoch_; }
  std::int64_t now_ns() const noexcept { return to_ns(std::chrono::steady_clock::now()); }
  std::int64_t to_ns(time_point t) const noexcept {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(t - epoch_).count();
  }

 private:
  time_point epoch_;
};

/// The host time (Clock::now_ns) at which a GPU's reference event fired; see the conversion above.
struct GpuClockAnchor {
  std::int64_t host_ns = 0;

  /// A device timestamp given as cudaEventElapsedTime(anchor_event, event), in milliseconds.
  std::int64_t to_host_ns(float elapsed_ms) const noexcept {
    return host_ns + std::llround(static_cast<double>(elapsed_ms) * 1e6);
  }
};

}  // namespace proofline::trace
