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

/// A circuit's z, a, b, c as canonical scalars, and a proving-key file image that carries no verifying key.
struct KeyWithoutVk {
  std::vector<char> pk;
  WitnessVectors vectors;
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
  k.vectors = witness_vectors(circuit.cs, circuit.witness, keys.pk.domain_size());
  return k;
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
    const pl_status submitted =
        pl_submit_callback(pipeline, key, fill_vectors, const_cast<WitnessVectors*>(&k.vectors),
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
