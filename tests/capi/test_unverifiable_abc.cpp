// A key without a verifying key and a witness callback that fills a, b and c: with check_witness on, those
// vectors are checked only through the proof, which this key cannot verify. The submit says so; before, every
// such job failed as PL_ERR_INTERNAL ("a bug in proofline"), the witness right or wrong.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include <proofline/groth16/native_file.hpp>
#include <proofline/groth16/setup.hpp>
#include <proofline/groth16/synthetic.hpp>

#include "capi_test_support.hpp"

namespace proofline::capi_test {

namespace {

std::vector<std::uint8_t> scalar_bytes(const std::vector<Fr>& values) {
  std::vector<std::uint8_t> bytes(values.size() * PL_SCALAR_BYTES);
  for (std::size_t i = 0; i < values.size(); ++i) values[i].to_bytes_le(bytes.data() + i * PL_SCALAR_BYTES);
  return bytes;
}

/// A circuit's z, a, b, c as canonical scalars, and a proving-key file image that carries no verifying key.
struct KeyWithoutVk {
  std::vector<char> pk;
  std::vector<std::uint8_t> z, a, b, c;
};

KeyWithoutVk key_without_vk() {
  const groth16::SyntheticCircuit circuit = groth16::make_synthetic_circuit({.log_size = 6, .num_public = 2});
  const groth16::KeyPair keys = groth16::setup_from_trapdoor(circuit.cs, groth16::trapdoor_from_seed(5));
  const std::filesystem::path file =
      std::filesystem::temp_directory_path() / ("proofline-capi-novk-" + std::to_string(::getpid()));
  groth16::write_proving_key(file, keys.pk, nullptr);
  KeyWithoutVk k;
  {
    std::ifstream in(file, std::ios::binary);
    k.pk.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  std::filesystem::remove(file);
  std::vector<Fr> a(keys.pk.domain_size()), b(a.size()), c(a.size());
  groth16::evaluate(circuit.cs, circuit.witness, a, b, c);
  k.z = scalar_bytes(circuit.witness);
  k.a = scalar_bytes(a), k.b = scalar_bytes(b), k.c = scalar_bytes(c);
  return k;
}

pl_status fill_all(pl_witness_target* target, void* user_data) {
  const auto* k = static_cast<const KeyWithoutVk*>(user_data);
  const std::pair<int, const std::vector<std::uint8_t>*> parts[] = {
      {PL_VECTOR_Z, &k->z}, {PL_VECTOR_A, &k->a}, {PL_VECTOR_B, &k->b}, {PL_VECTOR_C, &k->c}};
  for (const auto& [vector, bytes] : parts)
    if (pl_status s = pl_witness_write(target, vector, 0, bytes->data(), bytes->size() / PL_SCALAR_BYTES);
        s != PL_OK)
      return s;
  return PL_OK;
}

}  // namespace

TEST_CASE(
    "capi/unverifiable abc/a callback filling a b c for a key without a verifying key is refused at submit") {
  const KeyWithoutVk k = key_without_vk();
  for (const int check_witness : {1, 0}) {
    CAPTURE(check_witness);
    pl_config config = cpu_config();
    config.check_witness = check_witness;
    pl_pipeline* pipeline = nullptr;
    PL_REQUIRE_OK(pl_pipeline_create(&config, &pipeline));
    pl_key* key = nullptr;  // no constraint system: only callbacks that fill a, b and c prove with it
    PL_REQUIRE_OK(pl_key_add_native_memory(pipeline, k.pk.data(), k.pk.size(), nullptr, 0, nullptr, &key));
    pl_job* job = nullptr;
    const pl_status submitted = pl_submit_callback(pipeline, key, fill_all, const_cast<KeyWithoutVk*>(&k),
                                                   PL_FILLS_WITNESS_AND_ABC, nullptr, &job);
    if (check_witness) {
      CHECK(submitted == PL_ERR_INVALID_ARGUMENT);
      const std::string message = pl_last_error_message();
      CHECK_MESSAGE(message.find("no verifying key") != std::string::npos, message);
      CHECK_MESSAGE(message.find("check_witness") != std::string::npos, message);
      CHECK(job == nullptr);
    } else {  // nothing to check the vectors with, and nothing asked to: the job proves
      PL_REQUIRE_OK(submitted);
      PL_REQUIRE_OK(pl_job_wait(job, -1));
      PL_REQUIRE_OK(pl_job_outcome(job));
      PL_REQUIRE_OK(pl_job_release(job));
    }
    PL_REQUIRE_OK(pl_key_release(key));
    PL_REQUIRE_OK(pl_pipeline_destroy(pipeline));
  }
}

}  // namespace proofline::capi_test
