// Internal, CUDA backend only (includes the CUDA runtime): the resources of one GPU and the completion
// protocol of its async_nodes. Included by the nodes/*_cuda.cpp, h2d.cpp and gpu_device.cpp files only.
//
// Completion protocol (DESIGN.md "Flow graph rules", reference/tbb.md §1.6): a stage body calls
// gateway.reserve_wait(), enqueues its work on a stream, then cudaLaunchHostFunc(stream, complete, &done).
// The host function only hands the message back: try_put, then release_wait (never the other way round, or
// wait_for_all could return in between), and nothing else (no CUDA call, no allocation). Its successors are
// queueing nodes, so no node body ever runs on the driver's thread.
#pragma once

#include <cuda_runtime.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include <proofline/cuda/detail/device_buffer.hpp>
#include <proofline/cuda/detail/stream.hpp>
#include <proofline/cuda/gpu_msm.hpp>
#include <proofline/cuda/gpu_msm_stream.hpp>
#include <proofline/cuda/gpu_ntt.hpp>
#include <proofline/graph/detail/core.hpp>
#include <proofline/graph/detail/flow.hpp>
#include <proofline/trace/clock.hpp>

namespace proofline::graph::detail {

/// A host time for one device's events (trace/clock.hpp): spans are read from events relative to it.
struct ClockAnchor {
  cuda::Event event;
  trace::GpuClockAnchor host;
};

/// What a host function hands back to the graph. Lives in the device slot (never freed while a callback may
/// still come), so the callback allocates nothing.
struct Completion {
  Gateway* gateway = nullptr;
  Work work;
  /// Set when the callback is launched, cleared by whoever completes it: the host function, or the
  /// supervisor when the GPU's context died and no host function will ever run.
  std::atomic<bool> armed{false};
};

/// The five MSM results of one job on the device, in the layout the host copy expects.
struct MsmResultsDevice {
  G1Jacobian a, b1, l, h;
  G2Jacobian b2;
};

/// One job's buffers on one GPU: bound to a job from its H2D until its MSMs are done. Each slot has its own
/// compute stream and MSM scratch, so the jobs bound to one GPU run their H and MSMs concurrently: the long
/// serial tails of one job's MSMs (the last reduction levels and the window combination use a few SMs)
/// overlap the other job's bucket accumulation.
struct DeviceSlot {
  GpuLane* lane = nullptr;
  int index = 0;
  cuda::Stream compute;
  cuda::DeviceBuffer<std::byte> scratch;
  cuda::DeviceBuffer<Fr> a, b, c, z;
  cuda::DeviceBuffer<MsmResultsDevice> results;
  memory::PinnedLease host_results;  ///< the D2H target of `results` (pinned: the copy stays asynchronous)
  cuda::Event h2d_begin, h2d_end, ntt_begin, ntt_end, msm_begin, msm_end;
  std::shared_ptr<const ClockAnchor> anchor;  ///< taken at H2D: older than every event of this job
  Completion h2d_done, ntt_done, msm_done;
  bool h2d_recorded = false, ntt_recorded = false, msm_recorded = false;
};

/// One key's SRS in one GPU's memory (what the VRAM Residency holds).
struct DeviceKey {
  int device = 0;
  cuda::DeviceBuffer<G1Affine> a, b1, h, l;
  cuda::DeviceBuffer<G2Affine> b2;
  ~DeviceKey();  // frees with the device current
};

struct GpuDevice {
  GpuDevice(Core& core, GpuLane& lane, std::uint64_t vram_total);
  ~GpuDevice();

  Core& core;
  GpuLane& lane;
  memory::Budget vram;
  std::unique_ptr<memory::Residency> keys;  ///< SRS per key, least recently used evicted
  cuda::Stream copy, clock;  ///< `clock` stays idle: anchors are recorded there (compute: one per slot)

  std::mutex anchor_mutex;
  std::shared_ptr<const ClockAnchor> anchor;
  std::chrono::steady_clock::time_point anchored_at{};

  // Sized by allocate_device_slots at the first key.
  unsigned log_n_cap = 0;
  std::uint64_t z_cap = 0;
  std::unique_ptr<cuda::NttEngine> ntt;
  std::unique_ptr<cuda::MsmEngine> msm_sparse_g1;  ///< witness scalars: the 0/±1 fast path
  std::unique_ptr<cuda::MsmEngine> msm_dense_g1;   ///< H scalars: dense
  std::unique_ptr<cuda::MsmEngine> msm_sparse_g2;
  /// Keys streamed from host memory (KeyState::host_srs): MSM engines planned for one staging buffer's batch
  /// (their scratch is counted in `scratch`), the staging buffers made at the first such key.
  std::unique_ptr<cuda::MsmEngine> stream_sparse_g1, stream_dense_g1, stream_sparse_g2;
  std::unique_ptr<cuda::MsmPointStream> point_stream;
  mutable std::mutex point_stream_mutex;  ///< guards creating point_stream (add_key vs. stats)
  memory::Reservation point_stream_charge;
  std::vector<std::unique_ptr<DeviceSlot>> slots;
  std::atomic<std::size_t> slots_in_use{0};
  memory::Reservation fixed;  ///< VRAM of the tables, scratch and device slots
  std::mutex baseline_mutex;  ///< baseline mode: the old design's GPU mutex

  std::shared_ptr<const ClockAnchor> current_anchor();
  /// A fresh anchor (blocks on one event of the idle clock stream: never call it from a node body).
  void reanchor();
};

/// Enqueues the job's five MSMs on slot.compute against its key's SRS - in this GPU's VRAM, or streamed from
/// page-locked host memory - with the results in slot.results.
void enqueue_job_msms(GpuDevice& g, const JobState& job, DeviceSlot& slot);

/// The host function of every GPU stage: try_put, then release_wait, nothing else.
void CUDART_CB complete_stage(void* completion);

/// Arms `done` for `work` and launches its host function on `stream` after a reserve_wait; on failure the
/// reservation is released again and the error thrown.
void launch_completion(Completion& done, Gateway& gateway, Work work, cudaStream_t stream);

/// A span on `track` from two events of this slot, converted to the host clock through the slot's anchor.
void record_device_span(Core& core, const DeviceSlot& slot, trace::StageId stage, trace::TrackId track,
                        const cuda::Event& begin, const cuda::Event& end, std::uint64_t job,
                        std::uint64_t bytes);

inline GpuDevice& device_of(GpuLane& lane) {
  return *lane.resources;
}

}  // namespace proofline::graph::detail
