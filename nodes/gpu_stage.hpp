// Internal to nodes/, CUDA backend only: the skeleton every asynchronous GPU stage shares (h2d, ntt, msm).
// A stage body counts the job into its stage, records a submit span, fails the job on a GPU that is out of
// service, then enqueues its work on a stream and launches a host function that hands the job back through
// the async_node's gateway. On an error the job fails and goes on at once; whatever was already enqueued
// is waited for first, since the slot's memory goes back to other jobs next.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <exception>
#include <string>

#include <proofline/cuda/stream.hpp>
#include <proofline/devices/gpu_device.hpp>
#include <proofline/nodes/stages.hpp>
#include <proofline/trace/scoped_span.hpp>

namespace proofline::nodes {

/// Arms `done` to hand `work` to `gateway` (failing the job in `stage` if the GPU dies first) and launches
/// its host function on `stream`; on failure the gateway's reservation is released and the error thrown.
void launch_completion(devices::Completion& done, Stage stage, Gateway& gateway, Work work,
                       cudaStream_t stream);

/// The job's H on `stream`, by its key's curve's NTT engine: a, b, c of the device slot in (made from z
/// first when the GPU evaluates them), H's scalars left in a.
void enqueue_job_h(devices::GpuDevice& g, JobState& job, devices::DeviceSlot& slot, cudaStream_t stream);
/// The job's five MSMs on slot.compute (devices::enqueue_job_msms in its key's curve), then one copy of the
/// results into the slot's pinned buffer.
void enqueue_job_msms(devices::GpuDevice& g, JobState& job, devices::DeviceSlot& slot);
/// The job's MSM results, out of the slot's pinned buffer (after the copy above completed), into its work.
/// Throws Error(bad_input) when the GPU found a row its witness does not satisfy.
void take_msm_results(JobState& job, const devices::DeviceSlot& slot);

struct GpuStage {
  Stage stage;
  trace::StageId submit_span;
  devices::Completion& done;
  cudaStream_t stream;
  std::uint64_t span_bytes = 0;
};

/// Runs `enqueue` (which puts the stage's work on `stage.stream`) inside the shared skeleton above.
template <class Enqueue>
void run_gpu_stage(Context& ctx, devices::GpuLane& lane, Work work, Gateway& gateway, const GpuStage& stage,
                   Enqueue&& enqueue) {
  JobState& job = *work.job;
  ctx.enter(job, stage.stage);
  trace::ScopedSpan span(ctx.recorder, stage.submit_span, job.id, lane.device);
  if (!lane.healthy.load())
    fail(job, stage.stage, Errc::cuda, "GPU " + std::to_string(lane.device) + " is out of service");
  if (job.skip()) {
    gateway.try_put(work);
    return;
  }
  bool enqueued = false;
  try {
    ctx.hook(stage.stage, job);
    cuda::DeviceGuard guard(lane.device);
    enqueued = true;
    enqueue();
    span.set_bytes(stage.span_bytes);
    launch_completion(stage.done, stage.stage, gateway, work, stage.stream);
  } catch (const std::exception& e) {
    fail(job, stage.stage, error_code_of(e), e.what());
    if (enqueued) (void)cudaStreamSynchronize(stage.stream);
    gateway.try_put(work);
  }
}

}  // namespace proofline::nodes
