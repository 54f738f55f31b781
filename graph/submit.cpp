// Accepting jobs: checks, routing to a GPU (which may upload the key's SRS: the caller's thread blocks for
// that, never the graph), the bounded queue, and cancellation of queued jobs.
#include <proofline/graph/pipeline.hpp>

#include <algorithm>
#include <chrono>
#include <shared_mutex>
#include <string>
#include <utility>
#include <variant>

#include <proofline/graph/detail/core.hpp>
#include <proofline/graph/detail/flow.hpp>
#include <proofline/graph/detail/gpu_choice.hpp>
#include <proofline/util/error.hpp>
#include <proofline/util/scope_guard.hpp>

namespace proofline::graph {

using detail::bind_job;
using detail::Core;
using detail::JobState;
using detail::KeyState;
using detail::least_busy;
using detail::Phase;
using detail::SteadyClock;

namespace {

void notify_key_released(Core& core, KeyState& key) {
  if (key.jobs.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    { std::lock_guard lock(core.keys_mutex); }
    core.keys_changed.notify_all();
  }
}

/// Throws Error(invalid_argument) for a memory witness that is not one of the key's curve.
void check_memory_witness(const MemoryWitness& witness, const KeyState& key) {
  if (!witness.z && !witness.bn254_z)
    throw Error(Errc::invalid_argument, "submit: the memory witness is empty");
  const bool bn254 = key.curve == CurveId::bn254;
  if ((bn254 && !witness.bn254_z) || (!bn254 && !witness.z) || (witness.z && witness.bn254_z))
    throw Error(Errc::invalid_argument,
                "submit: key '" + key.name + "' is " + std::string(curve_name(key.curve)) +
                    ": its memory witness goes in MemoryWitness::" + (bn254 ? "bn254_z" : "z") +
                    ", and only there (the other field holds " + (bn254 ? "BLS12-381" : "BN254") +
                    " values)");
}

/// Whether the key can verify its jobs' proofs.
bool has_verifying_key(const KeyState& key) {
  return std::visit([](const auto& material) { return material.pvk.has_value(); }, key.material);
}

/// Throws Error(invalid_argument) for a witness source the key cannot serve.
void check_witness_source(const Job& job, const KeyState& key, bool check_witness) {
  const auto* callback = std::get_if<WitnessCallback>(&job.witness);
  if (callback != nullptr && !callback->fill)
    throw Error(Errc::invalid_argument, "submit: the witness callback is empty");
  if (callback != nullptr && callback->curve != key.curve)
    throw Error(Errc::invalid_argument,
                "submit: key '" + key.name + "' is " + std::string(curve_name(key.curve)) +
                    ": the witness callback writes " + std::string(curve_name(callback->curve)) +
                    " values (WitnessCallback::curve)");
  if (const auto* in_memory = std::get_if<MemoryWitness>(&job.witness)) check_memory_witness(*in_memory, key);
  if (const auto* image = std::get_if<WtnsImage>(&job.witness); image != nullptr && !image->image)
    throw Error(Errc::invalid_argument, "submit: the .wtns image is empty (WtnsImage::image is null)");
  const bool fills_abc = callback != nullptr && callback->fills == WitnessCallback::Fills::witness_and_abc;
  if (!key.has_cs && !fills_abc)
    throw Error(Errc::invalid_argument,
                "submit: key '" + key.name +
                    "' has no constraint system: only a witness callback that fills a, b "
                    "and c can prove with it");
  // The a, b, c a callback writes are checked through the job's proof (nodes/release.cpp), which needs the
  // verifying key: without one every such job would fail in release instead.
  if (fills_abc && check_witness && !has_verifying_key(key))
    throw Error(Errc::invalid_argument,
                "submit: key '" + key.name +
                    "' has no verifying key, and the a, b, c a witness callback writes are checked through "
                    "its proof (check_witness is on): give the key its verifying key, or turn check_witness "
                    "off (Config::check_witness; pl_config.check_witness)");
}

}  // namespace

std::optional<std::pair<int, memory::ResidentHandle>> detail::ready_lane(Core& core, const KeyState& key) {
  if (key.streamed()) {
    if (devices::GpuLane* lane = least_busy(core.gpus(), [&](const devices::GpuLane& l) {
          return key.placed_on(l.index) && devices::srs_streaming(l);
        }))
      return std::pair{lane->index, memory::ResidentHandle{}};
    return std::nullopt;
  }
  const devices::GpuKey gpu_key = key.gpu_key();
  for (int tries = 0; tries < 2; ++tries) {  // the least busy holder may evict it in between: ask again
    devices::GpuLane* lane = least_busy(core.gpus(), [&](devices::GpuLane& l) {
      return key.placed_on(l.index) && devices::find_device_key(l, gpu_key).has_value();
    });
    if (lane == nullptr) break;
    if (auto handle = devices::find_device_key(*lane, gpu_key))
      return std::pair{lane->index, std::move(*handle)};
  }
  return std::nullopt;
}

std::optional<std::pair<int, memory::ResidentHandle>> detail::route_now(Core& core, const KeyState& key) {
  if (auto ready = ready_lane(core, key)) return ready;
  if (core.config.cpu_fallback) return std::pair{-1, memory::ResidentHandle{}};
  return std::nullopt;
}

namespace {

/// The GPU for a job of `key`: ready_lane's, or else the healthy GPU with the most free VRAM after uploading
/// the SRS there (blocking; this runs on the submitting thread, never in the graph).
std::pair<int, memory::ResidentHandle> route(Core& core, const KeyState& key,
                                             std::optional<std::chrono::milliseconds> patience) {
  const auto placed = [&](const devices::GpuLane& l) { return key.placed_on(l.index); };
  if (core.config.cpu_fallback && least_busy(core.gpus(), placed) == nullptr)
    return {-1, {}};  // every GPU of the key is out of service: the CPU proves
  if (key.streamed()) {
    if (auto ready = detail::ready_lane(core, key)) return std::move(*ready);
    throw Error(Errc::cuda, "submit: no healthy GPU streams the SRS of key '" + key.name + "'");
  }
  // Not while the key gives up MSM tables (graph/key_vram.cpp), except from a callback: there the job holds
  // the key's SRS, which at worst keeps the key from draining until its patience ends.
  std::shared_lock routing(key.routing, std::defer_lock);
  if (!detail::in_caller_callback()) routing.lock();
  if (auto ready = detail::ready_lane(core, key)) return std::move(*ready);
  std::vector<devices::GpuLane*> order;
  for (auto& lane : core.gpus())
    if (lane->healthy.load() && placed(*lane)) order.push_back(lane.get());
  std::stable_sort(order.begin(), order.end(), [](devices::GpuLane* x, devices::GpuLane* y) {
    return devices::device_vram_available(*x) > devices::device_vram_available(*y);
  });
  if (order.empty())
    throw Error(Errc::cuda, std::string("submit: every GPU ") +
                                (key.gpu_lanes.empty() ? "" : "that key '" + key.name + "' is placed on ") +
                                "is out of service (a CUDA error killed its context); "
                                "Config::cpu_fallback proves on the CPU instead");
  const devices::GpuKey gpu_key = key.gpu_key();
  std::string why;
  for (devices::GpuLane* lane : order) {
    try {
      return {lane->index, devices::acquire_device_key(*lane, gpu_key, patience)};
    } catch (const Error& e) {
      if (e.code() != Errc::out_of_budget) throw;
      why = e.what();
    }
  }
  throw Error(Errc::out_of_budget, "submit: no GPU can hold the SRS of key '" + key.name + "': " + why);
}

std::shared_ptr<JobState> make_job_state(Core& core, Job job, std::shared_ptr<KeyState> key) {
  auto state = std::make_shared<JobState>();
  state->priority = job.priority;
  state->label = std::move(job.label);
  state->key = std::move(key);
  state->witness = std::move(job.witness);
  state->work = nodes::fresh_work(state->key->curve);
  state->on_result = std::move(job.on_result);
  state->timeout = job.timeout.value_or(core.config.job_timeout);
  if (state->timeout.count() < 0) throw Error(Errc::invalid_argument, "submit: a negative timeout");
  if (state->timeout >= kNoTimeLimit) state->timeout = std::chrono::milliseconds(0);
  // Route before queueing: the key's SRS must be on the GPU before the job can be admitted, and loading it
  // may block, which only this (the caller's) thread may do.
  if (core.backend == Backend::cuda) {
    std::optional<std::chrono::milliseconds> patience;
    if (state->timeout.count() > 0) patience = state->timeout;
    auto [lane, handle] = route(core, *state->key, patience);
    state->gpu = lane;
    state->gpu_key = std::move(handle);
  }
  return state;
}

/// Puts the job in the table and the queue (waiting for room when `wait`); false when the queue is full and
/// `wait` is not set. Throws Error(cancelled) after shutdown.
bool queue_job(Core& core, const std::shared_ptr<JobState>& state, bool wait) {
  std::unique_lock lock(core.jobs_mutex);
  for (;;) {
    if (core.closed) throw Error(Errc::cancelled, "submit: the pipeline is shut down");
    if (core.queued < core.config.queue_capacity) break;
    if (!wait) return false;
    // From a callback the job goes past the bound instead: the room it would wait for is made by pipeline
    // threads, and every one of them may be waiting in a callback like this one.
    if (detail::in_caller_callback()) break;
    core.room.wait(lock);
  }
  state->id = core.next_job_id++;
  state->seq = core.next_seq++;
  if (core.config.keys_take_turns) {
    // Start-time fair queuing over keys, each job's share its rows: the next job of a key that has had
    // fewer rows admitted lately goes first.
    KeyState& key = *state->key;
    state->turn = std::max(core.turn_clock, key.next_turn);
    key.next_turn = state->turn + key.domain_size();
  }
  state->submit_ns = core.ctx->now_ns();
  if (state->timeout.count() > 0) {
    state->deadline = SteadyClock::now() + state->timeout;
    core.deadlines.emplace(*state->deadline, state->id);
  }
  core.jobs.emplace(state->id, state);
  core.undelivered.insert(state->id);
  ++core.queued;
  core.ctx->counters.queued.store(core.queued, std::memory_order_relaxed);
  ++core.outstanding;
  core.ctx->counters.in_stage[static_cast<std::size_t>(Stage::queue)].fetch_add(1, std::memory_order_relaxed);
  return true;
}

std::optional<Submission> enqueue(Core& core, Job job, bool wait) {
  std::shared_ptr<KeyState> key = core.registered_key(job.key, "submit");
  check_witness_source(job, *key, core.config.check_witness);
  {
    std::lock_guard lock(core.keys_mutex);
    if (key->removing)
      throw Error(Errc::invalid_argument, "submit: key '" + key->name + "' is being removed");
    key->jobs.fetch_add(1, std::memory_order_acq_rel);
  }
  ScopeGuard unkey([&] { notify_key_released(core, *key); });
  {
    std::lock_guard lock(core.jobs_mutex);
    if (core.closed) throw Error(Errc::cancelled, "submit: the pipeline is shut down");
  }
  if (!wait && core.ctx->counters.queued.load() >= core.config.queue_capacity) {
    core.refused.fetch_add(1, std::memory_order_relaxed);
    return std::nullopt;
  }
  std::shared_ptr<JobState> state = make_job_state(core, std::move(job), key);
  std::future<JobResult> future = state->promise.get_future();
  if (!queue_job(core, state, wait)) {
    core.refused.fetch_add(1, std::memory_order_relaxed);
    return std::nullopt;
  }
  unkey.dismiss();
  if (state->gpu >= 0) bind_job(core.ctx->gpu_of(*state), state->key->log_domain_size);
  core.submitted.fetch_add(1, std::memory_order_relaxed);
  const JobId id = state->id;
  core.flow->jobs.try_put(detail::JobMsg::of(*state));
  return Submission{id, std::move(future)};
}

}  // namespace

Submission Pipeline::submit(Job job) {
  return std::move(*enqueue(live_core(), std::move(job), true));
}

std::optional<Submission> Pipeline::try_submit(Job job) {
  return enqueue(live_core(), std::move(job), false);
}

namespace {

/// Cancels job `id` if it is still queued; else `found` is the job, if it is known.
bool cancel_if_queued(Core& core, JobId id, std::shared_ptr<JobState>* found = nullptr) {
  // Made before the job is withdrawn: once it is, nothing may throw before its result is out.
  JobError cancelled{Stage::queue, Errc::cancelled, "queue: cancelled before it was admitted"};
  std::shared_ptr<JobState> job;
  {
    std::lock_guard lock(core.jobs_mutex);
    const auto it = core.jobs.find(id);
    if (it == core.jobs.end()) return false;
    Phase expected = Phase::queued;
    if (!it->second->phase.compare_exchange_strong(expected, Phase::withdrawn, std::memory_order_acq_rel)) {
      if (found != nullptr) *found = it->second;
      return false;
    }
    job = it->second;
    --core.queued;
    core.ctx->counters.queued.store(core.queued, std::memory_order_relaxed);
  }
  core.room.notify_one();
  core.deliver_early(*job, std::move(cancelled));
  return true;
}

/// Cancels `job` if its witness callback is running: the callback is asked to stop and the result goes out
/// when it returns (Core::deliver_early). Should it return meanwhile, the job is cancelled where it is then,
/// as a timeout would be.
bool cancel_if_in_witness(Core& core, JobState& job) {
  JobError cancelled{Stage::synthesis, Errc::cancelled,
                     "synthesis: cancelled while its witness was computed"};
  {
    std::lock_guard lock(job.callback_run.mutex);
    if (!job.callback_run.running || job.callback_run.deferred) return false;
  }
  core.deliver_early(job, std::move(cancelled));
  return true;
}

}  // namespace

bool Pipeline::cancel(JobId id) {
  Core& core = live_core();
  std::shared_ptr<JobState> running;
  return cancel_if_queued(core, id, &running) || (running && cancel_if_in_witness(core, *running));
}

std::size_t Pipeline::cancel_queued() {
  Core& core = live_core();
  std::vector<JobId> ids;
  {
    std::lock_guard lock(core.jobs_mutex);
    for (const auto& [id, job] : core.jobs)
      if (job->phase.load() == Phase::queued) ids.push_back(id);
  }
  std::sort(ids.begin(), ids.end());
  std::size_t count = 0;
  for (const JobId id : ids) count += cancel_if_queued(core, id) ? 1 : 0;
  return count;
}

std::size_t Pipeline::cancel_witnesses() {
  Core& core = live_core();
  std::vector<std::shared_ptr<JobState>> jobs;
  {
    std::lock_guard lock(core.jobs_mutex);
    for (const auto& [id, job] : core.jobs) jobs.push_back(job);
  }
  std::size_t count = 0;
  for (const auto& job : jobs) count += cancel_if_in_witness(core, *job) ? 1 : 0;
  return count;
}

}  // namespace proofline::graph
