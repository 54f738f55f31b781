// What goes into a Pipeline (keys, jobs and their witness sources) and what comes out (one JobResult per
// job: a proof or an error). The witness sources and the result are the stage bodies' vocabulary
// (nodes/job.hpp), named here for the pipeline's users.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <proofline/graph/config.hpp>
#include <proofline/groth16/fwd.hpp>
#include <proofline/nodes/job.hpp>

namespace proofline::groth16 {
class SubgroupTester;
}  // namespace proofline::groth16

namespace proofline::graph {

using nodes::CheckedSpan;
using nodes::JobError;
using nodes::JobId;
using nodes::JobResult;
using nodes::MemoryWitness;
using nodes::WitnessCallback;
using nodes::WitnessSource;
using nodes::WitnessTarget;
using nodes::WtnsFile;
using nodes::WtnsImage;

/// A registered key (Pipeline::add_key). Plain value; 0 is "no key".
class KeyHandle {
 public:
  KeyHandle() = default;
  explicit KeyHandle(std::uint64_t id) noexcept : id_(id) {}
  std::uint64_t id() const noexcept { return id_; }
  explicit operator bool() const noexcept { return id_ != 0; }
  friend bool operator==(KeyHandle, KeyHandle) = default;

 private:
  std::uint64_t id_ = 0;
};

/// A key to register, on either curve: the proving key (SRS), the constraint system (PCE) and the verifying
/// key. The pipeline shares ownership and charges their bytes to the host budget for as long as the key is
/// registered. KeySpec is BLS12-381's; BasicKeySpec<Bn254> registers a BN254 (bn128) key.
template <class Curve>
struct BasicKeySpec {
  std::string name{};  ///< unique among registered keys; appears in logs and errors
  std::shared_ptr<const groth16::BasicProvingKey<Curve>> pk{};
  /// Needed by every witness source except a WitnessCallback that fills a, b and c itself.
  std::shared_ptr<const groth16::BasicConstraintSystem<Curve>> cs{};
  /// Needed when Config::verify is set.
  std::shared_ptr<const groth16::BasicVerifyingKey<Curve>> vk{};
  /// The CUDA devices (among Config::gpus) that hold its SRS and prove its jobs; empty: every GPU. With
  /// two keys on two GPUs, one key on each keeps both resident and routes every job to its key's GPU.
  /// Needs the CUDA backend.
  std::vector<int> gpus{};
};

/// For reading a key that a pipeline made from `config` will prove with: the tester that runs the full
/// check's subgroup tests (groth16::KeyCheckOptions::tester) on the first GPU that pipeline may use, or null
/// for Backend::cpu and where no GPU is usable (the readers then check on the CPU).
std::shared_ptr<const groth16::SubgroupTester> subgroup_tester_for(const Config& config);

using KeySpec = BasicKeySpec<Bls12_381>;

struct Job {
  KeyHandle key{};
  WitnessSource witness{};
  int priority = 0;     ///< higher is admitted first; equal priorities in submission order
  std::string label{};  ///< carried into the result, logs and errors
  /// Overrides Config::job_timeout for this job (0: no limit).
  std::optional<std::chrono::milliseconds> timeout{};
  /// Called with this job's result (before Config::on_result), on a pipeline thread.
  std::function<void(const JobResult&)> on_result{};
};

/// An accepted job: its id (for cancel) and its result, exactly once.
struct Submission {
  JobId id = 0;
  std::future<JobResult> result{};
};

}  // namespace proofline::graph
