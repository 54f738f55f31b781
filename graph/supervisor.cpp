// The supervisor thread: job deadlines, counter samples, the GPUs' clock anchors and health, and a synthesis
// permit when jobs wait while the syntheses running leave the host idle (graph/detail/synthesis_ramp.hpp). It
// may block (a GPU anchor waits for one event); no TBB worker ever does this work. It mints no tokens:
// admission runs on events alone (graph/detail/admission.hpp).
#include <proofline/graph/detail/core.hpp>
#include <proofline/graph/detail/flow.hpp>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <proofline/util/logging.hpp>

namespace proofline::graph::detail {

namespace {

/// The timeout error of a job in `stage`, `limit` ms after its submission, with what it was doing (`where`,
/// or what the stage says). Noexcept: once a job's deadline has taken it, its result must go out, so a
/// message that cannot be made for want of memory is one that needs none.
JobError timeout_error(Stage stage, std::chrono::milliseconds limit, const char* where) noexcept {
  try {
    const std::string after = "timed out after " + std::to_string(limit.count()) + " ms";
    if (where != nullptr)
      return JobError{stage, Errc::timeout, std::string(to_string(stage)) + ": " + after + " " + where};
    // Admitted jobs stay in admission until a synthesis permit is theirs: that is what they wait for there.
    const std::string in = stage == Stage::admission
                               ? "admitted, it was waiting for a synthesis permit"
                               : std::string("the job was still in ") + to_string(stage);
    return JobError{stage, Errc::timeout, std::string(to_string(stage)) + ": " + after + " (" + in + ")"};
  } catch (...) {
    return nodes::allocation_free_error(stage, Errc::timeout, "timed out");
  }
}

/// The error of a job whose deadline passed (empty when it needs none: it is done or being withdrawn).
std::optional<JobError> expire_one(Core& core, JobState& job) noexcept {
  Phase expected = Phase::queued;
  if (job.phase.compare_exchange_strong(expected, Phase::withdrawn, std::memory_order_acq_rel)) {
    --core.queued;
    core.ctx->counters.queued.store(core.queued, std::memory_order_relaxed);
    core.room.notify_one();
    return timeout_error(Stage::queue, job.timeout, "waiting for a pinned slot");
  }
  if (expected != Phase::admitted) return std::nullopt;
  // In flight: the stages skip it from now on; its slot and tokens come home as the message drains.
  job.abandoned.store(true, std::memory_order_release);
  return timeout_error(job.stage.load(std::memory_order_relaxed), job.timeout, nullptr);
}

/// Delivers the results of the jobs whose deadlines have passed, one at a time: a list of them would need
/// memory, and a job taken by its deadline whose result then found no room in that list would never get one.
void expire(Core& core) {
  const auto now = SteadyClock::now();
  for (;;) {
    std::shared_ptr<JobState> job;
    std::optional<JobError> error;
    {
      std::lock_guard lock(core.jobs_mutex);
      while (!error && !core.deadlines.empty() && core.deadlines.begin()->first <= now) {
        const JobId id = core.deadlines.begin()->second;
        core.deadlines.erase(core.deadlines.begin());
        const auto it = core.jobs.find(id);
        if (it == core.jobs.end()) continue;
        error = expire_one(core, *it->second);
        if (error) job = it->second;
      }
    }
    if (!error) return;
    core.deliver_early(*job, std::move(*error));
  }
}

}  // namespace

void supervise(Core& core) {
  using namespace std::chrono_literals;
  auto last_sample = SteadyClock::now();
  std::optional<nodes::Context::CounterValues> last_values;
  std::unique_lock lock(core.supervisor_mutex);
  while (!core.supervisor_stop) {
    core.supervisor_wake.wait_for(lock, core.hooks.supervisor_period);
    if (core.supervisor_stop) break;
    lock.unlock();
    try {
      expire(core);
      const auto now = SteadyClock::now();
      core.flow->unstall_synthesis(now);
      // Sampled when they change (an idle pipeline records nothing), at most every 20 ms.
      if (now - last_sample >= 20ms) {
        const nodes::Context::CounterValues values = core.ctx->counter_values();
        if (values != last_values) {
          core.ctx->record_counters(values);
          last_values = values;
        }
        last_sample = now;
      }
      for (auto& lane : core.gpus()) devices::device_tick(*lane);
    } catch (const std::exception& e) {
      PL_LOG_ERROR("pipeline supervisor: {}", e.what());
    }
    lock.lock();
  }
}

}  // namespace proofline::graph::detail
