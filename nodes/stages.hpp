// The stage bodies, one source file each. A body runs with the job's message in hand, records its span, calls
// the fault hook, and turns any error into the job's error: a failed job still flows through every later
// stage (which skip their work) so that its tokens and slots come home where they always do. Bodies return
// what the graph routes (a device slot, whether a lease succeeded); they never reach into the graph.
//
// The CUDA bodies (gpu_*) are built only with the CUDA backend; without it no_cuda.cpp provides versions that
// throw Error(cuda), and the CPU backend never reaches them.
#pragma once

#include <proofline/nodes/context.hpp>
#include <proofline/nodes/messages.hpp>

namespace proofline::nodes {

// ---- admission.cpp ---------------------------------------------------------------------------------------

/// Leases the job's buffers under the token it holds: a pinned slot (pinned mode) or pageable vectors charged
/// to the host budget (baseline mode). Never waits: false when they cannot be had right now (the graph parks
/// the token until capacity comes back); throws when they never can.
bool lease_buffers(Context& ctx, JobState& job);

// ---- synthesis.cpp ---------------------------------------------------------------------------------------

/// The witness into z (from memory, a .wtns file or the caller's callback), then a = A·z, b = B·z, c = C·z.
void synthesize(Context& ctx, JobState& job);

// ---- ntt.cpp, msm.cpp, baseline.cpp (CPU backend) ---------------------------------------------------------

void cpu_ntt(Context& ctx, JobState& job);
void cpu_msm(Context& ctx, JobState& job);
void cpu_baseline(Context& ctx, JobState& job);

// ---- release.cpp -----------------------------------------------------------------------------------------

/// Assembles (and verifies) the proof and gives back the buffers and the use of the key's SRS. The graph then
/// returns the token, delivers the result and retires the job.
void finish(Context& ctx, JobState& job);

// ---- CUDA backend (h2d.cpp, ntt_cuda.cpp, msm_cuda.cpp, release_cuda.cpp, baseline_cuda.cpp) --------------

/// Binds the job to `slot` and enqueues a, b, c, z -> device on the GPU's copy stream; the job comes back
/// through `gateway` from a host function.
void gpu_h2d(Context& ctx, devices::GpuLane& lane, Work work, devices::DeviceSlot* slot, Gateway& gateway);
/// After the copy: records its span and gives the pinned slot back (the graph returns the token).
void gpu_after_copy(Context& ctx, devices::GpuLane& lane, JobState& job);
/// H from a, b, c on the slot's compute stream.
void gpu_ntt(Context& ctx, devices::GpuLane& lane, Work work, Gateway& gateway);
/// The five MSMs on the slot's compute stream, results copied into the slot's pinned result buffer.
void gpu_msm(Context& ctx, devices::GpuLane& lane, Work work, Gateway& gateway);
/// After the MSMs: records the spans, reads the results; returns the device slot to hand back (or null).
devices::DeviceSlot* gpu_done(Context& ctx, devices::GpuLane& lane, JobState& job);
/// Baseline mode: H2D from pageable vectors + H + MSMs under the GPU's mutex, synchronously.
void gpu_baseline(Context& ctx, devices::GpuLane& lane, JobState& job);

}  // namespace proofline::nodes
