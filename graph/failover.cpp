// Failover: a job whose GPU died under it (a sticky CUDA error) is proved again, from its witness, where its
// key can run without loading anything: another healthy GPU holding the SRS, or the CPU with
// Config::cpu_fallback. Its slot was returned after the copy, so the retry goes through admission and
// synthesis again; the job keeps its id, its place in submission order and its deadline.
#include <proofline/graph/detail/flow.hpp>
#include <proofline/graph/detail/gpu_choice.hpp>

#include <optional>
#include <string>
#include <utility>

#include <proofline/util/logging.hpp>

namespace proofline::graph::detail {

namespace {

/// At most one retry per GPU the pipeline has, so a job cannot go round forever.
bool may_retry(const Core& core, const JobState& job) {
  return job.attempts <= core.ctx->gpus.size();
}

/// Fresh fields for the next attempt; the witness source, key, id, seq and deadline stay.
void reset_for_retry(JobState& job) {
  job.error.reset();
  job.work = nodes::fresh_work(job.key->curve);
  job.witness_checked = false;
  job.verified = false;
  job.admit_ns.store(0, std::memory_order_relaxed);
  ++job.attempts;
}

}  // namespace

bool requeue_after_gpu_loss(Core& core, JobState& job) {
  if (!job.error || job.error->code != Errc::cuda || job.gpu < 0) return false;
  devices::GpuLane& lost = core.ctx->gpu_of(job);
  // A CUDA error on a GPU that still works is the job's own (a launch refused, an allocation): it stands.
  if (devices::check_health(lost)) return false;
  std::optional<std::pair<int, memory::ResidentHandle>> target;
  if (!job.abandoned.load(std::memory_order_acquire) && may_retry(core, job))
    target = route_now(core, *job.key);
  if (!target) {
    // It stands, but says which GPU failed (the CUDA message alone names a call, not the device).
    const std::string gpu = "GPU " + std::to_string(lost.device);
    if (job.error->message.find(gpu) == std::string::npos)
      job.error->message =
          gpu + " failed under this job and no other place can prove it: " + job.error->message;
    return false;
  }
  {
    std::lock_guard lock(core.jobs_mutex);
    Phase expected = Phase::admitted;
    if (!job.phase.compare_exchange_strong(expected, Phase::queued, std::memory_order_acq_rel)) return false;
    ++core.queued;
    core.ctx->counters.queued.store(core.queued, std::memory_order_relaxed);
  }
  // Nothing from here on throws (the logger catches its own exceptions): the job is queued again.
  if (target->first < 0)
    PL_LOG_WARN("job {} ({}): {}; proving it again on the CPU", job.id, job.label, job.error->message);
  else
    PL_LOG_WARN("job {} ({}): {}; proving it again on GPU index {}", job.id, job.label, job.error->message,
                target->first);
  unbind_job(lost, job.key->log_domain_size);
  job.gpu = target->first;
  job.gpu_key = std::move(target->second);
  if (job.gpu >= 0) bind_job(core.ctx->gpu_of(job), job.key->log_domain_size);
  reset_for_retry(job);
  core.ctx->enter(job, Stage::queue);
  core.retried.fetch_add(1, std::memory_order_relaxed);
  return true;
}

}  // namespace proofline::graph::detail
