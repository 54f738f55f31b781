// The batch prover: a oneTBB flow graph whose concurrency is governed by pinned-slot tokens (docs/design.md).
// Build it from a Config, register keys, submit jobs; each job's result (a proof or an error) arrives as soon
// as it is done, through the job's callback, Config::on_result and its future.
//
//   graph::Pipeline prover(graph::Config{.verify = true});
//   const auto key = prover.add_key({.name = "my-circuit", .pk = pk, .cs = cs, .vk = vk});
//   auto submitted = prover.submit({.key = key, .witness = graph::MemoryWitness{z}});
//   const graph::JobResult result = submitted.result.get();
//
// Thread safety: every member function may be called from any thread, concurrently, except that the
// destructor and moves must not race with other calls. A moved-from Pipeline may only be destroyed or
// assigned (its other members throw Error(invalid_argument), except the noexcept accessors, which must not
// be called). Observability (the span recorder) is in graph/observe.hpp, test hooks in graph/testing.hpp.
// Callbacks run on pipeline threads and may call submit/cancel; drain and shutdown throw
// Error(invalid_argument) there, and the destructor must not run there (each waits for the callbacks): it
// aborts the process saying so rather than wait for ever.
#pragma once

#include <memory>
#include <optional>

#include <proofline/graph/config.hpp>
#include <proofline/graph/job.hpp>
#include <proofline/graph/stats.hpp>
#include <proofline/graph/testing.hpp>

namespace proofline::trace {
class Recorder;
struct RunRoles;
}  // namespace proofline::trace

namespace proofline::graph {

namespace detail {
struct Core;
}

class Pipeline {
 public:
  /// Resolves the backend, sizes the host budget, creates the pinned pool, the GPUs' streams and budgets, and
  /// the graph. Throws Error(invalid_argument) for unusable options, Error(cuda) when the CUDA backend is
  /// asked for and no device is usable. A host budget too small for a key and a slot is found by add_key
  /// (Error(out_of_budget), naming the sizes).
  explicit Pipeline(Config config = {});
  /// shutdown(ShutdownMode::drain) if it was not called.
  ~Pipeline();
  Pipeline(Pipeline&&) noexcept;
  /// Shuts this pipeline down (draining) before taking the other's.
  Pipeline& operator=(Pipeline&&) noexcept;
  Pipeline(const Pipeline&) = delete;
  Pipeline& operator=(const Pipeline&) = delete;

  /// Registers a key and makes it resident before any of its jobs is admitted (not from a result or witness
  /// callback: Error(invalid_argument), as it may wait for jobs): its bytes are charged to the
  /// host budget (evicting idle pool buffers first) and, on the CUDA backend, its SRS is uploaded to the GPUs
  /// whose VRAM budget holds it, beside the keys resident there: their MSM tables give way first (a key whose
  /// jobs are running lets those finish, at most 30 s, its new submits waiting, before it is uploaded again
  /// with fewer), and only keys whose SRS cannot stay together are evicted, least recently used first. A key
  /// that no GPU's VRAM holds (or every key, with Config::srs = host) is streamed instead: its points stay in
  /// host memory - used where they are when already page-locked, else copied once into a pinned buffer
  /// charged to the host budget - and its MSMs upload them in batches. May block for that. Throws
  /// Error(invalid_argument) for an inconsistent key, Error(out_of_budget) when the host budget cannot hold
  /// the key and one pinned slot of its jobs, or when Config::srs = vram and no GPU holds the SRS (a clear
  /// error at start, not a hang later).
  KeyHandle add_key(KeySpec spec);
  /// A BN254 (bn128) key, as above, on either backend. One pipeline holds keys of both curves and proves
  /// their jobs side by side (on the GPUs, with each curve's kernels and one set of device slots: both
  /// curves' scalars are 32 bytes); each job's result carries its curve (JobResult::curve).
  KeyHandle add_key(BasicKeySpec<Bn254> spec);
  /// Unregisters a key once no queued or running job uses it (waits for that; so not from a callback); its
  /// memory becomes evictable and the pool may grow into it. Results of its last jobs may still be on their
  /// way to their callbacks and futures when it returns (drain() waits for those). Error(invalid_argument)
  /// for a key removed already or never registered, saying which (the pipeline remembers the names of the
  /// last kRemovedKeyNamesKept keys removed: one removed before them reads as never registered).
  void remove_key(KeyHandle key);

  /// Accepts a job, waiting while the queue holds Config::queue_capacity jobs (from a result or witness
  /// callback it does not wait: the job goes past the bound, since the threads that make room may all be
  /// in such callbacks). May block to bring the key's
  /// SRS back into VRAM after an eviction, or while add_key or remove_key uploads the key again with other
  /// MSM tables (not when called from a callback). Throws Error(invalid_argument) for a key that was
  /// removed (or is being removed: the message says so; as remove_key, for the last kRemovedKeyNamesKept
  /// keys removed) or never registered, or a witness source the key cannot serve, Error(cancelled) after
  /// shutdown.
  Submission submit(Job job);
  /// Like submit, but returns nullopt at once when the queue is full.
  std::optional<Submission> try_submit(Job job);

  /// Cancels a job that is still queued (its result: Errc::cancelled, at once; with Config::in_order, once
  /// the jobs submitted before it are delivered), or whose witness callback is running (the callback is asked
  /// to stop, WitnessTarget::stop, and the result comes once it returns). False when the job is unknown, past
  /// its witness or done.
  bool cancel(JobId id);
  /// Cancels every queued job; returns how many.
  std::size_t cancel_queued();
  /// Cancels every job whose witness callback is running, as cancel() does; returns how many. What a program
  /// stopping at once calls after cancel_queued(): a witness computation may run as long as its input says.
  std::size_t cancel_witnesses();

  /// Waits until every job submitted before the call has its result (not from a callback); jobs that other
  /// threads submit meanwhile are not waited for. When none are in flight either, every slot is back too.
  void drain();
  /// Stops accepting jobs, drains (cancelling the queued ones first with ShutdownMode::cancel) and releases
  /// the GPUs. Afterwards no pinned byte is leased. Idempotent.
  void shutdown(ShutdownMode mode = ShutdownMode::drain);
  /// The first step of shutdown alone, for a caller that must wait for something else before the rest:
  /// every later submit and add_key throws Error(cancelled), and submits waiting for room in the queue wake
  /// and throw it too. Waits for nothing; from any thread, callbacks included; idempotent.
  void stop_accepting();

  PipelineStats stats() const;
  /// The backend and mode in use (automatic resolved).
  Backend backend() const noexcept;
  Mode mode() const noexcept;
  const Config& config() const noexcept;

 private:
  Pipeline(Config config, testing::Hooks hooks);
  friend Pipeline testing::make_pipeline(Config config, testing::Hooks hooks);
  friend trace::Recorder& recorder(Pipeline& pipeline) noexcept;
  friend trace::RunRoles run_roles(const Pipeline& pipeline);

  /// The pipeline's state; Error(invalid_argument) on a moved-from Pipeline.
  detail::Core& live_core() const;

  std::unique_ptr<detail::Core> core_;
};

}  // namespace proofline::graph
