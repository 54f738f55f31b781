// The H stage on the CUDA backend: NttEngine::enqueue_h on the device slot's compute stream, in its buffers,
// in the key's convention; the job comes back through the gateway from a host function.
#include <proofline/nodes/gpu_stage.hpp>

namespace proofline::nodes {

void gpu_ntt(Context& ctx, devices::GpuLane& lane, Work work, Gateway& gateway) {
  JobState& job = *work.job;
  devices::GpuDevice& g = devices::device_of(lane);
  devices::DeviceSlot& slot = *job.device_slot;
  run_gpu_stage(
      ctx, lane, work, gateway, GpuStage{Stage::ntt, ctx.ids.ntt_submit, slot.ntt_done, slot.compute}, [&] {
        slot.ntt_begin.record(slot.compute);
        g.ntt->enqueue_h(slot.a.data(), slot.b.data(), slot.c.data(), job.key->domain, slot.compute);
        slot.ntt_end.record(slot.compute);
        slot.ntt_recorded = true;
      });
}

}  // namespace proofline::nodes
