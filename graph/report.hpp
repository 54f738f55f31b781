// The numbers of one batch, computed from the pipeline's spans and statistics: what batch_prove prints at
// the end and writes with --report (and what the end-to-end benchmark, perf/e2e_table.py, reads). Everything
// comes from the trace (trace/stats.hpp), so the report describes exactly what the timeline shows.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <proofline/graph/stats.hpp>
#include <proofline/trace/snapshot.hpp>
#include <proofline/trace/stats.hpp>
#include <proofline/trace/verdict.hpp>

namespace proofline::graph {

struct StageReport {
  std::string name;
  std::size_t count = 0;
  double busy_s = 0;  ///< summed span time (CPU-seconds for stages on several threads)
  double p50_ms = 0;
  double p99_ms = 0;
  double mean_ms = 0;
  std::uint64_t bytes = 0;
};

struct RunReport {
  std::string backend;
  std::string mode;
  /// The curve of the keys proved ("BLS12-381", "BN254"), as the caller that registered them says; empty:
  /// not said.
  std::string curve;
  std::vector<int> gpus;                ///< device ordinals (empty on the CPU backend)
  std::vector<std::uint64_t> gpu_jobs;  ///< jobs routed to each of `gpus`
  /// Bytes of SRS points streamed from host memory to the GPUs (keys not resident in VRAM), all GPUs.
  std::uint64_t srs_stream_bytes = 0;
  /// What one GPU's VRAM held for the run (the device-slot plan and the keys' MSM tables), in `gpus` order.
  struct GpuMemory {
    std::size_t device_slots = 0;
    unsigned msm_tables = 0;  ///< queries of the resident keys with a precomputed-window table
    std::uint64_t msm_table_bytes = 0;
    std::uint64_t vram_budget = 0;
    std::uint64_t vram_high_water = 0;
  };
  std::vector<GpuMemory> gpu_memory;

  std::uint64_t jobs = 0;           ///< the batch's jobs, submitted or not
  std::uint64_t not_submitted = 0;  ///< of those, never submitted (the run was stopped first)
  std::uint64_t proofs = 0;
  std::uint64_t failed = 0;
  std::uint64_t cancelled = 0;  ///< cancelled before they ran (not counted in failed)
  std::uint64_t retried = 0;    ///< proved again after their GPU failed under them
  std::uint64_t verified = 0;
  double wall_s = 0;
  double proofs_per_s = 0;
  std::size_t max_inflight_slots = 0;
  std::size_t max_synthesis_permits = 0;  ///< the most jobs that could synthesize at once
  std::size_t tokens = 0;
  std::uint64_t slot_bytes = 0;

  std::vector<StageReport> stages;  ///< every stage with spans, over the whole run
  /// Compute-stream busy time over each GPU's steady state (from the end of the first job's compute-stream
  /// work to the begin of the last job's: the first and last job excluded), averaged over GPUs. None on the
  /// CPU backend or with fewer than three jobs on a GPU.
  std::optional<double> gpu_busy_fraction;
  /// The same over the whole batch (fill and drain included).
  std::optional<double> gpu_busy_fraction_run;
  /// The length of that steady state (per GPU: from the end of the first job's compute-stream work to the
  /// begin of the last job's), averaged over GPUs.
  std::optional<double> gpu_steady_s;
  std::optional<double> h2d_gbps;  ///< copy bytes over copy time, as the copy spans measured them
  /// Per GPU, in `gpus` order: compute-stream busy over its own steady state (none with fewer than three
  /// jobs on it), and its H2D copies' rate (none without copies). With several GPUs copying at once, each
  /// link's rate under the shared host memory and PCIe.
  std::vector<std::optional<double>> gpu_busy_each, h2d_gbps_each;
  std::optional<double> steady_state_s;
  std::string verdict;  ///< one line: what bounds the run

  struct Pool {
    std::uint64_t leases = 0, hits = 0, misses = 0, pin_calls = 0, pin_calls_after_warmup = 0;
    double pin_s = 0;
    std::uint64_t bytes_pinned = 0, high_water_bytes = 0, leased_bytes_at_exit = 0;
  } pool;
  struct Budget {
    std::uint64_t host_total = 0, host_high_water = 0;
  } budget;

  /// Numbers the caller adds about the run (batch_prove: the circuit size, presynthesis, its H2D probe), in
  /// order; written as the "extra" object and one summary line.
  std::vector<std::pair<std::string, double>> extra;
};

/// `stats` taken after the batch (after drain or shutdown, so leased_bytes_at_exit means what it says);
/// `wall_s` the batch's wall time as the caller measured it (> 0).
RunReport make_run_report(const trace::Snapshot& snapshot, const trace::RunRoles& roles,
                          const PipelineStats& stats, std::uint64_t jobs, double wall_s);

/// The report as JSON text (pretty-printed, trailing newline), every field of RunReport; absent optionals
/// are null.
std::string report_json(const RunReport& report);

/// The end-of-run summary for people, a few lines.
std::string report_summary(const RunReport& report);

}  // namespace proofline::graph
