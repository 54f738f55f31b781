// Counts job latencies into LatencyHistogram's buckets from any thread, without a lock: one relaxed atomic
// increment per bucket and one for the sum. A snapshot taken while jobs finish may miss the latest; it
// is never torn within a bucket.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>

#include <proofline/graph/stats.hpp>

namespace proofline::graph::detail {

class LatencyCounter {
 public:
  void observe(double seconds) noexcept {
    seconds = std::max(seconds, 0.0);
    const auto& bounds = LatencyHistogram::bounds;
    const auto bucket = static_cast<std::size_t>(std::lower_bound(bounds.begin(), bounds.end(), seconds) -
                                                 bounds.begin());  // bounds.size(): above the last
    buckets_[bucket].fetch_add(1, std::memory_order_relaxed);
    sum_ns_.fetch_add(static_cast<std::uint64_t>(seconds * 1e9), std::memory_order_relaxed);
  }

  LatencyHistogram snapshot() const noexcept {
    LatencyHistogram h;
    std::uint64_t running = 0;
    for (std::size_t i = 0; i < buckets_.size(); ++i) {
      running += buckets_[i].load(std::memory_order_relaxed);
      if (i < h.at_most.size()) h.at_most[i] = running;
    }
    h.count = running;
    h.sum_seconds = static_cast<double>(sum_ns_.load(std::memory_order_relaxed)) * 1e-9;
    return h;
  }

 private:
  std::array<std::atomic<std::uint64_t>, LatencyHistogram::bounds.size() + 1> buckets_{};
  std::atomic<std::uint64_t> sum_ns_{0};
};

}  // namespace proofline::graph::detail
