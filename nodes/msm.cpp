// The MSM stage on the CPU backend: the five MSMs (A, B1, B2 over z, L over the private part of z, H over the
// H scalars the H stage left in a). The CUDA backend's MSM stage is msm_cuda.cpp.
#include <proofline/nodes/stages.hpp>

#include <oneapi/tbb/task_arena.h>

#include <proofline/nodes/detail/cpu_steps.hpp>
#include <proofline/trace/scoped_span.hpp>

namespace proofline::nodes {

void cpu_msm(Context& ctx, JobState& job) {
  ctx.enter(job, Stage::msm);
  if (job.skip()) return;
  trace::ScopedSpan span(ctx.recorder, ctx.ids.msm, job.id);
  ctx.guarded(job, Stage::msm, [&] {
    ctx.hook(Stage::msm, job);
    oneapi::tbb::this_task_arena::isolate([&] { detail::cpu_msm_step(job); });
  });
}

}  // namespace proofline::nodes
