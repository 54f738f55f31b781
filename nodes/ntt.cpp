// The H stage on the CPU backend: H scalars from a, b, c in the key's curve and convention (cpu::compute_h
// through the prover's step), in place in the job's slot. The CUDA backend's H stage is ntt_cuda.cpp.
#include <proofline/nodes/stages.hpp>

#include <oneapi/tbb/task_arena.h>

#include <proofline/nodes/detail/cpu_steps.hpp>
#include <proofline/trace/scoped_span.hpp>

namespace proofline::nodes {

void cpu_ntt(Context& ctx, JobState& job) {
  ctx.enter(job, Stage::ntt);
  if (job.skip()) return;
  trace::ScopedSpan span(ctx.recorder, ctx.ids.ntt, job.id);
  ctx.guarded(job, Stage::ntt, [&] {
    ctx.hook(Stage::ntt, job);
    // Isolated so that waiting for its own parallel loops never stacks another node's body on this thread.
    oneapi::tbb::this_task_arena::isolate([&] { detail::cpu_h_step(job); });
    span.set_bytes(3 * job.key->slot_sizes[0]);
  });
}

}  // namespace proofline::nodes
