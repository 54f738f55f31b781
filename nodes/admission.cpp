// Admission: a job has met a token in the reserving join; lease its slot by pointer under that token. The
// lease never waits: the pool's try_acquire_slot either serves the slot now (from idle buffers, or by
// pinning within the budget) or refuses, and then the job goes back to the queue and its token is withheld
// for a moment (a key load may be holding the budget), so nothing spins and no worker blocks.
#include <proofline/nodes/detail/stages.hpp>

#include <algorithm>

#include <proofline/trace/scoped_span.hpp>
#include <proofline/util/error.hpp>

namespace proofline::graph::detail {

namespace {

/// The job's buffers: a pinned slot (pinned mode) or pageable vectors charged to the host budget (baseline).
/// False when they cannot be had right now; throws when they never can (a slot larger than the budget).
bool lease(Core& core, JobState& job) {
  const KeyState& key = *job.key;
  const std::uint64_t n = key.pk->domain_size();
  if (core.mode == Mode::pinned) {
    // A key load waiting for host memory goes first: slots coming home then stay idle long enough for the
    // pool to give them up, instead of being leased again at once and starving the load.
    if (core.host_budget->stats().waiting > 0) return false;
    memory::PinnedSlot* slot = core.pool->try_acquire_slot(key.slot_sizes);
    if (slot == nullptr) return false;
    job.slot = slot;
    job.a = slot->as<Fr>(0);
    job.b = slot->as<Fr>(1);
    job.c = slot->as<Fr>(2);
    job.z = slot->as<Fr>(3);
  } else {
    auto charge = core.host_budget->try_reserve(key.slot_bytes);
    if (!charge) return false;
    try {
      job.heap_a.resize(n);
      job.heap_b.resize(n);
      job.heap_c.resize(n);
      job.heap_z.resize(key.pk->num_variables);
    } catch (...) {
      job.heap_a = job.heap_b = job.heap_c = job.heap_z = {};
      throw;  // the charge goes back with `charge`
    }
    job.heap_charge = std::move(*charge);
    core.baseline_held.fetch_add(key.slot_bytes, std::memory_order_relaxed);
    job.a = job.heap_a;
    job.b = job.heap_b;
    job.c = job.heap_c;
    job.z = job.heap_z;
  }
  const std::size_t now = core.slots_in_flight.fetch_add(1, std::memory_order_relaxed) + 1;
  std::size_t seen = core.max_inflight_slots.load(std::memory_order_relaxed);
  while (now > seen && !core.max_inflight_slots.compare_exchange_weak(seen, now, std::memory_order_relaxed)) {
  }
  return true;
}

}  // namespace

Admit admit(Core& core, JobState& job, Token token, std::vector<Token>& tokens) {
  trace::ScopedSpan span(core.recorder, core.ids.admission, job.id);
  job.token = token;
  job.has_token = true;
  if (job.phase.load(std::memory_order_acquire) != Phase::queued) {
    core.return_token(job, tokens);
    core.retire(job);
    return Admit::drop;
  }

  bool leased = false;
  std::optional<JobError> failure;
  try {
    core.hook(Stage::admission, job);
    leased = lease(core, job);
  } catch (const Error& e) {
    failure = JobError{Stage::admission, e.code(), e.what()};
  } catch (const std::exception& e) {
    failure = JobError{Stage::admission, Errc::io, e.what()};  // std::bad_alloc for the pageable vectors
  }
  if (!leased && !failure) {
    core.gate.drop(token);
    job.has_token = false;
    return Admit::requeue;
  }

  Phase expected = Phase::queued;
  if (!job.phase.compare_exchange_strong(expected, Phase::admitted, std::memory_order_acq_rel)) {
    // Withdrawn while the slot was being leased: its result is out already.
    core.release_buffers(job);
    core.return_token(job, tokens);
    core.retire(job);
    return Admit::drop;
  }
  {
    std::lock_guard lock(core.jobs_mutex);
    --core.queued;
    core.queued_now.store(core.queued, std::memory_order_relaxed);
  }
  core.room.notify_one();
  job.admit_ns = now_ns(core);
  core.enter(job, Stage::admission);
  if (failure) {
    // Failed jobs still flow through every stage, so the token comes home where it always does.
    core.release_buffers(job);
    core.fail(job, Stage::admission, failure->code, failure->message);
  } else {
    span.set_bytes(job.key->slot_bytes);
  }
  core.sample_counters();
  return Admit::proceed;
}

}  // namespace proofline::graph::detail
