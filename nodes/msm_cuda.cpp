// The MSM stage on the CUDA backend: the five MSMs on the GPU's compute stream against the key's SRS in VRAM
// (A, B1 over z and B2 in G2 with the 0/±1 fast path; L over the private part of z; H over the H scalars the
// NTT stage left in a), then one small copy of the results into the device slot's pinned buffer. The H
// stage's span is read here, from its events, now that they have completed.
#include <proofline/nodes/detail/gpu_device.hpp>

#include <proofline/cuda/detail/cuda_check.hpp>
#include <proofline/graph/trace/scoped_span.hpp>
#include <proofline/nodes/detail/stages.hpp>

namespace proofline::pipeline::detail {

void gpu_msm(Core& core, GpuLane& lane, Work work, Gateway& gateway) {
  JobState& job = *work.job;
  GpuDevice& g = device_of(lane);
  DeviceSlot* slot = job.device_slot;
  core.enter(job, Stage::msm);
  trace::ScopedSpan span(core.recorder, core.ids.msm_submit, job.id, lane.device);
  if (slot->ntt_recorded) {
    try {
      gpu::DeviceGuard guard(lane.device);
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
    gpu::DeviceGuard guard(lane.device);
    const groth16::ProvingKey& pk = *job.key->pk;
    const DeviceKey& key = *job.gpu_key.as<DeviceKey>();
    const std::size_t nv = pk.num_variables;
    MsmResultsDevice* r = slot->results.data();
    void* scratch = g.scratch.data();
    cudaStream_t stream = g.compute;
    slot->msm_begin.record(stream);
    enqueued = true;
    g.msm_sparse_g1->enqueue_msm_g1(key.a.data(), slot->z.data(), nv, &r->a, scratch, stream);
    g.msm_sparse_g1->enqueue_msm_g1(key.b1.data(), slot->z.data(), nv, &r->b1, scratch, stream);
    g.msm_sparse_g2->enqueue_msm_g2(key.b2.data(), slot->z.data(), nv, &r->b2, scratch, stream);
    g.msm_sparse_g1->enqueue_msm_g1(key.l.data(), slot->z.data() + pk.num_public + 1, pk.l_query.size(),
                                    &r->l, scratch, stream);
    g.msm_dense_g1->enqueue_msm_g1(key.h.data(), slot->a.data(), pk.h_query.size(), &r->h, scratch, stream);
    slot->msm_end.record(stream);
    PL_CUDA_CHECK(cudaMemcpyAsync(slot->host_results.data(), r, sizeof(MsmResultsDevice),
                                  cudaMemcpyDeviceToHost, stream));
    slot->msm_recorded = true;
    launch_completion(slot->msm_done, gateway, work, stream);
  } catch (const std::exception& e) {
    const Errc code = dynamic_cast<const Error*>(&e) ? static_cast<const Error&>(e).code() : Errc::internal;
    core.fail(job, Stage::msm, code, e.what());
    // Error path only: kernels already queued may still use the device slot, which goes back next; the
    // next job's copy (on the other stream) must not overwrite it under them.
    if (enqueued) (void)cudaStreamSynchronize(g.compute);
    gateway.try_put(work);
  }
}

}  // namespace proofline::pipeline::detail
