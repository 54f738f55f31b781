// What the C handles stand for: a pipeline, a registered key, a job and its result, a verifying key.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <variant>
#include <vector>

#include <proofline.h>
#include <proofline/capi/detail/boundary.hpp>
#include <proofline/capi/detail/key_names.hpp>
#include <proofline/capi/detail/scalar_buffers.hpp>
#include <proofline/graph/pipeline.hpp>
#include <proofline/groth16/constraint_system.hpp>
#include <proofline/groth16/proving_key.hpp>
#include <proofline/groth16/verifying_key.hpp>

namespace proofline::capi {

/// A curve as the C ABI numbers it (pl_curve).
inline std::int32_t curve_code(CurveId curve) noexcept {
  return curve == CurveId::bn254 ? PL_CURVE_BN254 : PL_CURVE_BLS12_381;
}

/// Whether `code` is a pl_curve.
inline bool is_curve_code(std::int32_t code) noexcept {
  return code == PL_CURVE_BLS12_381 || code == PL_CURVE_BN254;
}

inline CurveId curve_of_code(std::int32_t code) noexcept {
  return code == PL_CURVE_BN254 ? CurveId::bn254 : CurveId::bls12_381;
}

struct Pipeline {
  explicit Pipeline(graph::Config config) : prover(std::move(config)) {}
  graph::Pipeline prover;
  /// pl_submit_scalars's copies of the callers' witnesses, in buffers used again.
  std::shared_ptr<ScalarBuffers> scalar_buffers = ScalarBuffers::make();
  KeyNames key_names;  ///< those of its keys, each its own
  /// Set (under the unique lock) before the prover shuts down. Unregistering a key takes the shared lock and
  /// skips a shut-down prover: its remove_key would start graph work that nothing waits for any more.
  std::shared_mutex lifecycle;
  bool shut_down = false;
  /// Set when pl_pipeline_shutdown or pl_pipeline_destroy begins, before either waits for anything (a key
  /// release holding `lifecycle`, jobs): from then on every submit and key registration is refused at once.
  std::atomic<bool> closing{false};
  std::atomic<bool> destroying{false};  ///< a pl_pipeline_destroy has begun: a second one is refused
  /// Tests only (empty otherwise): called by every submit between finding its key and handing the job to
  /// the prover, the window a racing pl_key_release falls into.
  std::function<void()> test_submit_window;
};

/// PL_ERR_SHUT_DOWN once a shutdown or destroy of `pipeline` has begun: it accepts nothing more.
inline void refuse_closing(const Pipeline& pipeline) {
  if (pipeline.closing.load())
    throw_status(
        PL_ERR_SHUT_DOWN,
        "the pipeline is shut down, or shutting down (pl_pipeline_shutdown or pl_pipeline_destroy was "
        "called): it accepts no more jobs or keys");
}

/// Set by pl_key_release before it unregisters the key, so that a submit which found the key before its
/// release says that it was released rather than passing on the prover's refusal of an unknown key.
struct ReleaseMark {
  std::atomic<bool> released{false};
  ReleaseMark() = default;
  ReleaseMark(ReleaseMark&&) noexcept {}  // a Key moves only before it is registered: never released yet
  ReleaseMark& operator=(ReleaseMark&&) = delete;
};

/// A key's parts on one curve.
template <class Curve>
struct CurveKey {
  std::shared_ptr<const groth16::BasicProvingKey<Curve>> pk;
  std::shared_ptr<const groth16::BasicConstraintSystem<Curve>> cs;
  std::shared_ptr<const groth16::BasicVerifyingKey<Curve>> vk;
};

/// A pl_key: BLS12-381 (native files, or a .zkey of curve bls12381) or BN254 (a .zkey of curve bn128).
struct Key {
  std::weak_ptr<Pipeline> pipeline;
  graph::KeyHandle handle;
  std::string name;
  std::variant<CurveKey<Bls12_381>, CurveKey<Bn254>> parts;
  std::vector<int> gpus;  ///< the CUDA devices it was placed on (empty: every GPU)
  ReleaseMark mark;

  CurveId curve() const noexcept { return parts.index() == 0 ? CurveId::bls12_381 : CurveId::bn254; }
  /// f(CurveKey<Curve>&) with the key's curve.
  template <class F>
  decltype(auto) visit(F&& f) const {
    return std::visit(std::forward<F>(f), parts);
  }
  std::uint64_t num_variables() const {
    return visit([](const auto& k) -> std::uint64_t { return k.pk->num_variables; });
  }
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
