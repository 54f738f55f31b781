// Internal: how the GPU MSM sizes one call: window width, chunk of entries per accumulate thread, the levels
// of the bucket reduction, and where each array sits in the caller's scratch buffer. Plain host C++ (no
// CUDA): the engine (cuda/gpu_msm.cpp) fills the pointers from it, the CPU tests run the kernel bodies on
// host memory laid out the same way.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <proofline/cuda/kernels/detail/msm_body.hpp>

namespace proofline::cuda::detail {

/// Largest n: entry positions (W n) must fit 32 bits with the sign bit free in point indices.
inline constexpr std::size_t kMsmMaxPoints = std::size_t{1} << 28;

/// The window width the cost model picks for `dense` scalars of `scalar_bits` bits (kMsmScalarBits) that go
/// through Pippenger: per window, n mixed additions (about 10 field multiplications) against about 2^c full
/// additions of the running sums (14, and more memory traffic), paid once per window or, with precomputed
/// windows (one shared bucket set), once at kMsmTableBucketCost. Between 4 and 22 bits.
int msm_model_window_bits(std::size_t dense, int scalar_bits, bool precomputed = false);

/// A bucket of a precomputed table's shared set, in the model's units (a mixed addition is 10): its running
/// sums as in the plain model (21) and its share of the sort's counts and of the chunk fixups, which at 2^20
/// points (about 56 entries per bucket with c = 19) weigh more than the extra window of a narrower table.
/// Fitted on an H200 at 2^20, where c = 17 instead of 19 proves batches of 2^20 jobs and each MSM faster
/// (perf/results/msm-table-bits-h200-2026-12-03). At 2^21, 2^22 and 2^24 points and beyond the
/// choice is what 21 gave (20, 20, 22); at 2^23 it is 20 instead of 22 (not measured).
inline constexpr double kMsmTableBucketCost = 30.0;

/// log2 of the scatter's passes over magnitude ranges (MsmCommonArgs::scatter_passes_log) for `dense`
/// scalars through Pippenger: the fewest passes that bring each pass's share of the entries (4 bytes each)
/// down to kMsmScatterWindowBytes of one window's entries (a bucket set per window) or kMsmScatterTableBytes
/// of all windows' (precomputed: one shared bucket set, so a pass writes into every window's part of its
/// buckets), at most one magnitude per pass. More passes re-read the digits once each: the two limits are
/// where an H200 stopped gaining (perf/results/msm-scatter-passes-h200-2026-12-02).
inline constexpr std::size_t kMsmScatterWindowBytes = std::size_t{32} << 20;
inline constexpr std::size_t kMsmScatterTableBytes = std::size_t{160} << 20;
int msm_scatter_passes_log(std::size_t dense, int window_bits, int windows, bool precomputed);

/// Points of one chunk of a precomputed table's build (its XYZZ work space): all n up to 2^20, else 2^20
/// (a multiple of the affine conversion's group).
inline constexpr std::size_t msm_table_chunk(std::size_t n) {
  return n < (std::size_t{1} << 20) ? n : std::size_t{1} << 20;
}

/// Entries per accumulate thread for `entries` sorted into `buckets`: the entries spread over
/// kMsmAccumulateThreads threads, 8 to kMsmMaxChunk each, at least kMsmSmallChunk while that leaves
/// kMsmSmallThreads threads, and, where buckets are deep, at least half a bucket's expected entries (at most
/// kMsmSmallChunk) while that leaves kMsmDeepBucketThreads threads. A bucket that crosses a
/// chunk boundary costs one more full addition in the fixup (and the hot-bucket sums where it crosses
/// several), and many short chunks cross many: at 2^20 points, chunks of 16 entries made the fixup a large
/// part of the MSM, and at 2^14-2^18 points chunks of 8-10 entries slowed batches of small jobs, while at
/// 2^16 points chunks of a whole bucket's entries for the sparse MSMs were slower than half (measured in
/// perf/NOTES-gpu-msm.md). The smallest MSMs (2^12 points) keep their short chunks: there the
/// accumulation's serial chain is the job's latency. Large MSMs keep many threads (at most 256 entries
/// each), so that their last wave is short.
inline constexpr std::size_t kMsmAccumulateThreads = std::size_t{1} << 17;
inline constexpr std::size_t kMsmSmallThreads = std::size_t{1} << 15;
inline constexpr std::size_t kMsmSmallChunk = 32;
inline constexpr std::size_t kMsmDeepBucketThreads = std::size_t{1} << 14;
inline constexpr std::size_t kMsmMaxChunk = 256;
std::uint32_t msm_chunk(std::size_t entries, std::size_t buckets);

/// The reduction for K slots per window: levels while more than kReduceTailValues values a window are left
/// (the first with segments big enough to give every thread a useful run, the rest of 8: they are latency
/// bound), then the tail's bit sums for what is left.
struct ReducePlan {
  std::vector<ReduceLevel> levels;
  ReduceTail tail;
};
inline constexpr std::uint32_t kReduceTailValues = 2048;
ReducePlan msm_reduce_plan(std::uint32_t slots_per_window, int windows,
                           std::uint32_t tail_values = kReduceTailValues);

/// Byte offsets of every array of one call in the scratch buffer (each 256-byte aligned), for a capacity of
/// `max_points`, scalars of `scalar_bits` bits and buckets of `xyzz_bytes`.
struct MsmLayout {
  int window_bits = 0;
  int windows = 0;
  bool precomputed = false;    ///< the windows share one bucket set (reduction levels for one window)
  int scatter_passes_log = 0;  ///< for max_points dense scalars (the engine lowers it for fewer)
  std::uint32_t slots_per_window = 0;
  std::uint32_t chunk = 0;
  std::uint32_t chunk_threads = 0;  ///< for max_points
  ReducePlan reduce_plan;
  std::uint32_t ones_blocks = 0;  ///< blocks of the ones' batch addition

  std::size_t counters = 0, counts = 0, starts = 0, cursor = 0, rest_index = 0, ones_entry = 0, entries = 0;
  std::size_t digits =
      0;  ///< shares its bytes with the four arrays below (dead by the time they are written)
  std::size_t head_bucket = 0, head = 0, cont = 0, hot_list = 0;
  std::size_t buckets = 0;
  std::size_t reduce[4] = {};  ///< (a, s) of even levels, (a, s) of odd levels
  std::size_t ones_partial = 0, ones_total = 0, result = 0;
  std::size_t scan_temp = 0, scan_temp_bytes = 0;
  std::size_t total = 0;
};

/// `expected_items`: the scalars a call is expected to send through the digits and the sort (0: max_points),
/// which size the accumulate chunks and the scatter's passes; the arrays hold max_points whatever it is.
MsmLayout msm_layout(std::size_t max_points, int window_bits, int scalar_bits, bool split, bool precomputed,
                     std::size_t xyzz_bytes, std::size_t jacobian_bytes, std::uint32_t ones_blocks,
                     std::size_t scan_temp_bytes, std::size_t expected_items = 0);

}  // namespace proofline::cuda::detail
