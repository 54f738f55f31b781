// A synthetic circuit with its keys made from a known trapdoor (tests and the soak program): the constraint
// system, the proving and verifying keys, the prepared verifying key, and witnesses by seed.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <proofline/graph/job.hpp>
#include <proofline/groth16/setup.hpp>
#include <proofline/groth16/synthetic.hpp>
#include <proofline/groth16/verifier.hpp>

namespace proofline::test_support {

struct SyntheticKeys {
  groth16::SyntheticOptions options;
  std::shared_ptr<const groth16::ConstraintSystem> cs;
  std::shared_ptr<const groth16::ProvingKey> pk;
  std::shared_ptr<const groth16::VerifyingKey> vk;
  groth16::PreparedVerifyingKey pvk;

  graph::KeySpec spec(std::string name, bool with_cs = true) const {
    return graph::KeySpec{std::move(name), pk, with_cs ? cs : nullptr, vk};
  }
  std::vector<Fr> witness(std::uint64_t seed) const { return groth16::synthetic_witness(*cs, options, seed); }
};

/// A circuit of 2^log_size rows with two public inputs, from `circuit_seed`, keys from `trapdoor_seed`.
inline std::unique_ptr<SyntheticKeys> make_synthetic_keys(unsigned log_size, std::uint64_t circuit_seed,
                                                          std::uint64_t trapdoor_seed,
                                                          HConvention convention = HConvention::generator7) {
  auto c = std::make_unique<SyntheticKeys>();
  c->options = groth16::SyntheticOptions{.log_size = log_size, .num_public = 2, .seed = circuit_seed};
  groth16::SyntheticCircuit made = groth16::make_synthetic_circuit(c->options);
  groth16::KeyPair keys = groth16::setup_from_trapdoor(made.cs, groth16::trapdoor_from_seed(trapdoor_seed),
                                                       groth16::SetupOptions{.convention = convention});
  c->cs = std::make_shared<const groth16::ConstraintSystem>(std::move(made.cs));
  c->pk = std::make_shared<const groth16::ProvingKey>(std::move(keys.pk));
  c->pvk = groth16::prepare(keys.vk);
  c->vk = std::make_shared<const groth16::VerifyingKey>(std::move(keys.vk));
  return c;
}

}  // namespace proofline::test_support
