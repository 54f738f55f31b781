#include <proofline/cuda/detail/msm_plan.hpp>

#include <algorithm>
#include <bit>
#include <limits>

namespace proofline::cuda::detail {

int msm_model_window_bits(std::size_t dense, int scalar_bits, bool precomputed) {
  const double n = static_cast<double>(std::max<std::size_t>(dense, 1));
  int best = 4;
  double best_cost = std::numeric_limits<double>::max();
  for (int c = 4; c <= 22; ++c) {
    const double windows = msm_windows(c, scalar_bits);
    const double reductions = precomputed ? 1.0 : windows;
    const double per_bucket = precomputed ? kMsmTableBucketCost : 21.0;
    const double cost =
        windows * 10.0 * n + reductions * per_bucket * static_cast<double>(std::uint64_t{1} << c);
    if (cost < best_cost) {
      best_cost = cost;
      best = c;
    }
  }
  return best;
}

int msm_scatter_passes_log(std::size_t dense, int window_bits, int windows, bool precomputed) {
  const std::size_t bytes =
      dense * sizeof(std::uint32_t) * (precomputed ? static_cast<std::size_t>(windows) : std::size_t{1});
  const std::size_t limit = precomputed ? kMsmScatterTableBytes : kMsmScatterWindowBytes;
  int passes_log = 0;
  while ((bytes >> passes_log) > limit && passes_log < window_bits - 1) ++passes_log;
  return passes_log;
}

std::uint32_t msm_chunk(std::size_t entries, std::size_t buckets) {
  const std::size_t per_thread = (entries + kMsmAccumulateThreads - 1) / kMsmAccumulateThreads;
  const std::size_t small = std::min(kMsmSmallChunk, entries / kMsmSmallThreads);
  const std::size_t half_bucket = std::min(
      {kMsmSmallChunk, entries / std::max<std::size_t>(2 * buckets, 1), entries / kMsmDeepBucketThreads});
  return static_cast<std::uint32_t>(
      std::clamp<std::size_t>(std::max({per_thread, small, half_bucket}), 8, kMsmMaxChunk));
}

ReducePlan msm_reduce_plan(std::uint32_t slots_per_window, int windows, std::uint32_t tail_values) {
  ReducePlan plan;
  std::uint32_t in = slots_per_window;
  int log_scale = 0;
  // First level: about 2^17 threads over all windows, 2..32 slots each.
  const std::uint64_t all = static_cast<std::uint64_t>(in) * static_cast<std::uint64_t>(windows);
  std::uint32_t segment = static_cast<std::uint32_t>(
      std::clamp<std::uint64_t>(std::bit_floor(std::max<std::uint64_t>(all >> 17, 1)), 2, 32));
  while (in > tail_values) {
    segment = std::min(segment, in);
    ReduceLevel level;
    level.in_per_window = in;
    level.segment = segment;
    level.out_per_window = (in + segment - 1) / segment;
    level.log_scale = log_scale;
    plan.levels.push_back(level);
    // Segments are powers of two, but for a last one that takes fewer than 8 values (then the tail has one).
    log_scale += std::countr_zero(segment);
    in = level.out_per_window;
    segment = 8;
  }
  plan.tail.in_per_window = in;
  plan.tail.bits = static_cast<int>(std::bit_width(in - 1));  // indices j < in need bit_width(in - 1) bits
  plan.tail.log_scale = log_scale;
  return plan;
}

namespace {

class Allocator {
 public:
  std::size_t take(std::size_t bytes) {
    const std::size_t at = next_;
    next_ += (bytes + 255) / 256 * 256;
    return at;
  }
  std::size_t next() const { return next_; }
  void set_next(std::size_t at) { next_ = at; }

 private:
  std::size_t next_ = 0;
};

}  // namespace

MsmLayout msm_layout(std::size_t max_points, int window_bits, int scalar_bits, bool split, bool precomputed,
                     std::size_t xyzz_bytes, std::size_t jacobian_bytes, std::uint32_t ones_blocks,
                     std::size_t scan_temp_bytes, std::size_t expected_items) {
  MsmLayout l;
  l.window_bits = window_bits;
  l.windows = msm_windows(window_bits, scalar_bits);
  l.precomputed = precomputed;
  const std::size_t expected = expected_items != 0 ? std::min(expected_items, max_points) : max_points;
  l.scatter_passes_log = msm_scatter_passes_log(expected, window_bits, l.windows, precomputed);
  const int bucket_windows = precomputed ? 1 : l.windows;
  l.slots_per_window = (std::uint32_t{1} << (window_bits - 1)) + 1;
  const std::size_t n = std::max<std::size_t>(max_points, 1);
  const std::size_t entries = n * static_cast<std::size_t>(l.windows);
  const std::size_t slots = static_cast<std::size_t>(bucket_windows) * l.slots_per_window;
  l.chunk = msm_chunk(std::max<std::size_t>(expected, 1) * static_cast<std::size_t>(l.windows), slots);
  l.chunk_threads = static_cast<std::uint32_t>((entries + l.chunk - 1) / l.chunk);
  l.reduce_plan = msm_reduce_plan(l.slots_per_window, bucket_windows);
  l.ones_blocks = split ? ones_blocks : 0;

  Allocator a;
  l.counters = a.take(sizeof(MsmCounters));
  l.counts = a.take((slots + 1) * 4);
  l.starts = a.take((slots + 1) * 4);
  l.cursor = a.take(slots * 4);
  if (split) {
    l.rest_index = a.take(n * 4);
    l.ones_entry = a.take(n * 4);
  }
  l.entries = a.take(entries * 4);
  // digits die with the scatter; the accumulate partials are written after it.
  const std::size_t shared_at = a.next();
  l.digits = a.take(entries * 4);
  const std::size_t after_digits = a.next();
  a.set_next(shared_at);
  l.head_bucket = a.take(std::size_t{l.chunk_threads} * 4);
  l.hot_list = a.take(std::size_t{l.chunk_threads} * 4);
  l.head = a.take(std::size_t{l.chunk_threads} * xyzz_bytes);
  l.cont = a.take(std::size_t{l.chunk_threads} * xyzz_bytes);
  a.set_next(std::max(a.next(), after_digits));
  l.buckets = a.take(slots * xyzz_bytes);
  // The tail's rows and its window values go where the last level's inputs were.
  std::size_t widest = std::size_t{l.reduce_plan.tail.rows()} * bucket_windows;
  for (const auto& level : l.reduce_plan.levels) {
    widest = std::max<std::size_t>(widest, static_cast<std::size_t>(level.out_per_window) * bucket_windows);
  }
  for (auto& region : l.reduce) region = a.take(widest * xyzz_bytes);
  if (split) {
    l.ones_partial = a.take(std::size_t{ones_blocks} * xyzz_bytes);
    l.ones_total = a.take(xyzz_bytes);
  }
  l.result = a.take(jacobian_bytes);
  l.scan_temp_bytes = scan_temp_bytes;
  l.scan_temp = a.take(scan_temp_bytes);
  l.total = a.next();
  return l;
}

}  // namespace proofline::cuda::detail
