// Internal: the state every part of the pipeline shares. The flow graph's messages are copyable handles into
// it (a JobState pointer, a token id, a device-slot pointer); everything move-only (slot leases, budget
// reservations, resident handles) stays here, owned by the pipeline, never by a message.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/task_arena.h>

#include <proofline/arith/domain.hpp>
#include <proofline/graph/config.hpp>
#include <proofline/graph/detail/host_srs.hpp>
#include <proofline/graph/detail/token_gate.hpp>
#include <proofline/graph/job.hpp>
#include <proofline/graph/stats.hpp>
#include <proofline/trace/recorder.hpp>
#include <proofline/trace/verdict.hpp>
#include <proofline/groth16/prover.hpp>
#include <proofline/groth16/verifying_key.hpp>
#include <proofline/memory/budget.hpp>
#include <proofline/memory/pinned_pool.hpp>
#include <proofline/memory/pinning.hpp>
#include <proofline/memory/residency.hpp>

namespace proofline::graph::detail {

using SteadyClock = std::chrono::steady_clock;

struct JobState;
struct GpuDevice;   // CUDA backend resources of one GPU (nodes/detail/gpu_device.hpp)
struct DeviceSlot;  // a, b, c, z of one job on one GPU
struct Flow;        // the graph and its nodes (graph/detail/flow.hpp)

// ---- messages --------------------------------------------------------------------------------------------

/// A job waiting for a token. Ordered by priority, then submission.
struct JobMsg {
  JobState* job = nullptr;
  int priority = 0;
  std::uint64_t seq = 0;
};
struct JobOrder {
  /// priority_queue_node pops the "largest": higher priority, then the lower sequence number.
  bool operator()(const JobMsg& a, const JobMsg& b) const noexcept {
    return a.priority < b.priority || (a.priority == b.priority && a.seq > b.seq);
  }
};
/// A job that holds a token (and, past admission, a slot).
struct Work {
  JobState* job = nullptr;
};
/// The right to lease one device slot of one GPU.
struct DeviceSlotMsg {
  DeviceSlot* slot = nullptr;
};
/// A result on its way to delivery (through the sequencer when in order).
struct ResultMsg {
  std::uint64_t seq = 0;
  std::shared_ptr<JobState> job;
};

// ---- keys ------------------------------------------------------------------------------------------------

struct KeyState {
  std::uint64_t id = 0;
  std::string name;
  std::shared_ptr<const groth16::ProvingKey> pk;
  std::shared_ptr<const groth16::ConstraintSystem> cs;
  std::shared_ptr<const groth16::VerifyingKey> vk;
  std::optional<groth16::PreparedVerifyingKey> pvk;
  /// Set when the SRS is streamed from host memory (CUDA backend): no GPU holds it in VRAM. Declared after
  /// pk, so it is unpinned before the points can go; jobs hold the key, so it outlives their MSMs.
  std::unique_ptr<const HostSrs> host_srs;
  Domain domain = Domain::make(1, HConvention::generator7);
  /// Slot buffer sizes in bytes: a, b, c (domain) and z (variables).
  std::array<std::uint64_t, 4> slot_sizes{};
  std::uint64_t slot_bytes = 0;
  memory::ResidentHandle host;       ///< the host budget's charge for pk and cs while registered
  std::atomic<std::size_t> jobs{0};  ///< accepted and not yet retired
  bool removing = false;             ///< guarded by Core::keys_mutex
};

// ---- jobs ------------------------------------------------------------------------------------------------

enum class Phase : int {
  queued,     ///< in the job queue
  admitted,   ///< holds a token (its message is in the graph past admission)
  withdrawn,  ///< cancelled or timed out while queued: its result is out, its message is dropped at admission
};

/// One job, owned by the pipeline from submit() until its message leaves the graph. Fields without
/// synchronisation are touched only by the node that holds the job's message (one at a time, ordered by the
/// graph's task hand-offs); others touch only the atomics.
struct JobState : std::enable_shared_from_this<JobState> {
  JobId id = 0;
  std::uint64_t seq = 0;
  int priority = 0;
  std::string label;
  std::shared_ptr<KeyState> key;
  WitnessSource witness;
  std::function<void(const JobResult&)> on_result;
  std::promise<JobResult> promise;
  std::int64_t submit_ns = 0;
  std::int64_t admit_ns = 0;
  std::optional<SteadyClock::time_point> deadline;
  std::chrono::milliseconds timeout{0};

  std::atomic<Phase> phase{Phase::queued};
  std::atomic<bool> delivered{false};  ///< the result is out (exactly once)
  std::atomic<bool> abandoned{false};  ///< timed out in flight: stages skip it, resources still come home
  std::atomic<Stage> stage{Stage::queue};

  std::optional<JobError> error;  ///< the first failure, set by the stage holding the message
  TokenGate::Token token{};
  bool has_token = false;

  // Buffers: a pinned slot (pinned mode) or pageable vectors (baseline mode).
  memory::PinnedSlot* slot = nullptr;
  std::vector<Fr> heap_a, heap_b, heap_c, heap_z;
  memory::Reservation heap_charge;
  std::span<Fr> a, b, c, z;

  std::vector<Fr> publics;
  int gpu = -1;                       ///< index into Core::gpus
  DeviceSlot* device_slot = nullptr;  ///< while bound to a GPU
  memory::ResidentHandle gpu_key;     ///< the key's SRS in that GPU's memory, in use by this job
  groth16::MsmResults msm;
  std::optional<groth16::Proof> proof;
  bool verified = false;
  JobResult result;  ///< written once, by whoever wins `delivered`; read by the sink

  bool skip() const noexcept { return error.has_value() || abandoned.load(std::memory_order_acquire); }
};

// ---- GPUs (the CUDA-free part; the rest is GpuDevice)
// ------------------------------------------------------

struct GpuDeleter {
  void operator()(GpuDevice* device) const noexcept;
};

struct GpuLane {
  int index = 0;   ///< position in Core::gpus
  int device = 0;  ///< CUDA device ordinal
  std::string name;
  std::atomic<std::size_t> outstanding{0};  ///< jobs routed here and not retired
  std::atomic<std::uint64_t> jobs{0};
  std::atomic<bool> healthy{true};  ///< false after a sticky CUDA error: its jobs fail, none is routed here
  /// The streamed-SRS counters of the last GpuDevice (kept for stats after shutdown frees the device).
  std::atomic<std::uint64_t> srs_stream_batches_final{0}, srs_stream_bytes_final{0};
  trace::TrackId copy_track{};     ///< spans of the copy stream (H2D)
  trace::TrackId compute_track{};  ///< spans of the compute stream (H, MSMs)
  std::unique_ptr<GpuDevice, GpuDeleter> resources;
};

// ---- the core --------------------------------------------------------------------------------------------

struct StageIds {
  trace::StageId admission, synthesis, ntt, msm, release;              // node bodies
  trace::StageId h2d_submit, unpin, ntt_submit, msm_submit, gpu_done;  // CUDA node bodies
  trace::StageId baseline, baseline_lock;                              // baseline mode
  trace::StageId h2d, gpu_ntt, gpu_msm;                                // device work on streams
  trace::TrackId pool_leased, pool_idle, waiting;                      // counters
};

struct Core {
  explicit Core(Config config);
  ~Core();

  Config config;
  Backend backend = Backend::cpu;
  Mode mode = Mode::pinned;
  std::size_t threads = 1;
  std::size_t synthesis_concurrency = 1;
  std::size_t slot_cap = 1;

  trace::Recorder recorder;
  StageIds ids{};

  std::unique_ptr<memory::PinningBackend> pinning;
  std::unique_ptr<memory::Budget> host_budget;
  std::unique_ptr<memory::PinnedPool> pool;
  std::unique_ptr<memory::Residency> host_keys;
  std::vector<std::unique_ptr<GpuLane>> gpus;

  TokenGate gate;
  std::atomic<std::uint64_t> baseline_held{0};  ///< bytes of pageable vectors leased now (baseline mode)
  std::mutex cpu_baseline_mutex;                ///< the CPU backend's "device" in baseline mode

  // Keys.
  mutable std::mutex keys_mutex;
  std::condition_variable keys_changed;
  std::map<std::uint64_t, std::shared_ptr<KeyState>> keys;
  std::uint64_t next_key_id = 1;
  std::mutex add_mutex;  ///< serialises add_key/remove_key (held while they block; no node body takes it)
  mutable std::mutex largest_mutex;   ///< held only for a copy: node bodies read `largest`
  std::shared_ptr<KeyState> largest;  ///< the key with the largest slot: tokens are counted in its slots
  bool device_slots_ready = false;    ///< guarded by add_mutex

  // Jobs.
  mutable std::mutex jobs_mutex;
  std::condition_variable room;      ///< the queue has room (submit waits on it)
  std::condition_variable finished;  ///< a job retired (drain waits on it)
  std::unordered_map<JobId, std::shared_ptr<JobState>> jobs;
  std::multimap<SteadyClock::time_point, JobId> deadlines;
  JobId next_job_id = 1;
  std::uint64_t next_seq = 0;
  std::size_t queued = 0;                  ///< phase queued
  std::atomic<std::size_t> queued_now{0};  ///< the same, readable without the lock (counters, stats)
  std::size_t outstanding = 0;             ///< accepted, message not retired
  std::uint64_t results_delivered = 0;
  bool closed = false;
  bool shut_down = false;

  // Counters for stats.
  std::array<std::atomic<std::size_t>, 8> in_stage{};
  std::atomic<std::uint64_t> submitted{0}, refused{0}, proofs{0}, failed{0}, cancelled{0}, timed_out{0},
      verified{0};
  std::atomic<std::size_t> slots_in_flight{0}, max_inflight_slots{0};

  // The graph and the thread that watches deadlines, tokens and GPU clocks.
  /// Held when the arena wants as many workers as there are hardware threads or more: raises oneTBB's
  /// process-wide worker limit so the arena really gets the threads asked for (declared before the arena, so
  /// it outlives it).
  std::optional<oneapi::tbb::global_control> thread_limit;
  oneapi::tbb::task_arena arena;
  std::unique_ptr<Flow> flow;
  std::mutex supervisor_mutex;
  std::condition_variable supervisor_wake;
  bool supervisor_stop = false;
  std::thread supervisor;

  // ---- helpers used by the node bodies (graph/core.cpp)
  // ----------------------------------------------------

  /// Moves a job to `stage` in the per-stage counts.
  void enter(JobState& job, Stage stage) noexcept;
  /// Calls the fault hook (tests).
  void hook(Stage stage, const JobState& job) const;
  /// Records the first error of a job.
  void fail(JobState& job, Stage stage, Errc code, const std::string& what) noexcept;
  /// Runs `body`, turning any exception into the job's error in `stage`.
  template <class F>
  void guarded(JobState& job, Stage stage, F&& body) noexcept {
    try {
      body();
    } catch (const Error& e) {
      fail(job, stage, e.code(), e.what());
    } catch (const std::exception& e) {
      fail(job, stage, Errc::internal, e.what());
    } catch (...) {
      fail(job, stage, Errc::internal, "unknown exception");
    }
  }

  /// The token count the pool (or the budget, in baseline mode) holds now for the largest key's slot.
  std::size_t token_target() const;
  /// A token came home: the tokens to put back into the token buffer (none when withheld).
  void return_token(JobState& job, std::vector<TokenGate::Token>& out);
  /// Puts tokens into the token buffer from outside the graph (start, keys added or removed, supervisor).
  void refill_tokens();
  /// When nothing is in flight (drain): makes the token count equal the target now. Withholding is lazy
  /// (tokens are retired as they come home) and the pool's target dips while a lease pins or an idle buffer
  /// is unpinned, so without this the count after a batch depends on which tokens happened to come home
  /// when; surplus tokens still in the buffer are retired and missing ones minted.
  void settle_tokens();

  /// Takes a job's pinned slot or pageable vectors back (idempotent).
  void release_buffers(JobState& job) noexcept;
  /// Delivers the job's result once (the first caller wins): directly, or through the sequencer.
  bool deliver(JobState& job, std::optional<JobError> early = std::nullopt);
  /// Runs the callbacks and fulfils the future (the sink).
  void deliver_now(const std::shared_ptr<JobState>& job) noexcept;
  /// The job's message has left the graph: drop it, wake drain().
  void retire(JobState& job) noexcept;

  /// Samples the pool and queue counters.
  void sample_counters() noexcept;
  std::shared_ptr<KeyState> find_key(KeyHandle handle) const;
};

/// The current time on the recorder's clock.
inline std::int64_t now_ns(const Core& core) noexcept {
  return core.recorder.now_ns();
}

}  // namespace proofline::graph::detail
