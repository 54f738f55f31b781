// Internal: which GPU a job goes to. A job is bound to a GPU when it is submitted (its key's SRS must be
// resident there before it is admitted), to the healthy GPU that holds its key with the least work bound to
// it. Work, not a count of jobs: with jobs of several sizes a count sends every large job of a batch that
// alternates sizes to the same GPU. A job weighs its rows plus a fixed cost per job, so that many small jobs
// do not all crowd onto the GPU that holds no large one.
#pragma once

#include <atomic>
#include <cstdint>

#include <proofline/devices/gpu_lane.hpp>

namespace proofline::graph::detail {

/// A job's fixed cost on a GPU in rows of work: launches and the latency of small kernels. On the H200 a
/// small job (2^8..2^16 rows) takes within 2x of the GPU time of 2^16 rows of a large one in a batch (the
/// small-domain and batch results under perf/results).
inline constexpr std::uint64_t kJobOverheadRows = std::uint64_t{1} << 16;

/// What a job of 2^log_rows rows weighs in a GPU's outstanding work.
constexpr std::uint64_t job_work(unsigned log_rows) noexcept {
  return (std::uint64_t{1} << log_rows) + kJobOverheadRows;
}

/// A job of 2^log_rows rows is bound to `lane`.
inline void bind_job(devices::GpuLane& lane, unsigned log_rows) noexcept {
  lane.outstanding.fetch_add(1, std::memory_order_relaxed);
  lane.outstanding_work.fetch_add(job_work(log_rows), std::memory_order_relaxed);
  lane.jobs.fetch_add(1, std::memory_order_relaxed);
}

/// It leaves `lane`: retired, or moved to another GPU after this one failed.
inline void unbind_job(devices::GpuLane& lane, unsigned log_rows) noexcept {
  lane.outstanding.fetch_sub(1, std::memory_order_relaxed);
  lane.outstanding_work.fetch_sub(job_work(log_rows), std::memory_order_relaxed);
}

/// The healthy lane among `lanes` (pointers to GpuLane) that `eligible` accepts with the least outstanding
/// work; ties go to the first. nullptr when none qualifies.
template <class Lanes, class Eligible>
devices::GpuLane* least_busy(const Lanes& lanes, Eligible&& eligible) {
  devices::GpuLane* least = nullptr;
  std::uint64_t least_work = 0;
  for (const auto& lane : lanes) {
    if (!lane->healthy.load() || !eligible(*lane)) continue;
    const std::uint64_t work = lane->outstanding_work.load(std::memory_order_relaxed);
    if (least == nullptr || work < least_work) {
      least = &*lane;
      least_work = work;
    }
  }
  return least;
}

}  // namespace proofline::graph::detail
