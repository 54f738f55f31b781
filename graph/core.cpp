#include <proofline/graph/detail/core.hpp>

#include <oneapi/tbb/info.h>

#include <algorithm>
#include <string>

#include <proofline/cuda/device.hpp>
#include <proofline/graph/detail/flow.hpp>
#include <proofline/memory/host_memory.hpp>
#include <proofline/nodes/detail/stages.hpp>
#include <proofline/util/detail/log.hpp>
#include <proofline/util/error.hpp>
#include <proofline/util/size.hpp>

namespace proofline::graph::detail {

namespace {

std::size_t stage_index(Stage stage) noexcept {
  return static_cast<std::size_t>(stage);
}

void check_config(const Config& c) {
  const auto bad = [](const std::string& what) {
    throw Error(Errc::invalid_argument, "pipeline config: " + what);
  };
  if (c.queue_capacity == 0) bad("queue_capacity must be at least 1");
  if (c.device_slots > 64) bad("device_slots " + std::to_string(c.device_slots) + " is absurd (at most 64)");
  if (c.slots > 4096) bad("slots " + std::to_string(c.slots) + " is absurd (at most 4096)");
  if (c.max_threads > 4096) bad("max_threads " + std::to_string(c.max_threads) + " is absurd (at most 4096)");
  if (c.synthesis_concurrency > 4096)
    bad("synthesis_concurrency " + std::to_string(c.synthesis_concurrency) + " is absurd (at most 4096)");
  if (c.max_log_n > max_ntt_log_size)
    bad("max_log_n " + std::to_string(c.max_log_n) + " is above the largest domain, 2^" +
        std::to_string(max_ntt_log_size));
  if (c.job_timeout.count() < 0) bad("job_timeout must not be negative");
  if (c.host_budget && *c.host_budget == 0) bad("host_budget must not be 0");
  if (c.vram_budget && *c.vram_budget == 0) bad("vram_budget must not be 0");
  if (c.srs_stream_buffer < (std::uint64_t{1} << 20) || c.srs_stream_buffer > (std::uint64_t{16} << 30))
    bad("srs_stream_buffer " + std::to_string(c.srs_stream_buffer) + " bytes is outside 1 MiB..16 GiB");
  for (const int gpu : c.gpus)
    if (gpu < 0) bad("GPU index " + std::to_string(gpu) + " is negative");
}

Backend resolve_backend(Backend wanted) {
  const bool usable = cuda::built_with_cuda() && cuda::device_count() > 0;
  switch (wanted) {
    case Backend::automatic:
      return usable ? Backend::cuda : Backend::cpu;
    case Backend::cpu:
      return Backend::cpu;
    case Backend::cuda:
      if (!cuda::built_with_cuda())
        throw Error(Errc::cuda, "the CUDA backend was asked for, but proofline was built without CUDA");
      if (!usable) throw Error(Errc::cuda, "the CUDA backend was asked for, but no CUDA device is usable");
      return Backend::cuda;
  }
  return Backend::cpu;
}

}  // namespace

Core::Core(Config c) : config(std::move(c)) {
  check_config(config);
  backend = resolve_backend(config.backend);
  mode = config.mode;

  const std::size_t hardware =
      static_cast<std::size_t>(std::max(1, oneapi::tbb::info::default_concurrency()));
  threads = config.max_threads != 0 ? config.max_threads : hardware;
  synthesis_concurrency = config.synthesis_concurrency != 0 ? config.synthesis_concurrency
                                                            : std::max<std::size_t>(1, threads / 2);
  // No slot is reserved for outside threads: the pipeline's work runs on workers alone, whoever submits.
  if (threads >= hardware)
    thread_limit.emplace(oneapi::tbb::global_control::max_allowed_parallelism, threads + 1);
  arena.initialize(static_cast<int>(threads), 0);

  ids.admission = recorder.add_stage("admission");
  ids.synthesis = recorder.add_stage("synthesis");
  ids.ntt = recorder.add_stage("ntt");
  ids.msm = recorder.add_stage("msm");
  ids.release = recorder.add_stage("release");
  ids.h2d = recorder.add_stage("h2d");
  ids.h2d_submit = recorder.add_stage("h2d submit");
  ids.unpin = recorder.add_stage("unpin");
  ids.ntt_submit = recorder.add_stage("ntt submit");
  ids.msm_submit = recorder.add_stage("msm submit");
  ids.gpu_done = recorder.add_stage("gpu release");
  ids.baseline = recorder.add_stage("baseline");
  ids.baseline_lock = recorder.add_stage("baseline lock wait");
  // The device's H and MSM spans share the CPU bodies' stage names: one "ntt"/"msm" row per backend.
  ids.gpu_ntt = ids.ntt;
  ids.gpu_msm = ids.msm;
  ids.pool_leased = recorder.add_track("pool leased bytes", trace::TrackKind::counter);
  ids.pool_idle = recorder.add_track("pool idle bytes", trace::TrackKind::counter);
  ids.waiting = recorder.add_track("jobs waiting for a token", trace::TrackKind::counter);
  recorder.set_nvtx(config.nvtx);

  const std::uint64_t host_bytes =
      config.host_budget ? *config.host_budget : memory::host_budget_bytes(memory::detect_host_memory());
  host_budget = std::make_unique<memory::Budget>("host", host_bytes);
  pinning = config.pinning ? memory::make_backend(*config.pinning) : memory::default_backend();
  pool = std::make_unique<memory::PinnedPool>(*host_budget, *pinning, memory::PoolOptions{.name = "slots"});
  host_keys = std::make_unique<memory::Residency>(
      *host_budget, memory::ResidencyOptions{.name = "host keys", .idle_timeout = config.key_idle_timeout});

  if (backend == Backend::cuda) {
    const auto devices = cuda::list_devices();
    std::vector<int> wanted = config.gpus;
    if (wanted.empty())
      for (const auto& d : devices) wanted.push_back(d.index);
    for (const int ordinal : wanted) {
      const auto it =
          std::find_if(devices.begin(), devices.end(), [&](const auto& d) { return d.index == ordinal; });
      if (it == devices.end())
        throw Error(Errc::invalid_argument, "GPU " + std::to_string(ordinal) + " does not exist (" +
                                                std::to_string(devices.size()) + " usable)");
      if (std::any_of(gpus.begin(), gpus.end(), [&](const auto& lane) { return lane->device == ordinal; }))
        throw Error(Errc::invalid_argument, "GPU " + std::to_string(ordinal) + " is listed twice");
      auto lane = std::make_unique<GpuLane>();
      lane->index = static_cast<int>(gpus.size());
      lane->device = ordinal;
      lane->name = it->name;
      const std::string prefix = "gpu" + std::to_string(ordinal);
      lane->copy_track = recorder.add_track(prefix + " copy", trace::TrackKind::cuda_stream, ordinal);
      lane->compute_track = recorder.add_track(prefix + " compute", trace::TrackKind::cuda_stream, ordinal);
      gpus.push_back(std::move(lane));
    }
    for (auto& lane : gpus) lane->resources = make_gpu_device(*this, *lane);
  }
  const std::size_t per_gpu = backend == Backend::cuda ? gpus.size() : 1;
  slot_cap = config.slots != 0 ? config.slots : synthesis_concurrency + 2 * per_gpu;
  PL_LOG_INFO("pipeline: {} backend, {} mode, {} threads, {} synthesizing, up to {} slots, host budget {}",
              to_string(backend), to_string(mode), threads, synthesis_concurrency, slot_cap,
              format_size(host_bytes));
}

Core::~Core() {
  {
    std::lock_guard lock(supervisor_mutex);
    supervisor_stop = true;
  }
  supervisor_wake.notify_all();
  if (supervisor.joinable()) supervisor.join();
  if (flow) arena.execute([&] { flow.reset(); });
  jobs.clear();
  keys.clear();
  largest.reset();
  gpus.clear();  // device slots give their pinned result buffers back before the pool goes
}

void Core::enter(JobState& job, Stage stage) noexcept {
  const Stage old = job.stage.exchange(stage, std::memory_order_relaxed);
  if (old == stage) return;
  in_stage[stage_index(old)].fetch_sub(1, std::memory_order_relaxed);
  in_stage[stage_index(stage)].fetch_add(1, std::memory_order_relaxed);
}

void Core::hook(Stage stage, const JobState& job) const {
  if (config.fault_hook) config.fault_hook(stage, job.id);
}

void Core::fail(JobState& job, Stage stage, Errc code, const std::string& what) noexcept {
  if (job.error) return;
  try {
    job.error = JobError{stage, code, std::string(to_string(stage)) + ": " + what};
    PL_LOG_DEBUG("job {} failed in {}: {}", job.id, to_string(stage), what);
  } catch (...) {
    // Out of memory while describing the error: keep a message that needs no allocation beyond the enum.
    job.error = JobError{stage, code, {}};
  }
}

std::size_t Core::token_target() const {
  std::shared_ptr<KeyState> key;
  {
    std::lock_guard lock(largest_mutex);
    key = largest;
  }
  if (!key) return 0;
  std::size_t fit = 0;
  if (mode == Mode::pinned) {
    fit = pool->slots_that_fit(key->slot_sizes);
  } else {
    fit = static_cast<std::size_t>((host_budget->available() + baseline_held.load()) / key->slot_bytes);
  }
  return std::min(slot_cap, fit);
}

void Core::return_token(JobState& job, std::vector<TokenGate::Token>& out) {
  if (!job.has_token) return;
  job.has_token = false;
  gate.on_return(job.token, token_target(), out);
}

void Core::refill_tokens() {
  for (const TokenGate::Token token : gate.grow(token_target())) flow->tokens.try_put(token);
}

void Core::settle_tokens() {
  const std::size_t target = token_target();
  TokenGate::Token token;
  while (gate.live() > target && flow->tokens.try_get(token)) {
    if (!gate.withdraw(token, target)) {
      flow->tokens.try_put(token);  // a token came home meanwhile and was retired in its place
      break;
    }
  }
  refill_tokens();
}

void Core::release_buffers(JobState& job) noexcept {
  if (job.slot != nullptr) {
    try {
      pool->release_slot(job.slot);
    } catch (const std::exception& e) {
      PL_LOG_ERROR("job {}: returning its pinned slot failed: {}", job.id, e.what());
    }
    job.slot = nullptr;
    slots_in_flight.fetch_sub(1, std::memory_order_relaxed);
  } else if (!job.heap_charge.empty()) {
    baseline_held.fetch_sub(job.heap_charge.bytes(), std::memory_order_relaxed);
    // Pageable vectors are freed as the old design freed them: per job.
    job.heap_a = {};
    job.heap_b = {};
    job.heap_c = {};
    job.heap_z = {};
    job.heap_charge.reset();
    slots_in_flight.fetch_sub(1, std::memory_order_relaxed);
  }
  job.a = job.b = job.c = job.z = {};
}

bool Core::deliver(JobState& job, std::optional<JobError> early) {
  if (job.delivered.exchange(true, std::memory_order_acq_rel)) return false;
  JobResult& r = job.result;
  r.id = job.id;
  r.seq = job.seq;
  r.label = job.label;
  r.gpu = job.gpu;
  if (early) {
    // Another thread may be running a stage of this job: read nothing a stage writes.
    r.error = std::move(early);
  } else {
    r.error = job.error;
    if (!job.error) r.proof = job.proof;
    r.public_inputs = job.publics;
    r.verified = job.verified && !job.error;
  }
  const std::int64_t t = now_ns(*this);
  r.queued_s = job.admit_ns != 0 && !early ? static_cast<double>(job.admit_ns - job.submit_ns) * 1e-9 : 0.0;
  r.latency_s = static_cast<double>(t - job.submit_ns) * 1e-9;
  auto self = job.shared_from_this();
  if (config.in_order) {
    flow->sequencer->try_put(ResultMsg{job.seq, std::move(self)});
  } else {
    deliver_now(self);
  }
  return true;
}

void Core::deliver_now(const std::shared_ptr<JobState>& job) noexcept {
  JobResult& r = job->result;
  if (r.ok()) {
    proofs.fetch_add(1, std::memory_order_relaxed);
    if (r.verified) verified.fetch_add(1, std::memory_order_relaxed);
  } else {
    failed.fetch_add(1, std::memory_order_relaxed);
    if (r.error && r.error->code == Errc::cancelled) cancelled.fetch_add(1, std::memory_order_relaxed);
    if (r.error && r.error->code == Errc::timeout) timed_out.fetch_add(1, std::memory_order_relaxed);
  }
  // A callback that throws must not take the delivery of the future (or the graph) with it.
  try {
    if (job->on_result) job->on_result(r);
  } catch (const std::exception& e) {
    PL_LOG_ERROR("job {}: its result callback threw: {}", r.id, e.what());
  } catch (...) {
    PL_LOG_ERROR("job {}: its result callback threw", r.id);
  }
  try {
    if (config.on_result) config.on_result(r);
  } catch (const std::exception& e) {
    PL_LOG_ERROR("job {}: the pipeline's result callback threw: {}", r.id, e.what());
  } catch (...) {
    PL_LOG_ERROR("job {}: the pipeline's result callback threw", r.id);
  }
  try {
    job->promise.set_value(std::move(r));
  } catch (const std::exception& e) {
    PL_LOG_ERROR("job {}: fulfilling its future failed: {}", job->id, e.what());
  }
  {
    std::lock_guard lock(jobs_mutex);
    ++results_delivered;
  }
  finished.notify_all();
}

void Core::retire(JobState& job) noexcept {
  in_stage[stage_index(job.stage.load(std::memory_order_relaxed))].fetch_sub(1, std::memory_order_relaxed);
  job.gpu_key.reset();
  if (job.gpu >= 0)
    gpus[static_cast<std::size_t>(job.gpu)]->outstanding.fetch_sub(1, std::memory_order_relaxed);
  const std::shared_ptr<KeyState> key = job.key;
  const JobId id = job.id;
  const auto deadline = job.deadline;
  {
    std::lock_guard lock(jobs_mutex);
    if (deadline) {
      auto [first, last] = deadlines.equal_range(*deadline);
      for (auto it = first; it != last; ++it)
        if (it->second == id) {
          deadlines.erase(it);
          break;
        }
    }
    jobs.erase(id);  // `job` may be gone after this line
    --outstanding;
  }
  finished.notify_all();
  if (key->jobs.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    // remove_key waits for the last job of its key; take the lock so the wake-up cannot slip in between
    // its check and its wait.
    { std::lock_guard lock(keys_mutex); }
    keys_changed.notify_all();
  }
}

void Core::sample_counters() noexcept {
  const memory::PoolStats stats = pool->stats();
  const std::int64_t t = now_ns(*this);
  recorder.record_counter(ids.pool_leased, t, static_cast<double>(stats.bytes_leased));
  recorder.record_counter(ids.pool_idle, t, static_cast<double>(stats.bytes_idle));
  recorder.record_counter(ids.waiting, t, static_cast<double>(queued_now.load(std::memory_order_relaxed)));
}

std::shared_ptr<KeyState> Core::find_key(KeyHandle handle) const {
  std::lock_guard lock(keys_mutex);
  const auto it = keys.find(handle.id());
  if (it == keys.end()) return nullptr;
  return it->second;
}

}  // namespace proofline::graph::detail
