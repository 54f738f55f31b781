// The MSM stage on the CUDA backend: the five MSMs on the device slot's compute stream against the key's SRS
// in VRAM or streamed from host memory (A, B1 over z and B2 in G2 with the 0/±1 fast path; L over the private
// part of z; H over the H scalars the NTT stage left in a: enqueue_job_msms), then one small copy of the
// results into the device slot's pinned buffer. The H stage's span is read here, from its events, now that
// they have completed.
#include <proofline/nodes/detail/gpu_device.hpp>

#include <proofline/cuda/detail/cuda_check.hpp>
#include <proofline/trace/scoped_span.hpp>
#include <proofline/nodes/detail/stages.hpp>

namespace proofline::graph::detail {

void gpu_msm(Core& core, GpuLane& lane, Work work, Gateway& gateway) {
  JobState& job = *work.job;
  GpuDevice& g = device_of(lane);
  DeviceSlot* slot = job.device_slot;
  core.enter(job, Stage::msm);
  trace::ScopedSpan span(core.recorder, core.ids.msm_submit, job.id, lane.device);
  if (slot->ntt_recorded) {
    try {
      cuda::DeviceGuard guard(lane.device);
      record_device_span(core, *slot, core.ids.gpu_ntt, lane.compute_track, slot->ntt_begin, slot->ntt_end,
                         job.id, 3 * job.key->slot_sizes[0]);
    } catch (const std::exception&) {
    }
  }
  if (!lane.healthy.load())
    core.fail(job, Stage::msm, Errc::cuda, "GPU " + std::to_string(lane.device) + " is out of service");
  if (job.skip()) {
    gateway.try_put(work);
    return;
  }
  bool enqueued = false;
  try {
    core.hook(Stage::msm, job);
    cuda::DeviceGuard guard(lane.device);
    cudaStream_t stream = slot->compute;
    slot->msm_begin.record(stream);
    enqueued = true;
    enqueue_job_msms(g, job, *slot);
    slot->msm_end.record(stream);
    PL_CUDA_CHECK(cudaMemcpyAsync(slot->host_results.data(), slot->results.data(), sizeof(MsmResultsDevice),
                                  cudaMemcpyDeviceToHost, stream));
    slot->msm_recorded = true;
    launch_completion(slot->msm_done, gateway, work, stream);
  } catch (const std::exception& e) {
    const Errc code = dynamic_cast<const Error*>(&e) ? static_cast<const Error&>(e).code() : Errc::internal;
    core.fail(job, Stage::msm, code, e.what());
    // Error path only: kernels already queued may still use the device slot, which goes back next; the
    // next job's copy (on the other stream) must not overwrite it under them.
    if (enqueued) (void)cudaStreamSynchronize(slot->compute);
    gateway.try_put(work);
  }
}

}  // namespace proofline::graph::detail
