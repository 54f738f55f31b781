#include <proofline/nodes/context.hpp>

#include <new>

#include <proofline/cpu/parallel_wipe.hpp>
#include <proofline/util/free_storage.hpp>
#include <proofline/util/logging.hpp>

namespace proofline::nodes {

namespace {

std::size_t stage_index(Stage stage) noexcept {
  return static_cast<std::size_t>(stage);
}

StageIds register_stages(trace::Recorder& recorder) {
  StageIds ids;
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
  return ids;
}

}  // namespace

Context::Context(trace::Recorder& r, memory::Budget& budget, memory::PinnedPool& p, Settings s)
    : recorder(r), host_budget(budget), pool(p), settings(std::move(s)), ids(register_stages(r)) {}

void Context::enter(JobState& job, Stage stage) noexcept {
  const Stage old = job.stage.exchange(stage, std::memory_order_relaxed);
  if (old == stage) return;
  counters.in_stage[stage_index(old)].fetch_sub(1, std::memory_order_relaxed);
  counters.in_stage[stage_index(stage)].fetch_add(1, std::memory_order_relaxed);
}

void Context::hook(Stage stage, const JobState& job) const {
  if (settings.fault_hook) settings.fault_hook(stage, job.id);
}

void Context::release_buffers(JobState& job) noexcept {
  if (job.slot != nullptr) {
    if (settings.wipe_slots) wipe_witness(job);
    try {
      pool.release_slot(job.slot);
    } catch (const std::exception& e) {
      PL_LOG_ERROR("job {}: returning its pinned slot failed: {}", job.id, e.what());
    }
    job.slot = nullptr;
    counters.slots_in_flight.fetch_sub(1, std::memory_order_relaxed);
    free_heap_vectors(job);  // a, b, c of a job on the CPU beside a slot of z alone
  } else if (!job.heap_charge.empty()) {
    counters.baseline_held.fetch_sub(job.heap_charge.bytes(), std::memory_order_relaxed);
    free_heap_vectors(job);
    counters.slots_in_flight.fetch_sub(1, std::memory_order_relaxed);
  }
  job.a = job.b = job.c = job.z = {};
}

void Context::free_heap_vectors(JobState& job) noexcept {
  // Pageable vectors are freed as the old design freed them, per job, but zeroed first: freed memory goes
  // back to the allocator (and maybe to another process) with whatever it holds.
  for (std::vector<Fr>* vector : {&job.heap_a, &job.heap_b, &job.heap_c, &job.heap_z}) {
    cpu::parallel_wipe(std::span<Fr>(*vector));
    free_storage(*vector);
  }
  job.heap_charge.reset();
}

void Context::wipe_witness(JobState& job) noexcept {
  for (const std::span<Fr> buffer : {job.a, job.b, job.c, job.z}) cpu::parallel_wipe(buffer);
}

Context::CounterValues Context::counter_values() const noexcept {
  const memory::PoolStats stats = pool.stats();
  return {stats.bytes_leased, stats.bytes_idle, counters.queued.load(std::memory_order_relaxed)};
}

void Context::record_counters(const CounterValues& values) noexcept {
  const std::int64_t t = now_ns();
  recorder.record_counter(ids.pool_leased, t, static_cast<double>(values.pool_leased));
  recorder.record_counter(ids.pool_idle, t, static_cast<double>(values.pool_idle));
  recorder.record_counter(ids.waiting, t, static_cast<double>(values.waiting));
}

void fail(JobState& job, Stage stage, Errc code, const std::string& what) noexcept {
  if (job.error) return;
  try {
    job.error = JobError{stage, code, std::string(to_string(stage)) + ": " + what};
    PL_LOG_DEBUG("job {} failed in {}: {}", job.id, to_string(stage), what);
  } catch (...) {
    // Out of memory while describing the error: keep a message that needs no allocation beyond the enum.
    job.error = JobError{stage, code, {}};
  }
}

Errc error_code_of(const std::exception& e) noexcept {
  if (dynamic_cast<const std::bad_alloc*>(&e) != nullptr) return Errc::io;  // the system refused memory
  const auto* error = dynamic_cast<const Error*>(&e);
  return error != nullptr ? error->code() : Errc::internal;
}

std::string unsatisfied_row_message(std::uint64_t row, const std::string& key) {
  return "the witness does not satisfy constraint row " + std::to_string(row) + " of key '" + key + "'";
}

}  // namespace proofline::nodes
