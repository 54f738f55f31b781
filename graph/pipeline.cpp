#include <proofline/graph/pipeline.hpp>

#include <algorithm>
#include <chrono>
#include <string>
#include <utility>

#include <proofline/cuda/gpu_ntt.hpp>
#include <proofline/graph/detail/core.hpp>
#include <proofline/graph/detail/flow.hpp>
#include <proofline/groth16/prover.hpp>
#include <proofline/nodes/detail/stages.hpp>
#include <proofline/util/detail/log.hpp>
#include <proofline/util/error.hpp>
#include <proofline/util/scope_guard.hpp>
#include <proofline/util/size.hpp>

namespace proofline::graph {

using detail::Core;
using detail::GpuLane;
using detail::JobState;
using detail::KeyState;
using detail::Phase;
using detail::SteadyClock;

namespace {

std::string resident_name(const KeyState& key) {
  return "key " + std::to_string(key.id) + " '" + key.name + "'";
}

/// Makes the key with the largest slot the one tokens are counted in.
void recompute_largest(Core& core) {
  std::shared_ptr<KeyState> best;
  {
    std::lock_guard lock(core.keys_mutex);
    for (const auto& [id, key] : core.keys)
      if (!key->removing && (!best || key->slot_bytes > best->slot_bytes)) best = key;
  }
  std::lock_guard lock(core.largest_mutex);
  core.largest = std::move(best);
}

void notify_key_released(Core& core, KeyState& key) {
  if (key.jobs.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    { std::lock_guard lock(core.keys_mutex); }
    core.keys_changed.notify_all();
  }
}

/// Puts the key's SRS in VRAM on every GPU whose budget holds it, or (Config::srs allowing) makes it ready to
/// stream from page-locked host memory on every GPU that can hold the staging buffers. Throws
/// Error(out_of_budget) when neither works.
void place_srs(Core& core, KeyState& key, const std::string& what) {
  const SrsPlacement placement = core.config.srs;
  std::size_t placed = 0;
  std::string why;
  if (placement != SrsPlacement::host) {
    for (auto& lane : core.gpus) {
      if (!lane->healthy.load()) continue;
      try {
        // Resident and idle afterwards: jobs find it there. Where keys in use hold the VRAM, give up soon.
        detail::acquire_device_key(core, *lane, key, std::chrono::seconds(2));
        ++placed;
      } catch (const Error& e) {
        if (e.code() != Errc::out_of_budget) throw;
        why = e.what();
      }
    }
    if (placed > 0) return;
    if (placement == SrsPlacement::device)
      throw Error(Errc::out_of_budget, what + ": its SRS (" + format_size(detail::device_key_bytes(key)) +
                                           ") fits no GPU's VRAM budget next to the device slots (" + why +
                                           "); SRS placement 'auto' would stream it from host memory");
  }
  auto srs = std::make_unique<detail::HostSrs>(detail::make_host_srs(*key.pk, *core.pool, what));
  for (auto& lane : core.gpus) {
    if (!lane->healthy.load()) continue;
    try {
      detail::enable_srs_streaming(core, *lane);
      ++placed;
    } catch (const Error& e) {
      if (e.code() != Errc::out_of_budget) throw;
      why = e.what();
    }
  }
  if (placed == 0)
    throw Error(Errc::out_of_budget, what + ": no GPU can stream its SRS from host memory: " + why);
  PL_LOG_INFO("{}: SRS of {} streamed from host memory ({} in {:.2f} s)", what, format_size(srs->bytes),
              srs->copied() ? "a pinned copy made" : "its own pinned points", srs->seconds);
  key.host_srs = std::move(srs);
}

/// The GPU for a job of `key`: for a streamed key the least busy healthy GPU; else the least busy healthy GPU
/// that holds its SRS, or else the one with the most free VRAM, after uploading the SRS there (blocking; this
/// runs on the submitting thread, never in the graph).
std::pair<int, memory::ResidentHandle> route(Core& core, const KeyState& key,
                                             std::optional<std::chrono::milliseconds> patience) {
  if (key.host_srs) {
    GpuLane* least = nullptr;
    for (auto& lane : core.gpus)
      if (lane->healthy.load() && detail::srs_streaming(*lane) &&
          (least == nullptr || lane->outstanding.load() < least->outstanding.load()))
        least = lane.get();
    if (least == nullptr)
      throw Error(Errc::cuda, "submit: no healthy GPU streams the SRS of key '" + key.name + "'");
    return {least->index, {}};
  }
  GpuLane* best = nullptr;
  memory::ResidentHandle best_handle;
  for (auto& lane : core.gpus) {
    if (!lane->healthy.load()) continue;
    if (auto handle = detail::find_device_key(*lane, key)) {
      if (best == nullptr || lane->outstanding.load() < best->outstanding.load()) {
        best = lane.get();
        best_handle = std::move(*handle);
      }
    }
  }
  if (best != nullptr) return {best->index, std::move(best_handle)};
  std::vector<GpuLane*> order;
  for (auto& lane : core.gpus)
    if (lane->healthy.load()) order.push_back(lane.get());
  std::stable_sort(order.begin(), order.end(), [](GpuLane* x, GpuLane* y) {
    return detail::device_vram_available(*x) > detail::device_vram_available(*y);
  });
  std::string why = "no healthy GPU";
  for (GpuLane* lane : order) {
    try {
      return {lane->index, detail::acquire_device_key(core, *lane, key, patience)};
    } catch (const Error& e) {
      if (e.code() != Errc::out_of_budget) throw;
      why = e.what();
    }
  }
  throw Error(Errc::out_of_budget, "submit: no GPU can hold the SRS of key '" + key.name + "': " + why);
}

void expire(Core& core) {
  std::vector<std::pair<std::shared_ptr<JobState>, JobError>> expired;
  {
    std::lock_guard lock(core.jobs_mutex);
    const auto now = SteadyClock::now();
    while (!core.deadlines.empty() && core.deadlines.begin()->first <= now) {
      const JobId id = core.deadlines.begin()->second;
      core.deadlines.erase(core.deadlines.begin());
      const auto it = core.jobs.find(id);
      if (it == core.jobs.end()) continue;
      const std::shared_ptr<JobState>& job = it->second;
      const std::string limit = std::to_string(job->timeout.count()) + " ms";
      Phase expected = Phase::queued;
      if (job->phase.compare_exchange_strong(expected, Phase::withdrawn, std::memory_order_acq_rel)) {
        --core.queued;
        core.queued_now.store(core.queued, std::memory_order_relaxed);
        core.room.notify_one();
        expired.emplace_back(job, JobError{Stage::queue, Errc::timeout,
                                           "queue: timed out after " + limit + " waiting for a pinned slot"});
      } else if (expected == Phase::admitted) {
        // In flight: the stages skip it from now on; its slot and tokens come home as the message drains.
        job->abandoned.store(true, std::memory_order_release);
        const Stage stage = job->stage.load(std::memory_order_relaxed);
        expired.emplace_back(job, JobError{stage, Errc::timeout,
                                           std::string(to_string(stage)) + ": timed out after " + limit +
                                               " (the job was still in " + to_string(stage) + ")"});
      }
    }
  }
  for (auto& [job, error] : expired) core.deliver(*job, std::move(error));
}

/// The supervisor thread: deadlines, withheld tokens, counter samples and the GPUs' clock anchors and health.
/// It may block (a GPU anchor waits for one event); no TBB worker ever does this work.
void supervise(Core& core) {
  using namespace std::chrono_literals;
  auto last_sample = SteadyClock::now();
  auto last_refill = last_sample;
  std::unique_lock lock(core.supervisor_mutex);
  while (!core.supervisor_stop) {
    core.supervisor_wake.wait_for(lock, 5ms);
    if (core.supervisor_stop) break;
    lock.unlock();
    try {
      expire(core);
      const auto now = SteadyClock::now();
      SteadyClock::time_point dropped_at;
      // Withheld tokens come back after a pause (a failed lease waits for the budget, not in a loop), and the
      // count follows the pool now and then even when no token comes home.
      if ((core.gate.starved(&dropped_at) && now - dropped_at >= 2ms) || now - last_refill >= 100ms) {
        core.refill_tokens();
        last_refill = now;
      }
      if (now - last_sample >= 20ms) {
        core.sample_counters();
        last_sample = now;
      }
      for (auto& lane : core.gpus) detail::device_tick(core, *lane);
    } catch (const std::exception& e) {
      PL_LOG_ERROR("pipeline supervisor: {}", e.what());
    }
    lock.lock();
  }
}

}  // namespace

Pipeline::Pipeline(Config config) : core_(std::make_unique<Core>(std::move(config))) {
  Core& core = *core_;
  // The graph attaches to the arena it is built in: every node body then runs within the thread cap.
  core.arena.execute([&] { core.flow = std::make_unique<detail::Flow>(core); });
  core.supervisor = std::thread([&core] { supervise(core); });
}

Pipeline::~Pipeline() {
  try {
    shutdown(ShutdownMode::drain);
  } catch (const std::exception& e) {
    PL_LOG_ERROR("pipeline shutdown: {}", e.what());
  }
}

KeyHandle Pipeline::add_key(KeySpec spec) {
  Core& core = *core_;
  if (spec.name.empty()) throw Error(Errc::invalid_argument, "add_key: a key needs a name");
  const std::string what = "add_key: key '" + spec.name + "'";
  if (!spec.pk) throw Error(Errc::invalid_argument, what + " has no proving key");
  const groth16::ProvingKey& pk = *spec.pk;
  groth16::validate(pk, Errc::invalid_argument, what + ": proving key");
  if (spec.cs) {
    groth16::validate(*spec.cs, Errc::invalid_argument, what + ": constraint system", false);
    groth16::check_compatible(pk, *spec.cs);
  }
  if (spec.vk && spec.vk->num_public() != pk.num_public)
    throw Error(Errc::invalid_argument,
                what + ": the verifying key has " + std::to_string(spec.vk->num_public()) +
                    " public inputs, the proving key " + std::to_string(pk.num_public));
  if (core.config.verify && !spec.vk)
    throw Error(Errc::invalid_argument, what + " has no verifying key, and Config::verify is set");

  auto key = std::make_shared<KeyState>();
  key->name = spec.name;
  key->pk = spec.pk;
  key->cs = spec.cs;
  key->vk = spec.vk;
  if (spec.vk) key->pvk = groth16::prepare(*spec.vk);
  key->domain = Domain::make(pk.log_domain_size, pk.convention);
  const std::uint64_t n = pk.domain_size();
  key->slot_sizes = {n * sizeof(Fr), n * sizeof(Fr), n * sizeof(Fr), pk.num_variables * sizeof(Fr)};
  key->slot_bytes = 3 * n * sizeof(Fr) + pk.num_variables * sizeof(Fr);

  std::lock_guard serial(core.add_mutex);
  {
    std::lock_guard lock(core.jobs_mutex);
    if (core.closed) throw Error(Errc::cancelled, what + ": the pipeline is shut down");
  }
  {
    std::lock_guard lock(core.keys_mutex);
    for (const auto& [id, other] : core.keys)
      if (other->name == spec.name) throw Error(Errc::invalid_argument, what + " is registered already");
    key->id = core.next_key_id++;
  }

  if (core.backend == Backend::cuda) {
    if (pk.log_domain_size < cuda::NttEngine::min_log_n)
      throw Error(Errc::invalid_argument, what + ": the GPU NTT needs domains of at least 2^" +
                                              std::to_string(cuda::NttEngine::min_log_n) +
                                              " rows, the key has 2^" + std::to_string(pk.log_domain_size) +
                                              " (use the CPU backend)");
    if (!core.device_slots_ready) {
      const unsigned log_n = std::max(core.config.max_log_n, pk.log_domain_size);
      const std::uint64_t z_cap = std::max<std::uint64_t>(std::uint64_t{1} << log_n, pk.num_variables);
      // Automatic device slots leave room for this key's SRS, unless it is streamed anyway.
      const std::uint64_t srs_bytes =
          core.config.srs == SrsPlacement::host ? 0 : detail::device_key_bytes(*key);
      for (auto& lane : core.gpus) {
        const auto slots = detail::allocate_device_slots(core, *lane, log_n, z_cap, pk.convention, srs_bytes);
        auto& nodes = *core.flow->gpus[static_cast<std::size_t>(lane->index)];
        if (nodes.device_tokens)
          for (detail::DeviceSlot* slot : slots) nodes.device_tokens->try_put(detail::DeviceSlotMsg{slot});
      }
      core.device_slots_ready = true;
    }
    for (auto& lane : core.gpus) detail::check_key_fits_device(*lane, *key);
  }

  // The PCE and the host SRS are charged to the host budget for as long as the key is registered: the load
  // trims idle pool buffers first (the pool is the budget's first evictor), and the token count follows.
  const std::uint64_t host_bytes = pk.query_bytes() + (spec.cs ? spec.cs->size_bytes() : 0);
  const std::string name = resident_name(*key);
  key->host = core.host_keys->acquire(name, std::max<std::uint64_t>(host_bytes, 1), [&](const std::string&) {
    return memory::LoadedRegion{std::make_shared<KeySpec>(spec), 0};
  });
  ScopeGuard unload([&] {
    key->host.reset();
    core.host_keys->evict(name);
    for (auto& lane : core.gpus) detail::evict_device_key(*lane, *key);
  });

  if (core.backend == Backend::cuda) place_srs(core, *key, what);

  {
    std::lock_guard lock(core.keys_mutex);
    core.keys.emplace(key->id, key);
  }
  bool largest = false;
  {
    std::lock_guard lock(core.largest_mutex);
    if (!core.largest || key->slot_bytes > core.largest->slot_bytes) {
      core.largest = key;
      largest = true;
    }
  }
  const std::size_t target = core.token_target();
  if (target == 0) {
    {
      std::lock_guard lock(core.keys_mutex);
      core.keys.erase(key->id);
    }
    recompute_largest(core);
    const memory::BudgetStats budget = core.host_budget->stats();
    throw Error(Errc::out_of_budget, what + ": the host budget of " + format_size(budget.total) +
                                         " holds its keys (" + format_size(host_bytes) + ") but not one " +
                                         (core.mode == Mode::pinned ? "pinned slot" : "set of job vectors") +
                                         " of " + format_size(key->slot_bytes) + " for its 2^" +
                                         std::to_string(pk.log_domain_size) +
                                         " jobs next to everything else (" + format_size(budget.used) +
                                         " in use); raise the host budget (--host-budget)");
  }
  unload.dismiss();

  if (largest && core.mode == Mode::pinned && core.config.prewarm) {
    const std::size_t in_flight = core.slots_in_flight.load();
    const std::size_t count = target > in_flight ? target - in_flight : 0;
    try {
      core.pool->prewarm_slots(count, key->slot_sizes);
      core.pool->mark_warm();
    } catch (const Error& e) {
      PL_LOG_WARN("{}: prewarming {} slots failed ({}); they will be pinned on first use", what, count,
                  e.what());
    }
  }
  core.refill_tokens();
  PL_LOG_INFO("{}: 2^{} rows, {} variables, slot {}, {} tokens", what, pk.log_domain_size, pk.num_variables,
              format_size(key->slot_bytes), core.gate.live());
  return KeyHandle(key->id);
}

void Pipeline::remove_key(KeyHandle handle) {
  Core& core = *core_;
  std::lock_guard serial(core.add_mutex);
  std::shared_ptr<KeyState> key = core.find_key(handle);
  if (!key) throw Error(Errc::invalid_argument, "remove_key: unknown key " + std::to_string(handle.id()));
  {
    std::unique_lock lock(core.keys_mutex);
    key->removing = true;
    core.keys_changed.wait(lock, [&] { return key->jobs.load() == 0; });
    core.keys.erase(key->id);
  }
  recompute_largest(core);
  key->host.reset();
  core.host_keys->evict(resident_name(*key));
  for (auto& lane : core.gpus) detail::evict_device_key(*lane, *key);
  core.refill_tokens();
}

namespace {

std::optional<Submission> enqueue(Core& core, Job job, bool wait) {
  std::shared_ptr<KeyState> key = core.find_key(job.key);
  if (!key) throw Error(Errc::invalid_argument, "submit: unknown key " + std::to_string(job.key.id()));
  const auto* callback = std::get_if<WitnessCallback>(&job.witness);
  if (callback != nullptr && !callback->fill)
    throw Error(Errc::invalid_argument, "submit: the witness callback is empty");
  if (const auto* in_memory = std::get_if<MemoryWitness>(&job.witness); in_memory != nullptr && !in_memory->z)
    throw Error(Errc::invalid_argument, "submit: the memory witness is empty");
  const bool fills_abc = callback != nullptr && callback->fills == WitnessCallback::Fills::witness_and_abc;
  if (!key->cs && !fills_abc)
    throw Error(Errc::invalid_argument,
                "submit: key '" + key->name +
                    "' has no constraint system: only a witness callback that fills a, b "
                    "and c can prove with it");
  {
    std::lock_guard lock(core.keys_mutex);
    if (key->removing)
      throw Error(Errc::invalid_argument, "submit: key '" + key->name + "' is being removed");
    key->jobs.fetch_add(1, std::memory_order_acq_rel);
  }
  ScopeGuard unkey([&] { notify_key_released(core, *key); });

  const auto full = [&] { return core.queued >= core.config.queue_capacity; };
  {
    std::unique_lock lock(core.jobs_mutex);
    if (core.closed) throw Error(Errc::cancelled, "submit: the pipeline is shut down");
    if (!wait && full()) {
      core.refused.fetch_add(1, std::memory_order_relaxed);
      return std::nullopt;
    }
  }

  auto state = std::make_shared<JobState>();
  state->priority = job.priority;
  state->label = std::move(job.label);
  state->key = key;
  state->witness = std::move(job.witness);
  state->on_result = std::move(job.on_result);
  state->timeout = job.timeout.value_or(core.config.job_timeout);
  if (state->timeout.count() < 0) throw Error(Errc::invalid_argument, "submit: a negative timeout");
  // Route before queueing: the key's SRS must be on the GPU before the job can be admitted, and loading it
  // may block, which only this (the caller's) thread may do.
  if (core.backend == Backend::cuda) {
    std::optional<std::chrono::milliseconds> patience;
    if (state->timeout.count() > 0) patience = state->timeout;
    auto [lane, handle] = route(core, *key, patience);
    state->gpu = lane;
    state->gpu_key = std::move(handle);
  }

  std::future<JobResult> future = state->promise.get_future();
  {
    std::unique_lock lock(core.jobs_mutex);
    for (;;) {
      if (core.closed) throw Error(Errc::cancelled, "submit: the pipeline is shut down");
      if (!full()) break;
      if (!wait) {
        core.refused.fetch_add(1, std::memory_order_relaxed);
        return std::nullopt;
      }
      core.room.wait(lock);
    }
    state->id = core.next_job_id++;
    state->seq = core.next_seq++;
    state->submit_ns = detail::now_ns(core);
    if (state->timeout.count() > 0) {
      state->deadline = SteadyClock::now() + state->timeout;
      core.deadlines.emplace(*state->deadline, state->id);
    }
    core.jobs.emplace(state->id, state);
    ++core.queued;
    core.queued_now.store(core.queued, std::memory_order_relaxed);
    ++core.outstanding;
    core.in_stage[static_cast<std::size_t>(Stage::queue)].fetch_add(1, std::memory_order_relaxed);
  }
  unkey.dismiss();
  if (state->gpu >= 0) {
    auto& lane = *core.gpus[static_cast<std::size_t>(state->gpu)];
    lane.outstanding.fetch_add(1, std::memory_order_relaxed);
    lane.jobs.fetch_add(1, std::memory_order_relaxed);
  }
  core.submitted.fetch_add(1, std::memory_order_relaxed);
  const JobId id = state->id;
  core.flow->jobs.try_put(detail::JobMsg{state.get(), state->priority, state->seq});
  return Submission{id, std::move(future)};
}

}  // namespace

Submission Pipeline::submit(Job job) {
  return std::move(*enqueue(*core_, std::move(job), true));
}

std::optional<Submission> Pipeline::try_submit(Job job) {
  return enqueue(*core_, std::move(job), false);
}

bool Pipeline::cancel(JobId id) {
  Core& core = *core_;
  std::shared_ptr<JobState> job;
  {
    std::lock_guard lock(core.jobs_mutex);
    const auto it = core.jobs.find(id);
    if (it == core.jobs.end()) return false;
    Phase expected = Phase::queued;
    if (!it->second->phase.compare_exchange_strong(expected, Phase::withdrawn, std::memory_order_acq_rel))
      return false;
    job = it->second;
    --core.queued;
    core.queued_now.store(core.queued, std::memory_order_relaxed);
  }
  core.room.notify_one();
  core.deliver(*job, JobError{Stage::queue, Errc::cancelled, "queue: cancelled before it was admitted"});
  return true;
}

std::size_t Pipeline::cancel_queued() {
  std::vector<JobId> ids;
  {
    std::lock_guard lock(core_->jobs_mutex);
    for (const auto& [id, job] : core_->jobs)
      if (job->phase.load() == Phase::queued) ids.push_back(id);
  }
  std::sort(ids.begin(), ids.end());
  std::size_t count = 0;
  for (const JobId id : ids) count += cancel(id) ? 1 : 0;
  return count;
}

void Pipeline::drain() {
  Core& core = *core_;
  {
    std::unique_lock lock(core.jobs_mutex);
    core.finished.wait(lock, [&] { return core.outstanding == 0; });
  }
  // Messages still moving (the sequencer's deliveries, tokens on their way home) finish here.
  core.arena.execute([&] {
    core.flow->graph.wait_for_all();
    core.settle_tokens();
  });
}

void Pipeline::shutdown(ShutdownMode mode) {
  Core& core = *core_;
  {
    std::lock_guard lock(core.jobs_mutex);
    if (core.shut_down) return;
    core.closed = true;
  }
  core.room.notify_all();
  if (mode == ShutdownMode::cancel) cancel_queued();
  drain();
  {
    std::lock_guard lock(core.supervisor_mutex);
    core.supervisor_stop = true;
  }
  core.supervisor_wake.notify_all();
  if (core.supervisor.joinable()) core.supervisor.join();
  core.arena.execute([&] { core.flow->graph.wait_for_all(); });
  // The GPUs go now (their pinned result buffers back to the pool); stats and the recorder stay readable.
  for (auto& lane : core.gpus) lane->resources.reset();
  {
    // Pinned copies of streamed keys' points go back too: at shutdown no pinned byte stays leased.
    std::lock_guard lock(core.keys_mutex);
    for (auto& [id, key] : core.keys) key->host_srs.reset();
  }
  core.sample_counters();
  {
    std::lock_guard lock(core.jobs_mutex);
    core.shut_down = true;
  }
  const memory::PoolStats pool = core.pool->stats();
  if (pool.bytes_leased != 0 || pool.slots_out != 0)
    PL_LOG_ERROR("pipeline shutdown: {} slots ({}) still leased: a bug", pool.slots_out,
                 format_size(pool.bytes_leased));
}

PipelineStats Pipeline::stats() const {
  const Core& core = *core_;
  PipelineStats s;
  s.backend = core.backend;
  s.mode = core.mode;
  s.submitted = core.submitted.load();
  s.refused = core.refused.load();
  s.proofs = core.proofs.load();
  s.failed = core.failed.load();
  s.cancelled = core.cancelled.load();
  s.timed_out = core.timed_out.load();
  s.verified = core.verified.load();
  s.queue_depth = core.queued_now.load();
  const auto count = [&](Stage stage) { return core.in_stage[static_cast<std::size_t>(stage)].load(); };
  s.stages.queue = s.queue_depth;
  s.stages.admission = count(Stage::admission);
  s.stages.synthesis = count(Stage::synthesis);
  s.stages.h2d = count(Stage::h2d);
  s.stages.ntt = count(Stage::ntt);
  s.stages.msm = count(Stage::msm);
  s.stages.release = count(Stage::release);
  s.stages.baseline = count(Stage::baseline);
  s.tokens = core.gate.live();
  s.token_target = core.gate.target();
  s.slots_in_flight = core.slots_in_flight.load();
  s.max_inflight_slots = core.max_inflight_slots.load();
  {
    std::lock_guard lock(core.largest_mutex);
    s.slot_bytes = core.largest ? core.largest->slot_bytes : 0;
  }
  s.pool = core.pool->stats();
  s.host_budget = core.host_budget->stats();
  s.host_keys = core.host_keys->stats();
  for (const auto& lane : core.gpus) {
    GpuStats g = detail::device_stats(*lane);
    g.jobs = lane->jobs.load();
    g.healthy = lane->healthy.load();
    s.gpus.push_back(std::move(g));
  }
  return s;
}

Backend Pipeline::backend() const noexcept {
  return core_->backend;
}

Mode Pipeline::mode() const noexcept {
  return core_->mode;
}

const Config& Pipeline::config() const noexcept {
  return core_->config;
}

trace::Recorder& Pipeline::recorder() noexcept {
  return core_->recorder;
}

trace::RunRoles Pipeline::roles() const {
  const Core& core = *core_;
  trace::RunRoles roles;
  roles.synthesis = {core.ids.synthesis};
  for (const auto& lane : core.gpus) {
    roles.copy_streams.push_back(lane->copy_track);
    roles.compute_streams.push_back(lane->compute_track);
  }
  roles.tokens_waiting = core.ids.waiting;
  return roles;
}

}  // namespace proofline::graph
