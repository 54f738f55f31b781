// Live statistics of a Pipeline: queue depth, jobs per stage, tokens, the pinned pool, the budgets. A plain
// value, copied out under the pipeline's locks; cheap enough to poll for a status page.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <proofline/graph/config.hpp>

namespace proofline::graph {

/// Jobs in each stage now (a job waiting for a stage counts in it; h2d includes waiting for a device slot).
struct StageCounts {
  std::size_t queue = 0, admission = 0, synthesis = 0, h2d = 0, ntt = 0, msm = 0, release = 0, baseline = 0;

  std::size_t in_flight() const noexcept {
    return admission + synthesis + h2d + ntt + msm + release + baseline;
  }
};

/// A budget (host RAM, or one GPU's VRAM): everything pinned or resident is charged to it.
struct BudgetStats {
  std::uint64_t total = 0;
  std::uint64_t used = 0;
  std::uint64_t high_water = 0;
  std::uint64_t waits = 0;      ///< reservations that had to queue
  std::uint64_t evictions = 0;  ///< evictor calls that freed something
  std::uint64_t bytes_evicted = 0;
  std::size_t waiting = 0;  ///< reservations queued now
};

/// The pool of pinned buffers the jobs' slots are leased from.
struct PoolStats {
  std::uint64_t slot_leases = 0;
  std::uint64_t reuse_hits = 0;  ///< buffers served from idle ones
  std::uint64_t misses = 0;      ///< buffers that had to be pinned
  std::uint64_t pin_calls = 0;
  std::uint64_t pin_calls_since_warm = 0;  ///< since the first key's slots were prewarmed: 0 in steady state
  double pin_seconds = 0;
  std::uint64_t bytes_pinned = 0;  ///< held now, leased or idle
  std::uint64_t bytes_idle = 0;
  std::uint64_t bytes_leased = 0;
  std::uint64_t high_water = 0;  ///< most bytes_pinned ever
  std::size_t slots_out = 0;
};

/// Keys resident in a memory (host RAM, or one GPU's VRAM).
struct ResidencyStats {
  std::uint64_t loads = 0;  ///< keys loaded (uploaded, for a GPU), each time they were
  std::uint64_t evictions = 0;
  std::uint64_t bytes_resident = 0;
  std::size_t entries = 0;
  std::size_t in_use = 0;
};

struct GpuStats {
  int device = 0;
  std::string name;
  BudgetStats vram;
  ResidencyStats keys;  ///< proving keys resident in this GPU's memory
  std::size_t device_slots = 0;
  std::size_t device_slots_in_use = 0;
  /// Time with at least one job bound to a device slot (its rate: how well the host keeps the GPU fed).
  double occupied_seconds = 0;
  std::uint64_t jobs = 0;  ///< jobs routed here so far
  /// Keys streamed from host memory: MSM batches uploaded and their bytes (0 when every key is in VRAM).
  std::uint64_t srs_stream_batches = 0;
  std::uint64_t srs_stream_bytes = 0;
  /// Precomputed-window MSM tables (Config::msm_tables) of the keys resident here: how many queries have
  /// one, and their VRAM beyond the points themselves (charged to the budget with the keys).
  unsigned msm_tables = 0;
  std::uint64_t msm_table_bytes = 0;
  bool healthy = true;  ///< false after a sticky CUDA error: its jobs fail, others go on
};

/// How long jobs took, counted in fixed buckets (Prometheus's histogram: cumulative counts).
struct LatencyHistogram {
  static constexpr std::array<double, 16> bounds{0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1,
                                                 2.5,   5,    10,    25,   50,  100,  250, 1000};
  std::array<std::uint64_t, bounds.size()> at_most{};  ///< jobs that took at most bounds[i] seconds
  std::uint64_t count = 0;                             ///< all of them
  double sum_seconds = 0;
};

struct PipelineStats {
  Backend backend = Backend::cpu;
  Mode mode = Mode::pinned;

  std::uint64_t submitted = 0;  ///< accepted by submit/try_submit
  std::uint64_t refused = 0;    ///< try_submit found the queue full
  std::uint64_t proofs = 0;     ///< results with a proof
  std::uint64_t failed = 0;     ///< results with an error (cancelled and timed-out included)
  std::uint64_t cancelled = 0;
  std::uint64_t timed_out = 0;
  std::uint64_t retried = 0;  ///< jobs proved again after their GPU went out of service
  std::uint64_t verified = 0;
  LatencyHistogram proof_seconds;   ///< proved jobs: from submission to their result
  LatencyHistogram queued_seconds;  ///< proved jobs: from submission to admission (waiting for a token)

  std::size_t queue_depth = 0;  ///< jobs waiting for a token
  StageCounts stages;

  std::size_t tokens = 0;              ///< tokens alive (in the buffer or held by jobs)
  std::size_t token_target = 0;        ///< what the pool can hold now for the largest key's slot, capped
  std::size_t tokens_parked = 0;       ///< tokens waiting for capacity after a failed lease
  std::uint64_t token_parks = 0;       ///< leases that failed and parked their token, since the start
  std::size_t slots_in_flight = 0;     ///< slots leased by jobs now
  std::size_t max_inflight_slots = 0;  ///< the most ever leased at once
  std::size_t synthesis_permits = 0;   ///< jobs that may synthesize at once now (it ramps up while jobs wait)
  std::size_t max_synthesis_permits = 0;  ///< the most ever, at most Config::synthesis_concurrency
  std::uint64_t slot_bytes =
      0;  ///< the largest key's usual slot (a, b, c, z, or z alone when the GPU evaluates)

  PoolStats pool;
  BudgetStats host_budget;
  ResidencyStats host_keys;
  std::vector<GpuStats> gpus;
};

}  // namespace proofline::graph
