// Internal: the state of one Pipeline. The stage bodies get only the nodes::Context inside it; the rest
// (keys, the job table, admission, the graph, the supervisor) is the graph's own.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/task_arena.h>

#include <proofline/graph/config.hpp>
#include <proofline/graph/detail/admission.hpp>
#include <proofline/graph/detail/latency_counter.hpp>
#include <proofline/graph/detail/removed_keys.hpp>
#include <proofline/graph/job.hpp>
#include <proofline/graph/testing.hpp>
#include <proofline/memory/budget.hpp>
#include <proofline/memory/pinned_pool.hpp>
#include <proofline/memory/pinning.hpp>
#include <proofline/memory/residency.hpp>
#include <proofline/nodes/context.hpp>
#include <proofline/trace/recorder.hpp>
#include <proofline/util/error.hpp>

namespace proofline::graph::detail {

/// True on a thread while it runs a job's result callbacks (Core::deliver_now). A submit from there does not
/// wait for a key that is giving up MSM tables (KeyState::routing): it would hold a pipeline thread that the
/// key's jobs in flight may need to finish.
inline thread_local bool in_result_callback = false;

/// Inside a result callback or a witness callback (nodes::in_witness_callback): a pipeline thread that the
/// jobs in flight may need.
inline bool in_caller_callback() noexcept {
  return in_result_callback || nodes::in_witness_callback;
}

/// Calls that wait for jobs to end (drain, shutdown, add_key and remove_key, which may wait for jobs to free
/// memory or to leave a key) throw Error(invalid_argument) inside a callback instead of waiting for ever.
inline void refuse_inside_callback(const char* what) {
  if (in_caller_callback())
    throw Error(Errc::invalid_argument,
                std::string(what) +
                    " cannot be called from a result or witness callback: it waits for "
                    "jobs, which may need the thread the callback holds");
}

using SteadyClock = std::chrono::steady_clock;
using nodes::JobState;
using nodes::KeyState;
using nodes::Phase;

struct Flow;  // the graph and its nodes (detail/flow.hpp)

struct Core {
  Core(Config config, testing::Hooks hooks);
  ~Core();

  Config config;
  testing::Hooks hooks;
  Backend backend = Backend::cpu;
  Mode mode = Mode::pinned;
  std::size_t threads = 1;
  std::size_t synthesis_concurrency = 1;
  std::size_t slot_cap = 1;

  trace::Recorder recorder;
  std::unique_ptr<memory::PinningBackend> pinning;
  std::unique_ptr<memory::Budget> host_budget;
  std::unique_ptr<memory::PinnedPool> pool;
  std::unique_ptr<memory::Residency> host_keys;
  std::unique_ptr<nodes::Context> ctx;  ///< what the stage bodies get (and the GPUs)
  Admission admission;
  std::atomic<bool> mint_pending{false};  ///< a capacity event is on its way to the mint node

  // Keys.
  mutable std::mutex keys_mutex;
  std::condition_variable keys_changed;
  std::map<std::uint64_t, std::shared_ptr<KeyState>> keys;
  /// The names of the keys remove_key unregistered last, by id (ids are never reused): a submit that races a
  /// key's removal is told so, not that its handle is unknown. Bounded (Hooks::removed_key_names).
  RemovedKeyNames removed_keys;
  std::mutex add_mutex;  ///< serialises add_key/remove_key (held while they block; no node body takes it)
  mutable std::mutex largest_mutex;   ///< held only for a copy: node bodies read `largest`
  std::shared_ptr<KeyState> largest;  ///< the key with the largest slot: tokens are counted in its slots
  bool device_slots_ready = false;    ///< guarded by add_mutex

  // Jobs.
  mutable std::mutex jobs_mutex;
  std::condition_variable room;                     ///< the queue has room (submit waits on it)
  std::condition_variable finished;                 ///< a job retired (drain waits on it)
  std::map<JobId, std::shared_ptr<JobState>> jobs;  ///< by id, which grows with each submission (drain reads)
  std::multimap<SteadyClock::time_point, JobId> deadlines;
  JobId next_job_id = 1;
  std::uint64_t next_seq = 0;
  /// The latest turn admitted (Config::keys_take_turns): a key that had no jobs waiting starts from here, so
  /// it neither jumps the jobs already admitted nor saves up turns while idle.
  std::uint64_t turn_clock = 0;
  std::size_t queued = 0;       ///< phase queued (also in ctx->counters.queued, readable without the lock)
  std::size_t outstanding = 0;  ///< accepted, message not retired
  std::uint64_t results_delivered = 0;
  std::set<JobId> undelivered;  ///< accepted jobs whose future is not fulfilled yet (drain reads)
  bool closed = false;
  bool shut_down = false;

  // Counters for stats.
  std::atomic<std::uint64_t> submitted{0}, refused{0}, proofs{0}, failed{0}, cancelled{0}, timed_out{0},
      verified{0}, retried{0};
  LatencyCounter proof_seconds, queued_seconds;  ///< of proved jobs (PipelineStats)

  // The graph and the thread that watches deadlines, counters and GPU clocks.
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

  std::vector<std::unique_ptr<devices::GpuLane>>& gpus() noexcept { return ctx->gpus; }

  /// The token count the pool (or the budget, in baseline mode) holds now for the largest key's slot.
  std::size_t token_target() const;
  /// Capacity may have grown (a slot or budget bytes came back): mint tokens, from a graph node (this may run
  /// on any thread, inside the pool's or the budget's callers).
  void signal_capacity() noexcept;
  /// A key came or went: mint tokens up to the target now, on the calling thread (which holds no lock).
  void mint_now();
  /// When nothing is in flight (drain): makes the token count equal the target now. Withholding is lazy
  /// (tokens are retired as they come home), so without this the count after a batch depends on which tokens
  /// happened to come home when; surplus tokens still in the buffer are retired and missing ones minted.
  void settle_tokens();
  /// A token came home with `job` (if it held one): what to put back into the token buffer. Out of memory,
  /// the token is retired instead and a capacity event mints it again.
  void return_token(JobState& job, std::vector<Token>& out) noexcept;

  /// Prepares the job's result once (the first caller wins); false when it was out already. Never fails: a
  /// result that cannot be copied for want of memory becomes a failure (Errc::io) without its proof.
  bool prepare_result(JobState& job, std::optional<JobError> early = std::nullopt) noexcept;
  /// Gives the recorder the job's life: queued, in flight (admitted_ns, 0 if never), and how it ended.
  void record_job(const JobState& job, const JobResult& r, std::int64_t admitted_ns,
                  std::int64_t finished_ns) noexcept;
  /// Delivers a result prepared outside the graph (cancel, timeout) through the graph's result entry; while
  /// the job's witness callback runs, it waits for the callback to return (Flow::synthesize delivers it).
  void deliver_early(JobState& job, JobError error) noexcept;
  /// Runs the callbacks and fulfils the future (the sink); once per job, whoever calls it again.
  void deliver_now(const std::shared_ptr<JobState>& job) noexcept;
  /// deliver_now on the calling thread for a result the graph did not take (put_result), saying `why`.
  void deliver_directly(const std::shared_ptr<JobState>& job, const char* why) noexcept;
  /// The job's message has left the graph: drop it, wake drain().
  void retire(JobState& job) noexcept;

  std::shared_ptr<KeyState> find_key(KeyHandle handle) const;
  /// find_key, or Error(invalid_argument) that says whether the key was removed or never registered;
  /// `what` ("submit") prefixes the message.
  std::shared_ptr<KeyState> registered_key(KeyHandle handle, const char* what) const;
  void stop_supervisor();
};

/// The least busy healthy GPU that can run a job of `key` now without loading anything (graph/submit.cpp):
/// one that streams the SRS of a streamed key, else one that holds its SRS in VRAM (with a handle that keeps
/// it there); nullopt when none.
std::optional<std::pair<int, memory::ResidentHandle>> ready_lane(Core& core, const KeyState& key);

/// Where a job of `key` can run now: ready_lane's GPU, else the CPU (-1) with Config::cpu_fallback; nullopt
/// when nowhere. Never blocks: node bodies call it.
std::optional<std::pair<int, memory::ResidentHandle>> route_now(Core& core, const KeyState& key);

/// A job that failed because its GPU went out of service under it (graph/failover.cpp): when another place
/// can prove it, its state is reset for another attempt and it is marked queued again (true: the caller puts
/// it back into the job queue after its buffers and token went home). False: its failure stands.
bool requeue_after_gpu_loss(Core& core, JobState& job);

/// The supervisor thread's loop (graph/supervisor.cpp): deadlines, counters, GPU upkeep; no tokens.
void supervise(Core& core);

}  // namespace proofline::graph::detail
