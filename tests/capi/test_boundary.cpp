// The C ABI's boundary: versions, handles (NULL, foreign, released, of another type), versioned struct sizes,
// bad arguments and files, output buffers, and verification's verdicts. Every failure is a code and a
// message, never a crash.
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstddef>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include <proofline/capi/detail/boundary.hpp>
#include <proofline/capi/detail/config.hpp>
#include <proofline/capi/detail/gpu_stats.hpp>

#include "capi_test_support.hpp"

namespace proofline::capi_test {

namespace {

std::vector<char> file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

pl_job* proved_job(const Prover& p) {
  pl_job* job = nullptr;
  const std::string wtns = fixture("witness.wtns");
  PL_REQUIRE_OK(pl_submit_wtns(p.pipeline, p.key, wtns.c_str(), nullptr, &job));
  PL_REQUIRE_OK(pl_job_wait(job, -1));
  PL_REQUIRE_OK(pl_job_outcome(job));
  return job;
}

}  // namespace

TEST_CASE("capi/boundary/versions match the header") {
  CHECK(pl_abi_version() == PL_ABI_VERSION);
  const std::string expected = std::to_string(PL_VERSION_MAJOR) + "." + std::to_string(PL_VERSION_MINOR) +
                               "." + std::to_string(PL_VERSION_PATCH);
  CHECK(std::string(pl_version()) == expected);
  CHECK(std::string(pl_status_name(PL_ERR_IN_CALLBACK)) == "PL_ERR_IN_CALLBACK");
  CHECK(std::string(pl_status_name(static_cast<pl_status>(999))) == "PL_UNKNOWN");
}

TEST_CASE("capi/boundary/null foreign released and mistyped handles return a code") {
  CHECK(pl_pipeline_destroy(nullptr) == PL_ERR_INVALID_HANDLE);
  CHECK(std::string(pl_last_error_message()).find("pipeline is NULL") != std::string::npos);
  CHECK(pl_job_poll(reinterpret_cast<pl_job*>(0x1234)) == PL_ERR_INVALID_HANDLE);
  int local = 0;
  CHECK(pl_job_release(reinterpret_cast<pl_job*>(&local)) == PL_ERR_INVALID_HANDLE);
  CHECK(pl_vk_release(nullptr) == PL_ERR_INVALID_HANDLE);

  Prover p;
  // A key handle is not a job handle, nor a pipeline handle.
  CHECK(pl_job_poll(reinterpret_cast<pl_job*>(p.key)) == PL_ERR_INVALID_HANDLE);
  CHECK(pl_pipeline_drain(reinterpret_cast<pl_pipeline*>(p.key)) == PL_ERR_INVALID_HANDLE);

  pl_job* job = proved_job(p);
  PL_REQUIRE_OK(pl_job_release(job));
  // Use after release: every accessor refuses, twice-released too.
  CHECK(pl_job_release(job) == PL_ERR_INVALID_HANDLE);
  CHECK(pl_job_outcome(job) == PL_ERR_INVALID_HANDLE);
  std::uint8_t proof[PL_PROOF_BYTES];
  CHECK(pl_job_proof(job, proof, sizeof proof) == PL_ERR_INVALID_HANDLE);
  CHECK(std::string(pl_last_error_message()).find("not a live handle") != std::string::npos);

  pl_pipeline* destroyed = nullptr;
  const pl_config config = cpu_config();
  PL_REQUIRE_OK(pl_pipeline_create(&config, &destroyed));
  PL_REQUIRE_OK(pl_pipeline_destroy(destroyed));
  CHECK(pl_pipeline_destroy(destroyed) == PL_ERR_INVALID_HANDLE);
  pl_stats stats{};
  stats.size = sizeof stats;
  CHECK(pl_pipeline_stats(destroyed, &stats) == PL_ERR_INVALID_HANDLE);
}

TEST_CASE("capi/boundary/NULL out pointers and arguments are refused") {
  CHECK(pl_pipeline_create(nullptr, nullptr) == PL_ERR_NULL_POINTER);
  CHECK(pl_config_default(nullptr, sizeof(pl_config)) == PL_ERR_NULL_POINTER);
  Prover p;
  pl_key* key = nullptr;
  CHECK(pl_key_add_zkey_file(p.pipeline, nullptr, nullptr, &key) == PL_ERR_NULL_POINTER);
  CHECK(std::string(pl_last_error_message()) == "pl_key_add_zkey_file: path is NULL");
  pl_job* job = nullptr;
  CHECK(pl_submit_wtns(p.pipeline, p.key, nullptr, nullptr, &job) == PL_ERR_NULL_POINTER);
  CHECK(pl_submit_scalars(p.pipeline, p.key, nullptr, 19, nullptr, &job) == PL_ERR_NULL_POINTER);
  CHECK(pl_submit_callback(p.pipeline, p.key, nullptr, nullptr, PL_FILLS_WITNESS, nullptr, &job) ==
        PL_ERR_NULL_POINTER);
  CHECK(job == nullptr);
}

TEST_CASE("capi/boundary/versioned structs: older sizes take defaults unknown sizes are refused") {
  pl_config config;
  CHECK(pl_config_default(&config, sizeof config + 8) == PL_ERR_STRUCT_SIZE);
  CHECK(pl_config_default(&config, 2) == PL_ERR_STRUCT_SIZE);

  // An older caller's struct ends before host_budget_bytes: only the size and the fields before it are
  // written, and the pipeline takes defaults for the rest.
  struct OlderConfig {
    pl_config head;
    std::uint64_t sentinel;
  } older;
  std::memset(&older, 0xAB, sizeof older);
  const std::size_t older_size = offsetof(pl_config, host_budget_bytes);
  PL_REQUIRE_OK(pl_config_default(&older.head, older_size));
  CHECK(older.head.size == older_size);
  CHECK(older.head.backend == PL_BACKEND_AUTO);
  CHECK(older.head.host_budget_bytes == 0xABABABABABABABABull);  // past the size: untouched
  older.head.backend = PL_BACKEND_CPU;
  pl_pipeline* pipeline = nullptr;
  PL_REQUIRE_OK(pl_pipeline_create(&older.head, &pipeline));

  pl_stats stats;
  std::memset(&stats, 0xCD, sizeof stats);
  stats.size = offsetof(pl_stats, submitted) + sizeof stats.submitted;
  PL_REQUIRE_OK(pl_pipeline_stats(pipeline, &stats));
  CHECK(stats.backend == PL_BACKEND_CPU);
  CHECK(stats.submitted == 0);
  CHECK(stats.proofs == 0xCDCDCDCDCDCDCDCDull);  // not written past the caller's size
  stats.size = sizeof stats + 16;
  CHECK(pl_pipeline_stats(pipeline, &stats) == PL_ERR_STRUCT_SIZE);
  PL_REQUIRE_OK(pl_pipeline_destroy(pipeline));

  config = cpu_config();
  config.size = sizeof config + 8;
  CHECK(pl_pipeline_create(&config, &pipeline) == PL_ERR_STRUCT_SIZE);
  CHECK(std::string(pl_last_error_message()).find("config->size") != std::string::npos);
  CHECK(pipeline == nullptr);

  pl_job_options options{};
  options.size = 3;
  Prover p;
  pl_job* job = nullptr;
  CHECK(pl_submit_wtns(p.pipeline, p.key, fixture("witness.wtns").c_str(), &options, &job) ==
        PL_ERR_STRUCT_SIZE);
}

TEST_CASE("capi/boundary/keys_take_turns defaults off, reaches the config, and is off for older sizes") {
  pl_config config;
  PL_REQUIRE_OK(pl_config_default(&config, sizeof config));
  CHECK(config.keys_take_turns == 0);
  CHECK_FALSE(capi::to_graph_config(&config).keys_take_turns);
  config.keys_take_turns = 1;
  CHECK(capi::to_graph_config(&config).keys_take_turns);
  config.size = offsetof(pl_config, keys_take_turns);
  CHECK_FALSE(capi::to_graph_config(&config).keys_take_turns);
}

TEST_CASE(
    "capi/boundary/the GPU memory fields default on, take older sizes' defaults, and reach the config") {
  pl_config config;
  PL_REQUIRE_OK(pl_config_default(&config, sizeof config));
  CHECK(config.gpu_evaluate == 1);
  CHECK(config.msm_tables == 1);
  CHECK(config.msm_table_bits == 0);
  config.gpu_evaluate = 0;
  config.msm_tables = 0;
  config.msm_table_bits = 17;
  graph::Config g = capi::to_graph_config(&config);
  CHECK_FALSE(g.gpu_evaluate);
  CHECK_FALSE(g.msm_tables);
  CHECK(g.msm_table_bits == 17);
  // A caller built before these fields: whatever lies past its size, the defaults.
  config.size = offsetof(pl_config, gpu_evaluate);
  g = capi::to_graph_config(&config);
  CHECK(g.gpu_evaluate);
  CHECK(g.msm_tables);
  CHECK(g.msm_table_bits == 0);

  config = cpu_config();
  config.msm_table_bits = 40;
  pl_pipeline* pipeline = nullptr;
  CHECK(pl_pipeline_create(&config, &pipeline) == PL_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(std::string(pl_last_error_message()).find("msm_table_bits 40") != std::string::npos,
                pl_last_error_message());
  CHECK(pipeline == nullptr);
}

TEST_CASE(
    "capi/boundary/per-GPU stats: fields within the caller's size, an index past the last GPU refused") {
  Prover p;  // the CPU backend: no GPU
  pl_gpu_stats stats;
  std::memset(&stats, 0, sizeof stats);
  stats.size = sizeof stats;
  CHECK(pl_pipeline_gpu_stats(p.pipeline, 0, &stats) == PL_ERR_INVALID_ARGUMENT);
  CHECK_MESSAGE(std::string(pl_last_error_message()).find("the pipeline has 0 GPUs (the CPU backend)") !=
                    std::string::npos,
                pl_last_error_message());
  CHECK(pl_pipeline_gpu_stats(p.pipeline, 0, nullptr) == PL_ERR_NULL_POINTER);

  // Two GPUs' stats as a CUDA pipeline reports them.
  graph::PipelineStats all;
  for (const int device : {3, 5}) {
    graph::GpuStats g;
    g.device = device;
    g.healthy = device == 3;
    g.jobs = 10 + device;
    g.device_slots = 3;
    g.device_slots_in_use = 1;
    g.vram.total = 132ull << 30;
    g.vram.used = 120ull << 30;
    g.vram.high_water = 121ull << 30;
    g.keys.entries = 2;
    g.keys.loads = 4;
    g.keys.evictions = 1;
    g.msm_tables = 5;
    g.msm_table_bytes = 99ull << 30;
    g.srs_stream_bytes = 7;
    all.gpus.push_back(g);
  }
  capi::fill_gpu_stats_of(all, 1, &stats);
  CHECK(stats.device == 5);
  CHECK(stats.healthy == 0);
  CHECK(stats.jobs == 15);
  CHECK(stats.device_slots == 3);
  CHECK(stats.device_slots_in_use == 1);
  CHECK(stats.vram_budget == 132ull << 30);
  CHECK(stats.vram_used == 120ull << 30);
  CHECK(stats.vram_high_water == 121ull << 30);
  CHECK(stats.keys_resident == 2);
  CHECK(stats.key_loads == 4);
  CHECK(stats.key_evictions == 1);
  CHECK(stats.msm_tables == 5);
  CHECK(stats.msm_table_bytes == 99ull << 30);
  CHECK(stats.srs_stream_bytes == 7);
  // An older caller's struct ends after jobs: nothing past it is written.
  std::memset(&stats, 0xEE, sizeof stats);
  stats.size = offsetof(pl_gpu_stats, jobs) + sizeof stats.jobs;
  capi::fill_gpu_stats_of(all, 0, &stats);
  CHECK(stats.device == 3);
  CHECK(stats.healthy == 1);
  CHECK(stats.jobs == 13);
  CHECK(stats.device_slots == 0xEEEEEEEEEEEEEEEEull);
  stats.size = sizeof stats + 8;
  CHECK_THROWS_AS(capi::fill_gpu_stats_of(all, 0, &stats), capi::StatusError);
  stats.size = sizeof stats;
  CHECK_THROWS_AS(capi::fill_gpu_stats_of(all, 2, &stats), capi::StatusError);
}

TEST_CASE("capi/boundary/out-of-range options name the field") {
  pl_config config = cpu_config();
  config.backend = 7;
  pl_pipeline* pipeline = nullptr;
  CHECK(pl_pipeline_create(&config, &pipeline) == PL_ERR_INVALID_ARGUMENT);
  CHECK(std::string(pl_last_error_message()).find("config->backend = 7") != std::string::npos);
  config = cpu_config();
  config.queue_capacity = 0;
  CHECK(pl_pipeline_create(&config, &pipeline) == PL_ERR_INVALID_ARGUMENT);
  config = cpu_config();
  config.num_gpus = 2;
  CHECK(pl_pipeline_create(&config, &pipeline) == PL_ERR_NULL_POINTER);

  Prover p;
  CHECK(pl_pipeline_shutdown(p.pipeline, 5) == PL_ERR_INVALID_ARGUMENT);
  pl_job_options options{};
  options.size = sizeof options;
  options.flags = 0x80;
  pl_job* job = nullptr;
  CHECK(pl_submit_wtns(p.pipeline, p.key, fixture("witness.wtns").c_str(), &options, &job) ==
        PL_ERR_INVALID_ARGUMENT);
  const Scalars s = fixture_scalars();
  CHECK(pl_submit_scalars(p.pipeline, p.key, s.bytes.data(), s.count - 1, nullptr, &job) ==
        PL_ERR_INVALID_ARGUMENT);
  CHECK(std::string(pl_last_error_message()).find("the key has 19 variables") != std::string::npos);
}

TEST_CASE("capi/boundary/a key placed on GPUs the pipeline lacks is PL_ERR_INVALID_ARGUMENT naming them") {
  Prover p;  // the CPU backend: no GPU to place a key on
  const std::string zkey = fixture("circuit_final.zkey");
  const std::int32_t gpus[] = {0};
  pl_key_options options{sizeof(pl_key_options), "placed", PL_POINTS_ON_CURVE, gpus, 1};
  pl_key* key = nullptr;
  CHECK(pl_key_add_zkey_file(p.pipeline, zkey.c_str(), &options, &key) == PL_ERR_INVALID_ARGUMENT);
  CHECK(
      std::string(pl_last_error_message()).find("placed on GPUs, but the pipeline runs on the cpu backend") !=
      std::string::npos);
  CHECK(key == nullptr);
  options.gpus = nullptr;
  CHECK(pl_key_add_zkey_file(p.pipeline, zkey.c_str(), &options, &key) == PL_ERR_NULL_POINTER);
  CHECK(std::string(pl_last_error_message()).find("options->gpus") != std::string::npos);
  // No GPUs named: every GPU (here none), as before the field existed.
  options.num_gpus = 0;
  PL_REQUIRE_OK(pl_key_add_zkey_file(p.pipeline, zkey.c_str(), &options, &key));
  PL_REQUIRE_OK(pl_key_release(key));
}

TEST_CASE("capi/boundary/a bad key file or image is PL_ERR_BAD_INPUT naming it") {
  Prover p;
  pl_key* key = nullptr;
  const std::string not_a_key = fixture("verification_key.json");
  CHECK(pl_key_add_zkey_file(p.pipeline, not_a_key.c_str(), nullptr, &key) == PL_ERR_BAD_INPUT);
  CHECK(std::string(pl_last_error_message()).find("verification_key.json") != std::string::npos);
  CHECK(key == nullptr);
  CHECK(pl_key_add_zkey_file(p.pipeline, "/nonexistent/k.zkey", nullptr, &key) == PL_ERR_BAD_INPUT);
  CHECK(std::string(pl_last_error_message()).find("/nonexistent/k.zkey") != std::string::npos);
  // A name longer than any the file system takes names no file either.
  const std::string too_long = "/tmp/" + std::string(5000, 'k') + ".zkey";
  CHECK(pl_key_add_zkey_file(p.pipeline, too_long.c_str(), nullptr, &key) == PL_ERR_BAD_INPUT);
  CHECK(std::string(pl_last_error_message()).find("File name too long") != std::string::npos);
  CHECK(pl_key_add_native_files(p.pipeline, not_a_key.c_str(), nullptr, nullptr, nullptr, &key) ==
        PL_ERR_BAD_INPUT);

  const std::vector<char> zkey = file_bytes(fixture("circuit_final.zkey"));
  CHECK(pl_key_add_zkey_memory(p.pipeline, zkey.data(), zkey.size() / 2, nullptr, &key) == PL_ERR_BAD_INPUT);
  CHECK(pl_key_add_native_memory(p.pipeline, zkey.data(), zkey.size(), nullptr, 0, nullptr, &key) ==
        PL_ERR_BAD_INPUT);
  // The whole image registers (under a name of its own: the file's key is registered already).
  pl_key_options options{sizeof(pl_key_options), "from-memory", PL_POINTS_ON_CURVE};
  PL_REQUIRE_OK(pl_key_add_zkey_memory(p.pipeline, zkey.data(), zkey.size(), &options, &key));
  // The same name twice is refused.
  pl_key* again = nullptr;
  CHECK(pl_key_add_zkey_memory(p.pipeline, zkey.data(), zkey.size(), &options, &again) ==
        PL_ERR_INVALID_ARGUMENT);
  std::uint64_t variables = 0, publics = 0, domain = 0;
  PL_REQUIRE_OK(pl_key_sizes(key, &variables, &publics, &domain));
  CHECK(variables == 19);
  CHECK(publics == 2);
  CHECK(domain == 32);
  PL_REQUIRE_OK(pl_key_release(key));
}

TEST_CASE("capi/boundary/a key of another pipeline is refused") {
  Prover a, b;
  pl_job* job = nullptr;
  CHECK(pl_submit_wtns(a.pipeline, b.key, fixture("witness.wtns").c_str(), nullptr, &job) ==
        PL_ERR_INVALID_ARGUMENT);
  CHECK(std::string(pl_last_error_message()).find("another pipeline") != std::string::npos);
}

TEST_CASE("capi/boundary/output buffers: sizes first too small is a code") {
  Prover p;
  pl_job* job = proved_job(p);
  std::uint8_t small[PL_PROOF_BYTES - 1];
  CHECK(pl_job_proof(job, small, sizeof small) == PL_ERR_BUFFER_TOO_SMALL);
  // A NULL out holds 0 bytes, whatever length says: every output answers it alike.
  CHECK(pl_job_proof(job, nullptr, PL_PROOF_BYTES) == PL_ERR_BUFFER_TOO_SMALL);
  std::size_t needed = 0;
  CHECK(pl_job_proof_uncompressed(job, nullptr, 4096, &needed) == PL_ERR_BUFFER_TOO_SMALL);
  CHECK(needed == PL_PROOF_UNCOMPRESSED_BYTES_BLS12_381);
  CHECK(pl_job_public_inputs(job, nullptr, 4096, nullptr) == PL_ERR_BUFFER_TOO_SMALL);
  CHECK(pl_job_proof_json(job, nullptr, 4096, &needed) == PL_ERR_BUFFER_TOO_SMALL);
  CHECK(pl_job_proof_json(job, nullptr, 0, &needed) == PL_ERR_BUFFER_TOO_SMALL);
  std::vector<char> text(needed);
  CHECK(pl_job_proof_json(job, text.data(), needed - 1, nullptr) == PL_ERR_BUFFER_TOO_SMALL);
  PL_REQUIRE_OK(pl_job_proof_json(job, text.data(), needed, nullptr));
  CHECK(std::strlen(text.data()) == needed - 1);
  CHECK(std::string(text.data()).find("\"protocol\": \"groth16\"") != std::string::npos);
  std::size_t count = 0;
  CHECK(pl_job_public_inputs(job, nullptr, 0, &count) == PL_ERR_BUFFER_TOO_SMALL);
  CHECK(count == 2);
  PL_REQUIRE_OK(pl_job_release(job));
}

TEST_CASE("capi/boundary/verification: valid tampered wrong inputs bad text") {
  Prover p;
  pl_job* job = proved_job(p);
  std::uint8_t proof[PL_PROOF_BYTES], inputs[2 * PL_SCALAR_BYTES];
  std::size_t count = 0;
  PL_REQUIRE_OK(pl_job_proof(job, proof, sizeof proof));
  PL_REQUIRE_OK(pl_job_public_inputs(job, inputs, sizeof inputs, &count));
  PL_REQUIRE_OK(pl_verify(p.vk, proof, sizeof proof, inputs, count));
  CHECK(proof_verifies(job, p.vk));

  // The key's own verifying key agrees with snarkjs's file, and round-trips through JSON.
  pl_vk* key_vk = nullptr;
  PL_REQUIRE_OK(pl_key_verifying_key(p.key, &key_vk));
  PL_REQUIRE_OK(pl_verify(key_vk, proof, sizeof proof, inputs, count));
  std::size_t needed = 0;
  CHECK(pl_vk_to_json(key_vk, nullptr, 0, &needed) == PL_ERR_BUFFER_TOO_SMALL);
  std::vector<char> vk_text(needed);
  PL_REQUIRE_OK(pl_vk_to_json(key_vk, vk_text.data(), vk_text.size(), nullptr));
  pl_vk* reread = nullptr;
  PL_REQUIRE_OK(pl_vk_load_json(vk_text.data(), needed - 1, &reread));
  PL_REQUIRE_OK(pl_verify(reread, proof, sizeof proof, inputs, count));

  inputs[0] ^= 1;
  CHECK(pl_verify(p.vk, proof, sizeof proof, inputs, count) == PL_ERR_PROOF_INVALID);
  CHECK(std::string(pl_last_error_message()).find("pairing") != std::string::npos);
  inputs[0] ^= 1;
  CHECK(pl_verify(p.vk, proof, sizeof proof, inputs, 1) == PL_ERR_PROOF_INVALID);
  CHECK(std::string(pl_last_error_message()).find("1 given, the key expects 2") != std::string::npos);
  proof[10] ^= 0x40;
  CHECK(pl_verify(p.vk, proof, sizeof proof, inputs, count) == PL_ERR_PROOF_INVALID);
  CHECK(pl_verify(p.vk, proof, 191, inputs, count) == PL_ERR_INVALID_ARGUMENT);
  std::memset(inputs, 0xFF, PL_SCALAR_BYTES);
  CHECK(pl_verify(p.vk, proof, sizeof proof, inputs, count) == PL_ERR_BAD_INPUT);

  CHECK(pl_verify_json(p.vk, "{not json", "[]") == PL_ERR_BAD_INPUT);
  PL_REQUIRE_OK(pl_vk_release(reread));
  pl_vk* bad = nullptr;
  CHECK(pl_vk_load_json("[]", 2, &bad) == PL_ERR_BAD_INPUT);
  CHECK(bad == nullptr);
  PL_REQUIRE_OK(pl_vk_release(key_vk));
  PL_REQUIRE_OK(pl_job_release(job));
}

}  // namespace proofline::capi_test

namespace proofline::capi_test {

TEST_CASE("capi/boundary/verification: a bn128 key from snarkjs judges snarkjs's bn128 proofs") {
  const std::string dir = std::string(PROOFLINE_SNARKJS_FIXTURES_DIR) + "/bn128/chain_16/";
  const auto text = [&](const std::string& file) {
    std::ifstream in(dir + file);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  pl_vk* vk = nullptr;
  PL_REQUIRE_OK(pl_vk_load_json_file((dir + "verification_key.json").c_str(), &vk));
  const std::string proof = text("proof.json"), inputs = text("public.json");
  CHECK(pl_verify_json(vk, proof.c_str(), inputs.c_str()) == PL_OK);
  std::string other = inputs;
  other.replace(other.find("\"7\""), 3, "\"8\"");  // b = 8, not the 7 it was proved with
  CHECK(pl_verify_json(vk, proof.c_str(), other.c_str()) == PL_ERR_PROOF_INVALID);
  // The key writes back as snarkjs wrote it; the 192-byte encoding is BLS12-381's and refused here.
  std::size_t needed = 0;
  CHECK(pl_vk_to_json(vk, nullptr, 0, &needed) == PL_ERR_BUFFER_TOO_SMALL);
  std::string back(needed, '\0');
  PL_REQUIRE_OK(pl_vk_to_json(vk, back.data(), back.size(), &needed));
  back.resize(needed - 1);
  CHECK(back == text("verification_key.json"));
  std::uint8_t bytes[PL_PROOF_BYTES] = {};
  CHECK(pl_verify(vk, bytes, sizeof bytes, nullptr, 0) == PL_ERR_INVALID_ARGUMENT);
  // A BLS12-381 proof.json under the bn128 key names the wrong curve.
  const std::string bls_proof = [&] {
    std::ifstream in(fixture("proof.json"));
    return std::string(std::istreambuf_iterator<char>(in), {});
  }();
  CHECK(pl_verify_json(vk, bls_proof.c_str(), inputs.c_str()) == PL_ERR_BAD_INPUT);
  PL_REQUIRE_OK(pl_vk_release(vk));
}

TEST_CASE("capi/boundary/a child forked after a pipeline was made is refused instead of left to hang") {
  Prover p;  // this process has made a pipeline: its threads do not go into a child
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {  // no doctest here: only the exit status tells the parent
    pl_stats stats{};
    stats.size = sizeof stats;
    const bool stats_refused = pl_pipeline_stats(p.pipeline, &stats) == PL_ERR_INVALID_ARGUMENT &&
                               std::strstr(pl_last_error_message(), "forked") != nullptr;
    pl_pipeline* other = nullptr;
    const bool create_refused = pl_pipeline_create(nullptr, &other) == PL_ERR_INVALID_ARGUMENT;
    const bool destroy_refused = pl_pipeline_destroy(p.pipeline) == PL_ERR_INVALID_ARGUMENT;
    ::_exit(stats_refused && create_refused && destroy_refused ? 0 : 1);
  }
  int status = 0;
  for (int i = 0; i < 600 && ::waitpid(child, &status, WNOHANG) == 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  if (::waitpid(child, &status, WNOHANG) == 0) {
    ::kill(child, SIGKILL);
    ::waitpid(child, &status, 0);
    FAIL("the forked child hung in libproofline");
  }
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  pl_job* after = proved_job(p);  // the parent's pipeline is untouched
  PL_REQUIRE_OK(pl_job_release(after));
}

}  // namespace proofline::capi_test
