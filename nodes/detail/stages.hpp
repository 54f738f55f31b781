// Internal: the stage bodies, one source file each under nodes/ (graph/detail/flow.hpp wires them). Each body
// runs with the job's message in hand, records its span, calls the test fault hook, and turns any error into
// the job's error: a failed job still flows through every later stage (which skip their work) so that its
// tokens and slots come home where they always do.
//
// The CUDA bodies (gpu_*) are built only with the CUDA backend; without it nodes/no_cuda.cpp provides
// versions that throw Error(cuda), and the CPU backend never reaches them.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <proofline/graph/detail/core.hpp>
#include <proofline/graph/detail/flow.hpp>

namespace proofline::graph::detail {

// ---- admission.cpp ---------------------------------------------------------------------------------------

enum class Admit {
  proceed,  ///< the job holds its token and slot: on to synthesis
  requeue,  ///< no slot right now: the job goes back to the queue, the token is withheld for a while
  drop,     ///< the job was withdrawn (cancelled or timed out in the queue): its token goes home
};
/// On drop, the token is appended to `tokens` (or withheld by the gate) and the job is retired.
Admit admit(Core& core, JobState& job, Token token, std::vector<Token>& tokens);

// ---- synthesis.cpp ---------------------------------------------------------------------------------------

void synthesize(Core& core, JobState& job);

// ---- ntt.cpp, msm.cpp, baseline.cpp (CPU backend) ---------------------------------------------------------

void cpu_ntt(Core& core, JobState& job);
void cpu_msm(Core& core, JobState& job);
void cpu_baseline(Core& core, JobState& job);

// ---- release.cpp -----------------------------------------------------------------------------------------

/// Assembles (and verifies) the proof, returns the buffers and the token (appended to `tokens`), delivers
/// the result and retires the job. `job` must not be touched afterwards.
void release(Core& core, JobState& job, std::vector<Token>& tokens);

// ---- CUDA backend: GPU resources (gpu_device.cpp) --------------------------------------------------------

/// Streams, VRAM budget and the clock anchor of lane.device. Throws Error(cuda).
std::unique_ptr<GpuDevice, GpuDeleter> make_gpu_device(Core& core, GpuLane& lane);
/// Allocates the device slots, NTT tables and MSM scratch for 2^log_n rows and z_cap witness values, charged
/// to the GPU's VRAM budget; returns the device slots (the device-token buffer's seed). With
/// Config::ntt_top_diagonal the NTT of 2^log_n rows in `convention` gets its top-pass table when the budget
/// holds it. With Config::device_slots 0 the count is the most (up to 4) that leave `keep_free` bytes (the
/// first key's SRS in VRAM; 0 when it is streamed) of the budget, or room for the SRS staging buffers when
/// the key is streamed or cannot sit next to even one slot. Throws Error(out_of_budget) when they do not
/// fit, Error(cuda) on a CUDA failure.
std::vector<DeviceSlot*> allocate_device_slots(Core& core, GpuLane& lane, unsigned log_n, std::uint64_t z_cap,
                                               HConvention convention, std::uint64_t keep_free);
/// Throws Error(invalid_argument) naming Config::max_log_n when the key is larger than the device slots.
void check_key_fits_device(const GpuLane& lane, const KeyState& key);
/// Bytes of the key's SRS on a device.
std::uint64_t device_key_bytes(const KeyState& key);
/// The key's SRS on this GPU if it is resident now (never loads).
std::optional<memory::ResidentHandle> find_device_key(GpuLane& lane, const KeyState& key);
/// The key's SRS on this GPU, uploaded now if needed (blocks: least recently used idle keys are evicted,
/// then it waits for keys in use to become idle, at most `patience`). Throws Error(out_of_budget) when the
/// VRAM budget cannot hold it next to the device slots, or not within `patience`.
memory::ResidentHandle acquire_device_key(Core& core, GpuLane& lane, const KeyState& key,
                                          std::optional<std::chrono::milliseconds> patience = std::nullopt);
/// Drops the key's SRS from this GPU if nobody uses it.
void evict_device_key(GpuLane& lane, const KeyState& key);
std::uint64_t device_vram_available(const GpuLane& lane);
/// Makes this GPU ready for keys streamed from host memory (the staging buffers, charged to its VRAM
/// budget; idempotent). Throws Error(out_of_budget) when the budget cannot hold them.
void enable_srs_streaming(Core& core, GpuLane& lane);
bool srs_streaming(const GpuLane& lane);
GpuStats device_stats(const GpuLane& lane);
/// Supervisor work: a fresh clock anchor every few seconds; a health check that completes the stage
/// callbacks of a GPU whose context died (a sticky CUDA error never runs them), so the graph cannot hang.
void device_tick(Core& core, GpuLane& lane);

// ---- CUDA backend: stage bodies (h2d.cpp, ntt_cuda.cpp, msm_cuda.cpp, release_cuda.cpp, baseline_cuda.cpp)
// --

/// Binds the job to `slot` and enqueues a, b, c, z -> device on the copy stream; the completion comes back
/// through `gateway` from a host function.
void gpu_h2d(Core& core, GpuLane& lane, Work work, DeviceSlot* slot, Gateway& gateway);
/// After the copy: records its span, gives the pinned slot back to the pool and the token to the gate.
void gpu_unpin(Core& core, GpuLane& lane, JobState& job, std::vector<Token>& tokens);
/// H from a, b, c on the compute stream.
void gpu_ntt(Core& core, GpuLane& lane, Work work, Gateway& gateway);
/// The five MSMs on the compute stream, results copied into the device slot's pinned result buffer.
void gpu_msm(Core& core, GpuLane& lane, Work work, Gateway& gateway);
/// After the MSMs: records the spans, reads the results, returns the device slot (the device token).
DeviceSlot* gpu_done(Core& core, GpuLane& lane, JobState& job);
/// Baseline mode: H2D from pageable vectors + H + MSMs under the GPU's mutex, synchronously.
void gpu_baseline(Core& core, GpuLane& lane, JobState& job);

}  // namespace proofline::graph::detail
