// Admission's lease: a job has met a token; lease its buffers by pointer under that token. The lease never
// waits: the pool's try_acquire_slot either serves the slot now (from idle buffers, or by pinning within the
// budget) or refuses, and then the graph parks the token until a slot or budget bytes come back and puts the
// job back in the queue, so nothing spins and no worker blocks.
#include <proofline/nodes/stages.hpp>

#include <algorithm>
#include <optional>

#include <proofline/util/error.hpp>
#include <proofline/util/free_storage.hpp>

namespace proofline::nodes {

namespace {

/// Where a pinned-mode job's a, b and c live.
enum class AbcHome {
  gpu,       ///< nowhere on the host: its GPU makes them from z, and its slot holds z alone
  slot,      ///< in its pinned slot beside z
  pageable,  ///< in pageable vectors charged to the budget: a job of a GPU-evaluated key proved on the CPU
             ///< (its GPU failed) needs no page-locked memory, and a dead GPU context can pin nothing more
};

AbcHome abc_home(const JobState& job) {
  if (!needs_host_abc(job)) return AbcHome::gpu;
  return job.key->gpu_evaluates && job.gpu < 0 ? AbcHome::pageable : AbcHome::slot;
}

/// Pageable a, b, c of n values each; `charge` becomes the job's. On failure nothing is kept.
void give_pageable_abc(JobState& job, std::uint64_t n, memory::Reservation charge) {
  try {
    job.heap_a.resize(n);
    job.heap_b.resize(n);
    job.heap_c.resize(n);
  } catch (...) {
    for (std::vector<Fr>* vector : {&job.heap_a, &job.heap_b, &job.heap_c}) free_storage(*vector);
    throw;  // the charge goes back with `charge`
  }
  job.heap_charge = std::move(charge);
  job.a = job.heap_a;
  job.b = job.heap_b;
  job.c = job.heap_c;
}

}  // namespace

bool lease_buffers(Context& ctx, JobState& job) {
  const KeyState& key = *job.key;
  const std::uint64_t n = key.domain_size();
  if (ctx.settings.pinned) {
    // A key load waiting for host memory goes first: slots coming home then stay idle long enough for the
    // pool to give them up, instead of being leased again at once and starving the load.
    if (ctx.host_budget.stats().waiting > 0) return false;
    const AbcHome home = abc_home(job);
    std::optional<memory::Reservation> abc_charge;
    if (home == AbcHome::pageable) {
      abc_charge = ctx.host_budget.try_reserve(3 * key.slot_sizes[0]);
      if (!abc_charge) return false;
    }
    // z alone unless a, b, c go in the slot too: three quarters of the pinned bytes stay free.
    memory::PinnedSlot* slot =
        ctx.pool.try_acquire_slot(home == AbcHome::slot ? std::span(key.slot_sizes) : key.z_slot());
    if (slot == nullptr) return false;
    if (home == AbcHome::pageable) {
      try {
        give_pageable_abc(job, n, std::move(*abc_charge));
      } catch (...) {
        ctx.pool.release_slot(slot);
        throw;
      }
    }
    job.slot = slot;
    if (home == AbcHome::slot) {
      job.a = slot->as<Fr>(0);
      job.b = slot->as<Fr>(1);
      job.c = slot->as<Fr>(2);
      job.z = slot->as<Fr>(3);
    } else {
      job.z = slot->as<Fr>(0);
    }
  } else {
    auto charge = ctx.host_budget.try_reserve(key.slot_bytes);
    if (!charge) return false;
    try {
      // Storage for either curve's scalars (nodes::scalars_as): both are the size of BLS12-381's Fr.
      job.heap_a.resize(n);
      job.heap_b.resize(n);
      job.heap_c.resize(n);
      job.heap_z.resize(key.num_variables);
    } catch (...) {
      for (std::vector<Fr>* vector : {&job.heap_a, &job.heap_b, &job.heap_c, &job.heap_z})
        free_storage(*vector);
      throw;  // the charge goes back with `charge`
    }
    job.heap_charge = std::move(*charge);
    ctx.counters.baseline_held.fetch_add(key.slot_bytes, std::memory_order_relaxed);
    job.a = job.heap_a;
    job.b = job.heap_b;
    job.c = job.heap_c;
    job.z = job.heap_z;
  }
  const std::size_t now = ctx.counters.slots_in_flight.fetch_add(1, std::memory_order_relaxed) + 1;
  std::size_t seen = ctx.counters.max_inflight_slots.load(std::memory_order_relaxed);
  while (now > seen &&
         !ctx.counters.max_inflight_slots.compare_exchange_weak(seen, now, std::memory_order_relaxed)) {
  }
  return true;
}

}  // namespace proofline::nodes
