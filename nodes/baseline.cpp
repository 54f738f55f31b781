// Baseline mode on the CPU backend: H and the MSMs of one job at a time under one mutex, from pageable
// vectors, as the old design ran its device work under a GPU mutex (the CUDA variant is baseline_cuda.cpp).
// It blocks a worker on purpose: that is the design being measured against.
#include <proofline/nodes/stages.hpp>

#include <oneapi/tbb/task_arena.h>

#include <mutex>

#include <proofline/nodes/detail/cpu_steps.hpp>
#include <proofline/trace/scoped_span.hpp>

namespace proofline::nodes {

void cpu_baseline(Context& ctx, JobState& job) {
  ctx.enter(job, Stage::baseline);
  if (job.skip()) return;
  std::unique_lock<std::mutex> lock;
  {
    trace::ScopedSpan wait(ctx.recorder, ctx.ids.baseline_lock, job.id);
    lock = std::unique_lock(ctx.cpu_baseline_mutex);
  }
  trace::ScopedSpan span(ctx.recorder, ctx.ids.baseline, job.id);
  ctx.guarded(job, Stage::baseline, [&] {
    ctx.hook(Stage::baseline, job);
    // Isolated: the thread holds the mutex, so it must not run another baseline body while it waits for its
    // own parallel loops (it would try to take the mutex again).
    oneapi::tbb::this_task_arena::isolate([&] {
      {
        trace::ScopedSpan h(ctx.recorder, ctx.ids.ntt, job.id);
        detail::cpu_h_step(job);
      }
      trace::ScopedSpan m(ctx.recorder, ctx.ids.msm, job.id);
      detail::cpu_msm_step(job);
    });
  });
}

}  // namespace proofline::nodes
