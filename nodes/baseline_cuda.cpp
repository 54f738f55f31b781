// Baseline mode on the CUDA backend, reproducing the old design for side-by-side measurement: the same
// kernels, keys and SRS placement (VRAM or streamed), but a, b, c, z come from pageable heap vectors and one
// mutex per GPU is held across H2D + H + MSMs, synchronously (the worker waits for the stream). It blocks a
// worker on purpose.
#include <proofline/nodes/gpu_stage.hpp>

#include <mutex>

#include <proofline/cuda/check.hpp>
#include <proofline/trace/scoped_span.hpp>

namespace proofline::nodes {

void gpu_baseline(Context& ctx, devices::GpuLane& lane, JobState& job) {
  ctx.enter(job, Stage::baseline);
  if (!lane.healthy.load())
    fail(job, Stage::baseline, Errc::cuda, "GPU " + std::to_string(lane.device) + " is out of service");
  if (job.skip()) return;
  devices::GpuDevice& g = devices::device_of(lane);
  std::unique_lock<std::mutex> lock;
  {
    trace::ScopedSpan wait(ctx.recorder, ctx.ids.baseline_lock, job.id, lane.device);
    lock = std::unique_lock(g.baseline_mutex);
  }
  trace::ScopedSpan span(ctx.recorder, ctx.ids.baseline, job.id, lane.device);
  ctx.guarded(job, Stage::baseline, [&] {
    ctx.hook(Stage::baseline, job);
    cuda::DeviceGuard guard(lane.device);
    devices::DeviceSlot& slot = *g.slots.front();
    slot.anchor = g.current_anchor();
    const std::uint64_t abc = job.key->slot_sizes[0];
    const std::uint64_t bytes = 3 * abc + job.key->slot_sizes[3];
    slot.h2d_begin.record(g.copy);
    devices::enqueue_h2d(slot, job.a.data(), job.b.data(), job.c.data(), abc, job.z.data(),
                         job.key->slot_sizes[3], g.copy);
    slot.h2d_end.record(g.copy);
    cudaStream_t stream = slot.compute;
    slot.h2d_end.make_wait(stream);
    slot.ntt_begin.record(stream);
    enqueue_job_h(g, job, slot, stream);
    slot.ntt_end.record(stream);
    slot.msm_begin.record(stream);
    enqueue_job_msms(g, job, slot);
    slot.msm_end.record(stream);
    PL_CUDA_CHECK(cudaStreamSynchronize(stream));  // the old design: the worker waits, holding the mutex
    devices::record_device_span(ctx.recorder, slot, ctx.ids.h2d, lane.copy_track, slot.h2d_begin,
                                slot.h2d_end, job.id, bytes);
    devices::record_device_span(ctx.recorder, slot, ctx.ids.gpu_ntt, lane.compute_track, slot.ntt_begin,
                                slot.ntt_end, job.id, 3 * abc);
    devices::record_device_span(ctx.recorder, slot, ctx.ids.gpu_msm, lane.compute_track, slot.msm_begin,
                                slot.msm_end, job.id, 0);
    take_msm_results(job, slot);
  });
  if (job.error) {
    // Whatever was queued before the failure finishes before the next job (holding the mutex) reuses the
    // slot.
    (void)cudaSetDevice(lane.device);
    (void)cudaStreamSynchronize(g.copy);
    (void)cudaStreamSynchronize(g.slots.front()->compute);
  }
}

}  // namespace proofline::nodes
