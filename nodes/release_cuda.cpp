// The end of a job's time on a GPU (CUDA backend, pinned mode): the MSMs' span from their events, the five
// results out of the device slot's pinned buffer, and the device slot back to its GPU's device-token buffer.
// Proof assembly and delivery follow in release.cpp, shared with the CPU backend.
#include <proofline/nodes/detail/gpu_device.hpp>

#include <cstring>

#include <proofline/trace/scoped_span.hpp>
#include <proofline/nodes/detail/stages.hpp>

namespace proofline::graph::detail {

DeviceSlot* gpu_done(Core& core, GpuLane& lane, JobState& job) {
  trace::ScopedSpan span(core.recorder, core.ids.gpu_done, job.id, lane.device);
  DeviceSlot* slot = job.device_slot;
  if (slot == nullptr) return nullptr;
  if (slot->msm_recorded) {
    try {
      cuda::DeviceGuard guard(lane.device);
      record_device_span(core, *slot, core.ids.gpu_msm, lane.compute_track, slot->msm_begin, slot->msm_end,
                         job.id, 0);
    } catch (const std::exception&) {
    }
    if (!job.skip()) {
      MsmResultsDevice results;
      std::memcpy(&results, slot->host_results.data(), sizeof results);
      job.msm = groth16::MsmResults{results.a, results.b1, results.b2, results.l, results.h};
    }
  }
  job.device_slot = nullptr;
  device_of(lane).slots_in_use.fetch_sub(1, std::memory_order_relaxed);
  return slot;
}

}  // namespace proofline::graph::detail
