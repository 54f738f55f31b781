// What the stage bodies work with: the recorder and their stage ids, the settings that change what they do,
// the host budget and pinned pool they lease from, the GPUs, and the counters they keep. The graph owns one
// Context and hands it to every body; bodies return their outcome and the graph does the routing (tokens,
// delivery, retirement), so no body knows the graph.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include <proofline/devices/gpu_lane.hpp>
#include <proofline/memory/budget.hpp>
#include <proofline/memory/pinned_pool.hpp>
#include <proofline/nodes/job_state.hpp>
#include <proofline/trace/recorder.hpp>
#include <proofline/util/error.hpp>

namespace proofline::nodes {

/// Records the first error of a job ("<stage>: <what>").
void fail(JobState& job, Stage stage, Errc code, const std::string& what) noexcept;
/// What a job fails with when its witness does not satisfy constraint `row` of key `key` (found by the
/// host's or the GPU's row check).
std::string unsatisfied_row_message(std::uint64_t row, const std::string& key);
/// The error code of an exception (Errc::internal for anything but proofline::Error).
Errc error_code_of(const std::exception& e) noexcept;

struct StageIds {
  trace::StageId admission, synthesis, ntt, msm, release;              // node bodies
  trace::StageId h2d_submit, unpin, ntt_submit, msm_submit, gpu_done;  // CUDA node bodies
  trace::StageId baseline, baseline_lock;                              // baseline mode
  trace::StageId h2d, gpu_ntt, gpu_msm;                                // device work on streams
  trace::TrackId pool_leased, pool_idle, waiting;                      // counters
};

/// What changes what the bodies do.
struct Settings {
  bool pinned = true;         ///< pinned slots (the design) or pageable vectors (baseline mode)
  bool verify = false;        ///< verify every proof before delivering it
  bool check_witness = true;  ///< check a_i·b_i = c_i on every row after synthesis
  bool wipe_slots = false;    ///< zero each job's slot as it comes home (baseline vectors are always zeroed)
  FaultHook fault_hook;       ///< fault injection (tests)
};

struct Counters {
  std::array<std::atomic<std::size_t>, 8> in_stage{};  ///< jobs per Stage now
  std::atomic<std::size_t> queued{0};                  ///< jobs waiting for a token
  std::atomic<std::size_t> slots_in_flight{0}, max_inflight_slots{0};
  std::atomic<std::uint64_t> baseline_held{0};  ///< bytes of pageable vectors leased now (baseline mode)
};

class Context {
 public:
  /// Registers the stages and counter tracks in `recorder`. Every reference must outlive the context.
  Context(trace::Recorder& recorder, memory::Budget& host_budget, memory::PinnedPool& pool,
          Settings settings);

  trace::Recorder& recorder;
  memory::Budget& host_budget;
  memory::PinnedPool& pool;
  const Settings settings;
  const StageIds ids;
  Counters counters;
  /// The GPUs (CUDA backend), indexed by JobState::gpu.
  std::vector<std::unique_ptr<devices::GpuLane>> gpus;
  std::mutex cpu_baseline_mutex;  ///< the CPU backend's "device" in baseline mode

  std::int64_t now_ns() const noexcept { return recorder.now_ns(); }
  /// Moves a job to `stage` in the per-stage counts.
  void enter(JobState& job, Stage stage) noexcept;
  /// Calls the fault hook, if any.
  void hook(Stage stage, const JobState& job) const;
  /// Runs `body`, turning any exception into the job's error in `stage`.
  template <class F>
  void guarded(JobState& job, Stage stage, F&& body) noexcept {
    try {
      body();
    } catch (const Error& e) {
      fail(job, stage, e.code(), e.what());
    } catch (const std::bad_alloc&) {
      // The system refused memory: io (the caller may retry), not internal (a bug in proofline).
      fail(job, stage, Errc::io, "out of memory (std::bad_alloc)");
    } catch (const std::exception& e) {
      fail(job, stage, Errc::internal, e.what());
    } catch (...) {
      fail(job, stage, Errc::internal, "unknown exception");
    }
  }
  /// Zeroes the job's z, a, b, c (slot or pageable vectors) in parallel.
  void wipe_witness(JobState& job) noexcept;
  /// Gives a job's pinned slot and pageable vectors back (idempotent).
  void release_buffers(JobState& job) noexcept;
  /// Wipes and frees the job's pageable vectors and returns their budget charge.
  void free_heap_vectors(JobState& job) noexcept;
  /// The pool's and the queue's counters, as the recorder charts them.
  struct CounterValues {
    std::uint64_t pool_leased = 0, pool_idle = 0, waiting = 0;
    bool operator==(const CounterValues&) const = default;
  };
  CounterValues counter_values() const noexcept;
  /// Records `values` as samples taken now.
  void record_counters(const CounterValues& values) noexcept;
  /// Samples the pool and queue counters into the recorder.
  void sample_counters() noexcept { record_counters(counter_values()); }
  devices::GpuLane& gpu_of(const JobState& job) { return *gpus[static_cast<std::size_t>(job.gpu)]; }
};

}  // namespace proofline::nodes
