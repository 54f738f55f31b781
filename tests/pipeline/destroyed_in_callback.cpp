// A Pipeline destroyed inside its own result callback would wait for that callback for ever: the process
// must stop with a message saying so (ctest checks the message and SIGABRT's exit status) instead of hanging.
#include <chrono>
#include <cstdio>
#include <memory>
#include <utility>
#include <vector>

#include <proofline/graph/pipeline.hpp>
#include <proofline/groth16/setup.hpp>
#include <proofline/groth16/synthetic.hpp>

int main() {
  using namespace proofline;
  groth16::SyntheticCircuit circuit = groth16::make_synthetic_circuit({.log_size = 6});
  groth16::KeyPair keys = groth16::setup_from_trapdoor(circuit.cs, groth16::trapdoor_from_seed(1));
  std::unique_ptr<graph::Pipeline> prover;
  graph::Config config{.backend = graph::Backend::cpu};
  config.on_result = [&prover](const graph::JobResult&) { prover.reset(); };
  prover = std::make_unique<graph::Pipeline>(std::move(config));
  const graph::KeyHandle key = prover->add_key({
      .name = "k",
      .pk = std::make_shared<const groth16::ProvingKey>(std::move(keys.pk)),
      .cs = std::make_shared<const groth16::ConstraintSystem>(std::move(circuit.cs)),
      .vk = std::make_shared<const groth16::VerifyingKey>(std::move(keys.vk)),
  });
  auto z = std::make_shared<const std::vector<Fr>>(std::move(circuit.witness));
  graph::Submission job = prover->submit({.key = key, .witness = graph::MemoryWitness{z}});
  if (job.result.wait_for(std::chrono::seconds(60)) == std::future_status::ready)
    std::puts("the job ended and the process went on");
  else
    std::puts("the callback hung");
  return 0;
}
