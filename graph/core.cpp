#include <proofline/graph/detail/core.hpp>

#include <oneapi/tbb/info.h>

#include <algorithm>
#include <span>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <proofline/cuda/device.hpp>
#include <proofline/devices/gpu_lane.hpp>
#include <proofline/graph/detail/flow.hpp>
#include <proofline/graph/detail/gpu_choice.hpp>
#include <proofline/memory/host_memory.hpp>
#include <proofline/util/error.hpp>
#include <proofline/util/logging.hpp>
#include <proofline/util/scope_guard.hpp>
#include <proofline/util/size.hpp>

namespace proofline::graph::detail {

namespace {

void check_config(const Config& c) {
  const auto bad = [](const std::string& what) {
    throw Error(Errc::invalid_argument, "pipeline config: " + what);
  };
  // Enums that came through a cast or a foreign caller: an unknown value must not pick some behaviour.
  if (to_string(c.backend) == "unknown")
    bad("backend " + std::to_string(static_cast<int>(c.backend)) +
        " is not a Backend (automatic, cpu, cuda)");
  if (to_string(c.mode) == "unknown")
    bad("mode " + std::to_string(static_cast<int>(c.mode)) + " is not a Mode (pinned, baseline)");
  if (to_string(c.srs) == "unknown")
    bad("srs " + std::to_string(static_cast<int>(c.srs)) +
        " is not an SrsPlacement (automatic, device, host)");
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
  if (c.key_idle_timeout.count() < 0) bad("key_idle_timeout must not be negative");
  if (c.host_budget && *c.host_budget == 0) bad("host_budget must not be 0");
  if (c.vram_budget && *c.vram_budget == 0) bad("vram_budget must not be 0");
  if (c.msm_table_bits != 0 && (c.msm_table_bits < 8 || c.msm_table_bits > 22))
    bad("msm_table_bits " + std::to_string(c.msm_table_bits) + " is outside 8..22 (0: automatic)");
  if (c.srs_stream_buffer != 0 &&
      (c.srs_stream_buffer < (std::uint64_t{1} << 20) || c.srs_stream_buffer > (std::uint64_t{16} << 30)))
    bad("srs_stream_buffer " + std::to_string(c.srs_stream_buffer) +
        " bytes is outside 1 MiB..16 GiB (0: automatic)");
  for (const int gpu : c.gpus)
    if (gpu < 0) bad("GPU index " + std::to_string(gpu) + " is negative");
}

bool usable(const cuda::DeviceInfo& device) {
  return device.unsupported.empty();
}

/// Why GPU `ordinal` is not usable: it cannot run the kernels, or there is no such GPU.
std::string missing_gpu(int ordinal, std::span<const cuda::DeviceInfo> listed) {
  for (const auto& device : listed)
    if (device.index == ordinal)
      return "GPU " + std::to_string(ordinal) + " (" + device.name +
             ") cannot be used: " + device.unsupported;
  return "GPU " + std::to_string(ordinal) + " does not exist (" +
         std::to_string(std::ranges::count_if(listed, usable)) + " usable)";
}

/// The GPUs the configuration names (every usable one of `listed` when it names none), each with its trace
/// tracks.
std::vector<std::unique_ptr<devices::GpuLane>> make_lanes(const Config& config, trace::Recorder& recorder,
                                                          std::span<const cuda::DeviceInfo> listed) {
  std::vector<int> wanted = config.gpus;
  if (wanted.empty()) {
    for (const auto& d : listed)
      if (usable(d)) wanted.push_back(d.index);
    if (const std::string unusable = cuda::unusable_devices_summary(listed); !unusable.empty())
      PL_LOG_WARN("proving on the other GPUs: {}", unusable);
  }
  std::vector<std::unique_ptr<devices::GpuLane>> lanes;
  for (const int ordinal : wanted) {
    const auto it = std::ranges::find_if(listed, [&](const auto& d) { return d.index == ordinal; });
    if (it == listed.end() || !usable(*it)) throw Error(Errc::invalid_argument, missing_gpu(ordinal, listed));
    if (it->compiles_ptx)  // else the wait for the driver's compiler before the first job looks like a hang
      PL_LOG_WARN(
          "GPU {} ({}) runs proofline's kernels from PTX the driver compiles at their first use: "
          "about a minute the first time, then cached (CUDA_CACHE_PATH, ~/.nv/ComputeCache); native "
          "code: build with -DCMAKE_CUDA_ARCHITECTURES={}{}",
          ordinal, it->name, it->compute_major, it->compute_minor);
    if (std::any_of(lanes.begin(), lanes.end(), [&](const auto& lane) { return lane->device == ordinal; }))
      throw Error(Errc::invalid_argument, "GPU " + std::to_string(ordinal) + " is listed twice");
    auto lane = std::make_unique<devices::GpuLane>();
    lane->index = static_cast<int>(lanes.size());
    lane->device = ordinal;
    lane->name = it->name;
    const std::string prefix = "gpu" + std::to_string(ordinal);
    lane->copy_track = recorder.add_track(prefix + " copy", trace::TrackKind::cuda_stream, ordinal);
    lane->compute_track = recorder.add_track(prefix + " compute", trace::TrackKind::cuda_stream, ordinal);
    lanes.push_back(std::move(lane));
  }
  return lanes;
}

devices::GpuOptions gpu_options(const Config& config) {
  return {.vram_budget = config.vram_budget,
          .device_slots = config.device_slots,
          .ntt_top_diagonal = config.ntt_top_diagonal,
          .srs_stream_buffer = config.srs_stream_buffer,
          .msm_table_bits = static_cast<int>(config.msm_table_bits)};
}

/// The backend the configuration gets, given the GPUs the driver lists. Backend::cpu asked for ignores the
/// GPU list.
Backend resolve_backend(const Config& config, std::span<const cuda::DeviceInfo> listed) {
  if (config.backend == Backend::cpu) return Backend::cpu;
  if (cuda::built_with_cuda() && std::ranges::any_of(listed, usable)) return Backend::cuda;
  // Why no GPU is used, naming those the kernels cannot run on: a machine with one must not prove on the CPU,
  // or refuse, without saying why.
  const std::string unusable = cuda::unusable_devices_summary(listed);
  const std::string why =
      (cuda::built_with_cuda() ? "no CUDA device is usable" : "proofline was built without CUDA") +
      (unusable.empty() ? std::string{} : ": " + unusable);
  if (config.backend == Backend::cuda) throw Error(Errc::cuda, "the CUDA backend was asked for, but " + why);
  // Naming GPUs and getting the CPU backend by the automatic choice is a mistake to report, not a preference
  // to drop: the batch would run many times slower with nothing said.
  if (!config.gpus.empty())
    throw Error(Errc::cuda, "GPU " + std::to_string(config.gpus.front()) + " is named, but " + why +
                                " (the CPU backend needs no GPU list)");
  if (!unusable.empty()) PL_LOG_WARN("proving on the CPU backend: {}", unusable);
  return Backend::cpu;
}

/// The proof (when the job did not fail) and public inputs, into the result fields of the job's curve. Moved:
/// the job is done with them, and a move needs no memory, so a proved job cannot fail for want of a copy.
void move_work(JobState& job, bool failed, JobResult& r) noexcept {
  if (auto* bls = std::get_if<nodes::CurveWork<Bls12_381>>(&job.work)) {
    if (!failed) r.proof = bls->proof;
    r.public_inputs = std::move(bls->publics);
  } else if (auto* bn = std::get_if<nodes::CurveWork<Bn254>>(&job.work)) {
    if (!failed) r.bn254_proof = bn->proof;
    r.bn254_public_inputs = std::move(bn->publics);
  }
}

}  // namespace

Core::Core(Config c, testing::Hooks h)
    : config(std::move(c)),
      hooks(std::move(h)),
      recorder(trace::Clock{}, config.trace_memory),
      admission([this] { return token_target(); }),
      removed_keys(hooks.removed_key_names) {
  check_config(config);
  // One listing serves the backend's choice, the lanes and the warnings: a GPU that runs PTX is probed once.
  const std::vector<cuda::DeviceInfo> listed =
      config.backend == Backend::cpu ? std::vector<cuda::DeviceInfo>{} : cuda::all_devices();
  backend = resolve_backend(config, listed);
  mode = config.mode;

  const std::size_t hardware =
      static_cast<std::size_t>(std::max(1, oneapi::tbb::info::default_concurrency()));
  const ThreadPlan plan = thread_plan(config);
  threads = plan.threads;
  synthesis_concurrency = plan.synthesis;
  // No slot is reserved for outside threads: the pipeline's work runs on workers alone, whoever submits.
  if (threads >= hardware)
    thread_limit.emplace(oneapi::tbb::global_control::max_allowed_parallelism, threads + 1);
  arena.initialize(static_cast<int>(threads), 0);
  recorder.set_nvtx(config.nvtx);

  const std::uint64_t host_bytes =
      config.host_budget ? *config.host_budget : memory::host_budget_bytes(memory::detect_host_memory());
  host_budget = std::make_unique<memory::Budget>("host", host_bytes);
  pinning = config.pinning ? memory::make_backend(*config.pinning) : memory::default_backend();
  pool = std::make_unique<memory::PinnedPool>(*host_budget, *pinning, memory::PoolOptions{.name = "slots"});
  host_keys = std::make_unique<memory::Residency>(
      *host_budget,
      memory::ResidencyOptions{.name = "host keys",
                               .idle_timeout = std::min(config.key_idle_timeout, kNoTimeLimit)});
  ctx = std::make_unique<nodes::Context>(recorder, *host_budget, *pool,
                                         nodes::Settings{.pinned = mode == Mode::pinned,
                                                         .verify = config.verify,
                                                         .check_witness = config.check_witness,
                                                         .wipe_slots = config.wipe_slots_between_jobs,
                                                         .fault_hook = hooks.fault});

  if (backend == Backend::cuda) {
    gpus() = make_lanes(config, recorder, listed);
    for (auto& lane : gpus())
      lane->resources = devices::make_gpu_device(*lane, gpu_options(config), recorder, *pool);
  }
  const std::size_t per_gpu = backend == Backend::cuda ? gpus().size() : 1;
  slot_cap = config.slots != 0 ? config.slots : synthesis_concurrency + 2 * per_gpu;
  if (config.expected_jobs != 0)
    slot_cap = static_cast<std::size_t>(std::min<std::uint64_t>(slot_cap, config.expected_jobs));
  PL_LOG_INFO("pipeline: {} backend, {} mode, {} threads, {} synthesizing, up to {} slots, host budget {}",
              to_string(backend), to_string(mode), threads, synthesis_concurrency, slot_cap,
              format_size(host_bytes));
  if (backend == Backend::cpu) {
    // Settings for GPUs that a CPU pipeline has none of: said once, so a tuning run knows they did nothing.
    std::string unused;
    const auto note = [&unused](bool set, const char* name) {
      if (set) unused += (unused.empty() ? "" : ", ") + std::string(name);
    };
    note(!config.gpus.empty(), "gpus");
    note(config.vram_budget.has_value(), "vram_budget");
    note(config.device_slots != 0, "device_slots");
    note(config.srs_stream_buffer != 0, "srs_stream_buffer");
    note(config.msm_table_bits != 0, "msm_table_bits");
    note(config.cpu_fallback, "cpu_fallback");
    if (!unused.empty())
      PL_LOG_WARN("pipeline: the CPU backend has no GPU; these settings do nothing: {}", unused);
  }
}

Core::~Core() {
  // No capacity event may reach the graph once it starts going.
  host_budget->set_release_listener({});
  pool->set_return_listener({});
  stop_supervisor();
  // Events raised after shutdown's last wait (remove_key after shutdown releases budget bytes, which mints)
  // may still run in the graph: wait for them before its nodes go.
  if (flow)
    arena.execute([&] {
      flow->graph.wait_for_all();
      flow.reset();
    });
  jobs.clear();
  keys.clear();
  largest.reset();
  gpus().clear();  // device slots give their pinned result buffers back before the pool goes
}

void Core::stop_supervisor() {
  {
    std::lock_guard lock(supervisor_mutex);
    supervisor_stop = true;
  }
  supervisor_wake.notify_all();
  if (supervisor.joinable()) supervisor.join();
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
    fit = pool->slots_that_fit(key->usual_slot());
  } else {
    fit = static_cast<std::size_t>((host_budget->available() + ctx->counters.baseline_held.load()) /
                                   key->slot_bytes);
  }
  return std::min(slot_cap, fit);
}

void Core::signal_capacity() noexcept {
  admission.note_capacity();
  if (!flow || mint_pending.exchange(true, std::memory_order_acq_rel)) return;
  flow->capacity.try_put(oneapi::tbb::flow::continue_msg());
}

void Core::mint_now() {
  admission.note_capacity();
  for (const Token token : admission.on_capacity()) flow->tokens.try_put(token);
}

void Core::return_token(JobState& job, std::vector<Token>& out) noexcept {
  if (job.token == 0) return;
  const Token token{job.token};
  job.token = 0;
  try {
    admission.on_return(token, out);
  } catch (const std::exception& e) {
    // Out of memory for `out` (on_return makes room before it counts anything). A token lost here would cut
    // the pipeline's concurrency for good, and with one token stall every later job: it is retired instead,
    // and the capacity event mints it again.
    PL_LOG_ERROR("job {}: returning its token failed ({}); the token is minted again", job.id, e.what());
    admission.drop(token);
    signal_capacity();
  }
}

void Core::settle_tokens() {
  Token token;
  while (admission.live() > token_target() && flow->tokens.try_get(token)) {
    if (!admission.withdraw(token)) {
      flow->tokens.try_put(token);  // a token came home meanwhile and was retired in its place
      break;
    }
  }
  mint_now();
}

bool Core::prepare_result(JobState& job, std::optional<JobError> early) noexcept {
  if (job.delivered.exchange(true, std::memory_order_acq_rel)) return false;
  JobResult& r = job.result;
  r.id = job.id;
  r.seq = job.seq;
  r.gpu = job.gpu;
  r.curve = job.key->curve;
  // The label is copied, not moved: the job keeps it for its trace record, and after an early delivery its
  // stages run on. It is the result's one allocation, and when it fails the result goes out all the same: its
  // caller, drain() and every later result in order wait for it. Without its label it must not pass for a
  // proof (a caller may match results to work by label): a job that failed, was cancelled or timed out keeps
  // its error; a proof is dropped for Errc::io, with a message that fits std::string's inline buffer.
  bool label_copied = true;
  try {
    r.label = job.label;
  } catch (...) {
    label_copied = false;
  }
  if (early) {
    // Another thread may be running a stage of this job: read nothing a stage writes.
    r.error = std::move(early);
  } else {
    // Moved, like the work: no stage runs after release.
    const bool job_failed = job.error.has_value();
    r.error = std::move(job.error);
    if (label_copied) {
      move_work(job, job_failed, r);
      r.verified = job.verified && !job_failed;
    } else if (!job_failed) {
      r.error = nodes::allocation_free_error(Stage::release, Errc::io, "OOM");
    }
  }
  if (!label_copied)
    PL_LOG_ERROR("job {}: out of memory copying its label into its result, which goes out without it: {}",
                 job.id, r.error->message);
  const std::int64_t t = ctx->now_ns();
  const std::int64_t admitted = job.admit_ns.load(std::memory_order_relaxed);
  r.queued_s = admitted != 0 && !early ? static_cast<double>(admitted - job.submit_ns) * 1e-9 : 0.0;
  r.latency_s = static_cast<double>(t - job.submit_ns) * 1e-9;
  record_job(job, r, admitted, t);
  return true;
}

void Core::record_job(const JobState& job, const JobResult& r, std::int64_t admitted_ns,
                      std::int64_t finished_ns) noexcept {
  trace::JobRecord record;
  record.job = job.id;
  record.submitted_ns = job.submit_ns;
  if (admitted_ns != 0) record.admitted_ns = std::clamp(admitted_ns, job.submit_ns, finished_ns);
  record.finished_ns = finished_ns;
  record.outcome = r.ok()                                        ? trace::JobOutcome::proved
                   : r.error && r.error->code == Errc::cancelled ? trace::JobOutcome::cancelled
                   : r.error && r.error->code == Errc::timeout   ? trace::JobOutcome::timed_out
                                                                 : trace::JobOutcome::failed;
  try {
    record.label = job.label;
    record.key = job.key->name;
  } catch (...) {  // the record goes without its names rather than not at all
  }
  ctx->recorder.record_job(std::move(record));
}

void Core::deliver_early(JobState& job, JobError error) noexcept {
  {
    std::lock_guard lock(job.callback_run.mutex);
    if (job.callback_run.running) {  // Flow::synthesize delivers it when the callback has returned
      if (!job.callback_run.deferred) job.callback_run.deferred = std::move(error);
      job.callback_run.stop.store(true, std::memory_order_relaxed);  // so that it returns soon
      return;
    }
  }
  if (prepare_result(job, std::move(error))) put_result(*this, job, flow->results);
}

void Core::deliver_directly(const std::shared_ptr<JobState>& job, const char* why) noexcept {
  PL_LOG_ERROR("job {}: its result could not enter the graph ({}); delivered on this thread", job->id, why);
  deliver_now(job);
}

void Core::deliver_now(const std::shared_ptr<JobState>& job) noexcept {
  // Once: a result delivered directly (put_result) may also have reached the sink before its put failed.
  if (job->fulfilled.exchange(true, std::memory_order_acq_rel)) return;
  JobResult& r = job->result;
  if (r.ok()) {
    proofs.fetch_add(1, std::memory_order_relaxed);
    if (r.verified) verified.fetch_add(1, std::memory_order_relaxed);
    proof_seconds.observe(r.latency_s);
    queued_seconds.observe(r.queued_s);
  } else {
    failed.fetch_add(1, std::memory_order_relaxed);
    if (r.error && r.error->code == Errc::cancelled) cancelled.fetch_add(1, std::memory_order_relaxed);
    if (r.error && r.error->code == Errc::timeout) timed_out.fetch_add(1, std::memory_order_relaxed);
  }
  ScopeGuard leave_callback(
      [outer = std::exchange(in_result_callback, true)] { in_result_callback = outer; });
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
    undelivered.erase(job->id);
  }
  finished.notify_all();
}

void Core::retire(JobState& job) noexcept {
  ctx->counters.in_stage[static_cast<std::size_t>(job.stage.load(std::memory_order_relaxed))].fetch_sub(
      1, std::memory_order_relaxed);
  job.gpu_key.reset();
  if (job.gpu >= 0) unbind_job(ctx->gpu_of(job), job.key->log_domain_size);
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

std::shared_ptr<KeyState> Core::find_key(KeyHandle handle) const {
  std::lock_guard lock(keys_mutex);
  const auto it = keys.find(handle.id());
  if (it == keys.end()) return nullptr;
  return it->second;
}

std::shared_ptr<KeyState> Core::registered_key(KeyHandle handle, const char* what) const {
  std::lock_guard lock(keys_mutex);
  if (const auto it = keys.find(handle.id()); it != keys.end()) return it->second;
  const std::string id = std::to_string(handle.id());
  if (const std::string* removed = removed_keys.find(handle.id()))
    throw Error(Errc::invalid_argument, std::string(what) + ": key '" + *removed + "' (key " + id +
                                            ") was removed (remove_key) before this call reached it");
  // Also a key removed before the last kRemovedKeyNamesKept removals, whose name is forgotten.
  throw Error(Errc::invalid_argument, std::string(what) + ": unknown key " + id +
                                          " (no key of that id was registered with this pipeline)");
}

}  // namespace proofline::graph::detail
