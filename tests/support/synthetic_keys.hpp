// A synthetic circuit with its keys made from a known trapdoor (tests and the soak program), on either curve:
// the constraint system, the proving and verifying keys, the prepared verifying key, and witnesses by seed.
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

template <class Curve>
struct BasicSyntheticKeys {
  using Fr = typename Curve::Fr;

  groth16::SyntheticOptions options;
  std::shared_ptr<const groth16::BasicConstraintSystem<Curve>> cs;
  std::shared_ptr<const groth16::BasicProvingKey<Curve>> pk;
  std::shared_ptr<const groth16::BasicVerifyingKey<Curve>> vk;
  groth16::BasicPreparedVerifyingKey<Curve> pvk;

  graph::BasicKeySpec<Curve> spec(std::string name, bool with_cs = true) const {
    return graph::BasicKeySpec<Curve>{std::move(name), pk, with_cs ? cs : nullptr, vk};
  }
  std::vector<Fr> witness(std::uint64_t seed) const { return groth16::synthetic_witness(*cs, options, seed); }
};
using SyntheticKeys = BasicSyntheticKeys<Bls12_381>;

/// A circuit of 2^log_size rows with two public inputs, from `circuit_seed`, keys from `trapdoor_seed`.
template <class Curve = Bls12_381>
std::unique_ptr<BasicSyntheticKeys<Curve>> make_synthetic_keys(
    unsigned log_size, std::uint64_t circuit_seed, std::uint64_t trapdoor_seed,
    HConvention convention = groth16::default_convention<Curve>()) {
  auto c = std::make_unique<BasicSyntheticKeys<Curve>>();
  c->options = groth16::SyntheticOptions{.log_size = log_size, .num_public = 2, .seed = circuit_seed};
  groth16::BasicSyntheticCircuit<Curve> made = groth16::make_synthetic_circuit<Curve>(c->options);
  groth16::BasicKeyPair<Curve> keys =
      groth16::setup_from_trapdoor(made.cs, groth16::trapdoor_from_seed<Curve>(trapdoor_seed),
                                   groth16::BasicSetupOptions<Curve>{.convention = convention});
  c->cs = std::make_shared<const groth16::BasicConstraintSystem<Curve>>(std::move(made.cs));
  c->pk = std::make_shared<const groth16::BasicProvingKey<Curve>>(std::move(keys.pk));
  c->pvk = groth16::prepare(keys.vk);
  c->vk = std::make_shared<const groth16::BasicVerifyingKey<Curve>>(std::move(keys.vk));
  return c;
}

}  // namespace proofline::test_support
