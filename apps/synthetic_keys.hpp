// What every --mode run of batch_prove's synthetic workload shares: the circuit and its known-trapdoor keys
// on the curve --curve names, the presynthesized jobs (--presynthesize, MODE:pre) and the H2D probe's rates
// (--h2d-probe).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include <proofline/arith/curves.hpp>
#include <proofline/graph/config.hpp>
#include <proofline/groth16/constraint_system.hpp>
#include <proofline/groth16/proving_key.hpp>
#include <proofline/groth16/synthetic.hpp>
#include <proofline/groth16/verifying_key.hpp>

#include "batch_options.hpp"
#include "h2d_probe.hpp"

namespace proofline::apps {

/// One job's z, a, b, c made before the timed batch.
template <class Curve>
struct Presynthesized {
  std::vector<typename Curve::Fr> z, a, b, c;
};

template <class Curve>
struct SyntheticSetup {
  groth16::SyntheticOptions circuit_options;
  std::shared_ptr<const groth16::BasicConstraintSystem<Curve>> cs;
  std::shared_ptr<const groth16::BasicProvingKey<Curve>> pk;
  std::shared_ptr<const groth16::BasicVerifyingKey<Curve>> vk;
  bool loaded = false;  ///< the keys came from --key-cache
  double setup_s = 0;
  std::vector<std::shared_ptr<const Presynthesized<Curve>>> presynthesized;
  double presynthesis_s = 0;
  std::optional<H2dProbeResult> probe;
  std::size_t probe_load_jobs = 0;
};

/// Makes the keys (on the GPU with the CUDA backend and BLS12-381), the presynthesized jobs when a run wants
/// them, and the H2D probe when asked for, for a pipeline built from `config` on `backend`.
template <class Curve>
SyntheticSetup<Curve> make_synthetic_setup(const BatchOptions& options, const graph::Config& config,
                                           graph::Backend backend);

/// The witness seed of job `index`.
std::uint64_t witness_seed(const BatchOptions& options, std::uint64_t index);

}  // namespace proofline::apps
