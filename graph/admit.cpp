// Admission's node body: a job has met a token in the reserving join. Its buffers are leased under that
// token (nodes::lease_buffers never waits); when they cannot be had right now the job goes back to the queue
// and its token is parked until capacity comes back (a slot returned, budget bytes released, a key added),
// so nothing spins, no timer is involved and no worker blocks.
#include <proofline/graph/detail/flow.hpp>

#include <algorithm>

#include <proofline/nodes/stages.hpp>
#include <proofline/trace/scoped_span.hpp>

namespace proofline::graph::detail {

namespace {

/// The job leaves the queue for the graph proper.
void count_admitted(Core& core, JobState& job) {
  {
    std::lock_guard lock(core.jobs_mutex);
    --core.queued;
    core.ctx->counters.queued.store(core.queued, std::memory_order_relaxed);
    core.turn_clock = std::max(core.turn_clock, job.turn);
  }
  core.room.notify_one();
  job.admit_ns.store(core.ctx->now_ns(), std::memory_order_relaxed);
  core.ctx->enter(job, Stage::admission);
}

}  // namespace

Admit admit(Core& core, JobState& job, Token token, std::vector<Token>& tokens) {
  nodes::Context& ctx = *core.ctx;
  trace::ScopedSpan span(ctx.recorder, ctx.ids.admission, job.id);
  job.token = token.id;
  if (job.phase.load(std::memory_order_acquire) != Phase::queued) {
    core.return_token(job, tokens);
    core.retire(job);
    return Admit::drop;
  }

  const std::uint64_t epoch = core.admission.epoch();
  bool leased = false;
  std::optional<JobError> failure;
  try {
    ctx.hook(Stage::admission, job);
    leased = nodes::lease_buffers(ctx, job);
  } catch (const Error& e) {
    failure = JobError{Stage::admission, e.code(), e.what()};
  } catch (const std::exception& e) {
    failure = JobError{Stage::admission, Errc::io, e.what()};  // std::bad_alloc for the pageable vectors
  }
  if (!leased && !failure) {
    if (!core.admission.park(token, epoch)) tokens.push_back(token);  // capacity came meanwhile: try again
    job.token = 0;
    return Admit::requeue;
  }

  Phase expected = Phase::queued;
  if (!job.phase.compare_exchange_strong(expected, Phase::admitted, std::memory_order_acq_rel)) {
    // Withdrawn while the slot was being leased: its result is out already.
    ctx.release_buffers(job);
    core.return_token(job, tokens);
    core.retire(job);
    return Admit::drop;
  }
  count_admitted(core, job);
  if (failure) {
    // Failed jobs still flow through every stage, so the token comes home where it always does.
    ctx.release_buffers(job);
    nodes::fail(job, Stage::admission, failure->code, failure->message);
  } else {
    span.set_bytes(job.key->slot_bytes);
  }
  ctx.sample_counters();
  return Admit::proceed;
}

}  // namespace proofline::graph::detail
