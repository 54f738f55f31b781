// The Pipeline's life: construction (the graph, the listeners that turn pool and budget events into tokens,
// the supervisor), drain and shutdown, statistics and observability.
#include <proofline/graph/pipeline.hpp>

#include <string>
#include <utility>

#include <proofline/graph/detail/core.hpp>
#include <proofline/graph/detail/flow.hpp>
#include <proofline/graph/observe.hpp>
#include <proofline/util/logging.hpp>
#include <proofline/util/size.hpp>

namespace proofline::graph {

using detail::Core;

namespace {

BudgetStats summary(const memory::BudgetStats& s) {
  return {.total = s.total,
          .used = s.used,
          .high_water = s.high_water,
          .waits = s.waits,
          .evictions = s.evictions,
          .bytes_evicted = s.bytes_evicted,
          .waiting = s.waiting};
}

PoolStats summary(const memory::PoolStats& s) {
  return {.slot_leases = s.slot_leases,
          .reuse_hits = s.reuse_hits,
          .misses = s.misses,
          .pin_calls = s.pin_calls,
          .pin_calls_since_warm = s.pin_calls_since_warm,
          .pin_seconds = s.pin_seconds,
          .bytes_pinned = s.bytes_pinned,
          .bytes_idle = s.bytes_idle,
          .bytes_leased = s.bytes_leased,
          .high_water = s.high_water,
          .slots_out = s.slots_out};
}

ResidencyStats summary(const memory::ResidencyStats& s) {
  return {.loads = s.loads - s.load_failures,
          .evictions = s.evictions,
          .bytes_resident = s.bytes_resident,
          .entries = s.entries,
          .in_use = s.in_use};
}

GpuStats summary(const devices::GpuLane& lane) {
  const devices::GpuStats d = devices::device_stats(lane);
  return {.device = d.device,
          .name = d.name,
          .vram = summary(d.vram),
          .keys = summary(d.keys),
          .device_slots = d.device_slots,
          .device_slots_in_use = d.device_slots_in_use,
          .occupied_seconds = d.occupied_seconds,
          .jobs = lane.jobs.load(),
          .srs_stream_batches = d.srs_stream_batches,
          .srs_stream_bytes = d.srs_stream_bytes,
          .msm_tables = d.msm_tables,
          .msm_table_bytes = d.msm_table_bytes,
          .healthy = lane.healthy.load()};
}

StageCounts stage_counts(const nodes::Counters& counters, std::size_t queued) {
  const auto count = [&](Stage stage) { return counters.in_stage[static_cast<std::size_t>(stage)].load(); };
  return {.queue = queued,
          .admission = count(Stage::admission),
          .synthesis = count(Stage::synthesis),
          .h2d = count(Stage::h2d),
          .ntt = count(Stage::ntt),
          .msm = count(Stage::msm),
          .release = count(Stage::release),
          .baseline = count(Stage::baseline)};
}

}  // namespace

Pipeline::Pipeline(Config config) : Pipeline(std::move(config), testing::Hooks{}) {}

detail::Core& Pipeline::live_core() const {
  if (!core_)
    throw Error(Errc::invalid_argument, "this Pipeline was moved from: it may only be destroyed or assigned");
  return *core_;
}

Pipeline::Pipeline(Config config, testing::Hooks hooks)
    : core_(std::make_unique<Core>(std::move(config), std::move(hooks))) {
  Core& core = *core_;
  // The graph attaches to the arena it is built in: every node body then runs within the thread cap.
  core.arena.execute([&] { core.flow = std::make_unique<detail::Flow>(core); });
  // Tokens follow capacity by events: a slot returned to the pool, bytes released to the host budget.
  core.pool->set_return_listener([&core] { core.signal_capacity(); });
  core.host_budget->set_release_listener([&core] { core.signal_capacity(); });
  core.supervisor = std::thread([&core] { detail::supervise(core); });
}

Pipeline::~Pipeline() {
  if (!core_) return;
  if (detail::in_caller_callback()) {
    // It would wait for the callback that runs it, for ever: said and stopped, as a joinable std::thread's
    // destructor does, rather than a silent hang.
    std::fputs(
        "proofline: a Pipeline destroyed (or assigned to) inside one of its result or witness "
        "callbacks would wait for that callback for ever; destroy it outside its callbacks\n",
        stderr);
    std::abort();
  }
  try {
    shutdown(ShutdownMode::drain);
  } catch (const std::exception& e) {
    PL_LOG_ERROR("pipeline shutdown: {}", e.what());
  }
}

Pipeline::Pipeline(Pipeline&&) noexcept = default;

Pipeline& Pipeline::operator=(Pipeline&& other) noexcept {
  if (this != &other) {
    Pipeline gone(std::move(*this));  // shut down (draining) as it goes out of scope
    core_ = std::move(other.core_);
  }
  return *this;
}

Pipeline testing::make_pipeline(Config config, Hooks hooks) {
  return Pipeline(std::move(config), std::move(hooks));
}

void Pipeline::drain() {
  detail::refuse_inside_callback("Pipeline::drain");
  Core& core = live_core();
  bool quiet = false;
  {
    // The jobs submitted so far, not those other threads submit meanwhile (or drain would never return).
    std::unique_lock lock(core.jobs_mutex);
    const JobId before = core.next_job_id;
    core.finished.wait(lock, [&] {
      const bool retired = core.jobs.empty() || core.jobs.begin()->first >= before;
      const bool delivered = core.undelivered.empty() || *core.undelivered.begin() >= before;
      return retired && delivered;
    });
    quiet = core.outstanding == 0;
  }
  // With nothing else in flight, messages still moving (deliveries, tokens on their way home, capacity
  // events) finish here too, so that the pipeline is idle when drain returns.
  if (quiet)
    core.arena.execute([&] {
      core.flow->graph.wait_for_all();
      core.settle_tokens();
    });
}

void Pipeline::stop_accepting() {
  Core& core = live_core();
  {
    std::lock_guard lock(core.jobs_mutex);
    core.closed = true;
  }
  core.room.notify_all();
}

void Pipeline::shutdown(ShutdownMode mode) {
  Core& core = live_core();
  {
    // A pipeline shut down already waits for nothing, so its destructor may run anywhere, even in another
    // pipeline's callback.
    std::lock_guard lock(core.jobs_mutex);
    if (core.shut_down) return;
  }
  detail::refuse_inside_callback("Pipeline::shutdown");
  {
    std::lock_guard lock(core.jobs_mutex);
    if (core.shut_down) return;
    core.closed = true;
  }
  core.room.notify_all();
  if (mode == ShutdownMode::cancel) cancel_queued();
  drain();
  core.stop_supervisor();
  core.arena.execute([&] { core.flow->graph.wait_for_all(); });
  // The GPUs go now (their pinned result buffers back to the pool); stats and the recorder stay readable.
  for (auto& lane : core.gpus()) lane->resources.reset();
  {
    // Pinned copies of streamed keys' points go back too: at shutdown no pinned byte stays leased.
    std::lock_guard lock(core.keys_mutex);
    for (auto& [id, key] : core.keys)
      std::visit([](auto& material) { material.host_srs.reset(); }, key->material);
  }
  core.arena.execute([&] { core.flow->graph.wait_for_all(); });  // the capacity events those released
  core.ctx->sample_counters();
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
  const Core& core = live_core();
  const nodes::Counters& counters = core.ctx->counters;
  PipelineStats s;
  s.backend = core.backend;
  s.mode = core.mode;
  s.submitted = core.submitted.load();
  s.refused = core.refused.load();
  s.proofs = core.proofs.load();
  s.failed = core.failed.load();
  s.cancelled = core.cancelled.load();
  s.timed_out = core.timed_out.load();
  s.retried = core.retried.load();
  s.verified = core.verified.load();
  s.proof_seconds = core.proof_seconds.snapshot();
  s.queued_seconds = core.queued_seconds.snapshot();
  s.queue_depth = counters.queued.load();
  s.stages = stage_counts(counters, s.queue_depth);
  s.tokens = core.admission.live();
  s.token_target = core.admission.target();
  s.tokens_parked = core.admission.parked();
  s.token_parks = core.admission.parks();
  s.slots_in_flight = counters.slots_in_flight.load();
  s.max_inflight_slots = counters.max_inflight_slots.load();
  if (core.flow) {
    s.synthesis_permits = core.flow->synthesis_ramp.live();
    s.max_synthesis_permits = core.flow->synthesis_ramp.high_water();
  }
  {
    std::lock_guard lock(core.largest_mutex);
    s.slot_bytes = core.largest ? core.largest->slot_bytes : 0;
  }
  s.pool = summary(core.pool->stats());
  s.host_budget = summary(core.host_budget->stats());
  s.host_keys = summary(core.host_keys->stats());
  for (const auto& lane : core.ctx->gpus) s.gpus.push_back(summary(*lane));
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

trace::Recorder& recorder(Pipeline& pipeline) noexcept {
  return pipeline.core_->recorder;
}

trace::RunRoles run_roles(const Pipeline& pipeline) {
  const Core& core = *pipeline.core_;
  trace::RunRoles roles;
  roles.synthesis = {core.ctx->ids.synthesis};
  for (const auto& lane : core.ctx->gpus) {
    roles.copy_streams.push_back(lane->copy_track);
    roles.compute_streams.push_back(lane->compute_track);
  }
  roles.tokens_waiting = core.ctx->ids.waiting;
  return roles;
}

}  // namespace proofline::graph
