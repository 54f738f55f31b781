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

/// The error of a job whose deadline passed (empty when it needs none: it is done or being withdrawn).
std::optional<JobError> expire_one(Core& core, JobState& job) {
  const std::string limit = std::to_string(job.timeout.count()) + " ms";
  Phase expected = Phase::queued;
  if (job.phase.compare_exchange_strong(expected, Phase::withdrawn, std::memory_order_acq_rel)) {
    --core.queued;
    core.ctx->counters.queued.store(core.queued, std::memory_order_relaxed);
    core.room.notify_one();
    return JobError{Stage::queue, Errc::timeout,
                    "queue: timed out after " + limit + " waiting for a pinned slot"};
  }
  if (expected != Phase::admitted) return std::nullopt;
  // In flight: the stages skip it from now on; its slot and tokens come home as the message drains.
  job.abandoned.store(true, std::memory_order_release);
  const Stage stage = job.stage.load(std::memory_order_relaxed);
  // Admitted jobs stay in admission until a synthesis permit is theirs: that is what they wait for there.
  const std::string where = stage == Stage::admission
                                ? "admitted, it was waiting for a synthesis permit"
                                : std::string("the job was still in ") + to_string(stage);
  return JobError{stage, Errc::timeout,
                  std::string(to_string(stage)) + ": timed out after " + limit + " (" + where + ")"};
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
      if (auto error = expire_one(core, *it->second)) expired.emplace_back(it->second, std::move(*error));
    }
  }
  for (auto& [job, error] : expired) core.deliver_early(*job, std::move(error));
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
