// The pipeline's own record of a registered key and of a job in flight. The flow graph's messages are
// copyable handles to these (a JobState pointer); everything move-only a job holds (its pinned slot, budget
// charges, its use of a key's SRS on a GPU) lives here, owned by the pipeline, never by a message.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <proofline/arith/domain.hpp>
#include <proofline/devices/gpu_lane.hpp>
#include <proofline/devices/host_srs.hpp>
#include <proofline/groth16/constraint_system.hpp>
#include <proofline/groth16/prover.hpp>
#include <proofline/groth16/proving_key.hpp>
#include <proofline/groth16/verifier.hpp>
#include <proofline/groth16/verifying_key.hpp>
#include <proofline/memory/pinned_pool.hpp>
#include <proofline/memory/reservation.hpp>
#include <proofline/memory/residency.hpp>
#include <proofline/nodes/job.hpp>

namespace proofline::nodes {

struct KeyState {
  std::uint64_t id = 0;
  std::string name;
  std::shared_ptr<const groth16::ProvingKey> pk;
  std::shared_ptr<const groth16::ConstraintSystem> cs;
  std::shared_ptr<const groth16::VerifyingKey> vk;
  std::optional<groth16::PreparedVerifyingKey> pvk;
  /// Set when the SRS is streamed from host memory (CUDA backend): no GPU holds it in VRAM. Declared after
  /// pk, so it is unpinned before the points can go; jobs hold the key, so it outlives their MSMs.
  std::unique_ptr<const devices::HostSrs> host_srs;
  Domain domain = Domain::make(1, HConvention::generator7);
  /// Slot buffer sizes in bytes: a, b, c (domain) and z (variables).
  std::array<std::uint64_t, 4> slot_sizes{};
  std::uint64_t slot_bytes = 0;
  memory::ResidentHandle host;       ///< the host budget's charge for pk and cs while registered
  std::atomic<std::size_t> jobs{0};  ///< accepted and not yet retired
  bool removing = false;             ///< guarded by the pipeline's key lock

  /// The key as the GPUs know it.
  devices::GpuKey gpu_key() const { return {"key " + std::to_string(id), name, pk.get()}; }
};

enum class Phase : int {
  queued,     ///< in the job queue
  admitted,   ///< holds a token (its message is in the graph past admission)
  withdrawn,  ///< cancelled or timed out while queued: its result is out, its message is dropped at admission
};

/// One job, owned by the pipeline from submit() until its message leaves the graph. Fields without
/// synchronisation are touched only by the node that holds the job's message (one at a time, ordered by the
/// graph's task hand-offs); others touch only the atomics.
struct JobState : std::enable_shared_from_this<JobState> {
  JobId id = 0;
  std::uint64_t seq = 0;
  int priority = 0;
  std::string label;
  std::shared_ptr<KeyState> key;
  WitnessSource witness;
  std::function<void(const JobResult&)> on_result;
  std::promise<JobResult> promise;
  std::int64_t submit_ns = 0;
  std::int64_t admit_ns = 0;
  std::optional<std::chrono::steady_clock::time_point> deadline;
  std::chrono::milliseconds timeout{0};

  std::atomic<Phase> phase{Phase::queued};
  std::atomic<bool> delivered{false};  ///< the result is out (exactly once)
  std::atomic<bool> abandoned{false};  ///< timed out in flight: stages skip it, resources still come home
  std::atomic<Stage> stage{Stage::queue};

  std::optional<JobError> error;  ///< the first failure, set by the stage holding the message
  std::uint32_t token = 0;        ///< the admission token it holds (0: none)

  // Buffers: a pinned slot (pinned mode) or pageable vectors (baseline mode).
  memory::PinnedSlot* slot = nullptr;
  std::vector<Fr> heap_a, heap_b, heap_c, heap_z;
  memory::Reservation heap_charge;
  std::span<Fr> a, b, c, z;

  std::vector<Fr> publics;
  int gpu = -1;                                ///< index of its GPU among the pipeline's
  devices::DeviceSlot* device_slot = nullptr;  ///< while bound to a GPU
  memory::ResidentHandle gpu_key;              ///< the key's SRS in that GPU's memory, in use by this job
  groth16::MsmResults msm;
  std::optional<groth16::Proof> proof;
  bool witness_checked = false;  ///< synthesis checked every row (else release verifies the proof)
  bool verified = false;
  unsigned attempts = 1;  ///< proofs begun: more than one after a GPU went out of service under it
  JobResult result;  ///< written once, by whoever wins `delivered`; read by the sink

  bool skip() const noexcept { return error.has_value() || abandoned.load(std::memory_order_acquire); }
};

}  // namespace proofline::nodes
