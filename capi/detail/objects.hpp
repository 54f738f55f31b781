// What the C handles stand for: a pipeline, a registered key, a job and its result, a verifying key.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <variant>

#include <proofline.h>
#include <proofline/graph/pipeline.hpp>
#include <proofline/groth16/constraint_system.hpp>
#include <proofline/groth16/proving_key.hpp>
#include <proofline/groth16/verifying_key.hpp>

namespace proofline::capi {

struct Pipeline {
  explicit Pipeline(graph::Config config) : prover(std::move(config)) {}
  graph::Pipeline prover;
  std::atomic<std::uint64_t> keys_added{0};  ///< names "key-N" for keys registered without one
  /// Set (under the unique lock) before the prover shuts down. Unregistering a key takes the shared lock and
  /// skips a shut-down prover: its remove_key would start graph work that nothing waits for any more.
  std::shared_mutex lifecycle;
  bool shut_down = false;
};

struct Key {
  std::weak_ptr<Pipeline> pipeline;
  graph::KeyHandle handle;
  std::string name;
  std::shared_ptr<const groth16::ProvingKey> pk;
  std::shared_ptr<const groth16::ConstraintSystem> cs;
  std::shared_ptr<const groth16::VerifyingKey> vk;
};

/// A verifying key of one curve and its prepared form.
template <class Curve>
struct CurveVk {
  std::shared_ptr<const groth16::BasicVerifyingKey<Curve>> vk;
  groth16::BasicPreparedVerifyingKey<Curve> prepared;
};

/// A pl_vk: BLS12-381 (from a key, or snarkjs JSON of curve bls12381) or BN254 (snarkjs JSON of curve bn128).
struct Vk {
  std::variant<CurveVk<Bls12_381>, CurveVk<Bn254>> key;
};

/// A submitted job. The result is written once, before `ready`; after that it is read without the lock.
struct Job {
  std::uint64_t handle = 0;
  pl_completion_fn on_complete = nullptr;
  void* user_data = nullptr;
  std::atomic<graph::JobId> id{0};
  std::weak_ptr<Pipeline> pipeline;

  std::atomic<bool> ready{false};
  graph::JobResult result;

  std::mutex mutex;
  std::condition_variable completed_cv;
  bool completed = false;  ///< ready, and the completion callback has returned
};

}  // namespace proofline::capi
