// The H stage on the CUDA backend: NttEngine::enqueue_h on the device slot's compute stream, in its buffers,
// in the key's convention; the completion comes back through the gateway from a host function.
#include <proofline/nodes/detail/gpu_device.hpp>

#include <proofline/trace/scoped_span.hpp>
#include <proofline/nodes/detail/stages.hpp>

namespace proofline::graph::detail {

void gpu_ntt(Core& core, GpuLane& lane, Work work, Gateway& gateway) {
  JobState& job = *work.job;
  GpuDevice& g = device_of(lane);
  DeviceSlot* slot = job.device_slot;
  core.enter(job, Stage::ntt);
  trace::ScopedSpan span(core.recorder, core.ids.ntt_submit, job.id, lane.device);
  if (!lane.healthy.load())
    core.fail(job, Stage::ntt, Errc::cuda, "GPU " + std::to_string(lane.device) + " is out of service");
  if (job.skip()) {
    gateway.try_put(work);
    return;
  }
  bool enqueued = false;
  try {
    core.hook(Stage::ntt, job);
    cuda::DeviceGuard guard(lane.device);
    slot->ntt_begin.record(slot->compute);
    enqueued = true;
    g.ntt->enqueue_h(slot->a.data(), slot->b.data(), slot->c.data(), job.key->domain, slot->compute);
    slot->ntt_end.record(slot->compute);
    slot->ntt_recorded = true;
    launch_completion(slot->ntt_done, gateway, work, slot->compute);
  } catch (const std::exception& e) {
    const Errc code = dynamic_cast<const Error*>(&e) ? static_cast<const Error&>(e).code() : Errc::internal;
    core.fail(job, Stage::ntt, code, e.what());
    // Error path only: kernels already queued may still use the device slot, which goes back next; the
    // next job's copy (on the other stream) must not overwrite it under them.
    if (enqueued) (void)cudaStreamSynchronize(slot->compute);
    gateway.try_put(work);
  }
}

}  // namespace proofline::graph::detail
