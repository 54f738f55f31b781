#include "capi_test_support.hpp"

#include <chrono>
#include <thread>

#include <proofline/groth16/wtns.hpp>

namespace proofline::capi_test {

std::string fixture(const std::string& file) {
  return std::string(PROOFLINE_SNARKJS_FIXTURES_DIR) + "/chain_16/" + file;
}

WitnessVectors witness_vectors(const groth16::ConstraintSystem& cs, const std::vector<Fr>& witness,
                               std::size_t domain_size) {
  const auto scalar_bytes = [](const std::vector<Fr>& values) {
    std::vector<std::uint8_t> bytes(values.size() * PL_SCALAR_BYTES);
    for (std::size_t i = 0; i < values.size(); ++i) values[i].to_bytes_le(bytes.data() + i * PL_SCALAR_BYTES);
    return bytes;
  };
  std::vector<Fr> a(domain_size), b(domain_size), c(domain_size);
  groth16::evaluate(cs, witness, a, b, c);
  return {scalar_bytes(witness), scalar_bytes(a), scalar_bytes(b), scalar_bytes(c)};
}

pl_status fill_vectors(pl_witness_target* target, void* user_data) {
  const auto* v = static_cast<const WitnessVectors*>(user_data);
  const std::pair<int, const std::vector<std::uint8_t>*> parts[] = {
      {PL_VECTOR_Z, &v->z}, {PL_VECTOR_A, &v->a}, {PL_VECTOR_B, &v->b}, {PL_VECTOR_C, &v->c}};
  for (const auto& [vector, bytes] : parts)
    if (pl_status s = pl_witness_write(target, vector, 0, bytes->data(), bytes->size() / PL_SCALAR_BYTES);
        s != PL_OK)
      return s;
  return PL_OK;
}

pl_config cpu_config() {
  pl_set_log_level(PL_LOG_WARN);  // one line per pipeline and key would drown the failures
  pl_config config;
  REQUIRE(pl_config_default(&config, sizeof config) == PL_OK);
  config.backend = PL_BACKEND_CPU;
  config.host_budget_bytes = std::uint64_t{1} << 30;
  config.max_threads = 2;
  return config;
}

Scalars fixture_scalars() {
  const std::vector<Fr> z = groth16::read_wtns(fixture("witness.wtns"));
  Scalars s;
  s.count = z.size();
  s.bytes.resize(z.size() * PL_SCALAR_BYTES);
  for (std::size_t i = 0; i < z.size(); ++i) z[i].to_bytes_le(s.bytes.data() + i * PL_SCALAR_BYTES);
  return s;
}

void Gate::release() {
  {
    std::lock_guard lock(mutex);
    open = true;
  }
  cv.notify_all();
}

void Gate::wait_entered() const {
  while (!entered) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

pl_status gated_fill(pl_witness_target* target, void* user_data) {
  auto* gate = static_cast<Gate*>(user_data);
  gate->entered = true;
  std::unique_lock lock(gate->mutex);
  gate->cv.wait(lock, [&] { return gate->open; });
  return pl_witness_write(target, PL_VECTOR_Z, 0, gate->scalars.bytes.data(), gate->scalars.count);
}

Prover::Prover(const pl_config& config) {
  PL_REQUIRE_OK(pl_pipeline_create(&config, &pipeline));
  PL_REQUIRE_OK(pl_key_add_zkey_file(pipeline, fixture("circuit_final.zkey").c_str(), nullptr, &key));
  PL_REQUIRE_OK(pl_vk_load_json_file(fixture("verification_key.json").c_str(), &vk));
}

Prover::~Prover() {
  pl_vk_release(vk);
  pl_key_release(key);
  pl_pipeline_destroy(pipeline);
}

bool proof_verifies(pl_job* job, const pl_vk* vk) {
  std::uint8_t proof[PL_PROOF_BYTES];
  std::uint8_t inputs[4 * PL_SCALAR_BYTES];
  std::size_t count = 0;
  if (pl_job_proof(job, proof, sizeof proof) != PL_OK) return false;
  if (pl_job_public_inputs(job, inputs, sizeof inputs, &count) != PL_OK) return false;
  if (pl_verify(vk, proof, sizeof proof, inputs, count) != PL_OK) return false;
  char proof_json[4096], public_json[1024];
  if (pl_job_proof_json(job, proof_json, sizeof proof_json, nullptr) != PL_OK) return false;
  if (pl_job_public_json(job, public_json, sizeof public_json, nullptr) != PL_OK) return false;
  return pl_verify_json(vk, proof_json, public_json) == PL_OK;
}

}  // namespace proofline::capi_test
