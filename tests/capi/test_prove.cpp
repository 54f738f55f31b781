// Proving through the C ABI: every witness source on a snarkjs key and on native key files and images, queue
// and cancel control, destroying a pipeline with jobs in flight, shutdown, concurrent submitters, and no
// pinned byte left leased afterwards.
#include <unistd.h>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>
#include <thread>
#include <vector>

#include <proofline/groth16/native_file.hpp>
#include <proofline/groth16/setup.hpp>
#include <proofline/groth16/synthetic.hpp>

#include "capi_test_support.hpp"

namespace proofline::capi_test {

namespace {

void count_completion(pl_job*, void* user_data) {
  static_cast<std::atomic<int>*>(user_data)->fetch_add(1);
}

pl_stats stats_of(pl_pipeline* pipeline) {
  pl_stats stats{};
  stats.size = sizeof stats;
  PL_REQUIRE_OK(pl_pipeline_stats(pipeline, &stats));
  return stats;
}

std::vector<char> file_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST_CASE("capi/prove/every witness source proves and verifies and no pinned byte stays leased") {
  Prover p;
  const Scalars s = fixture_scalars();
  Gate open_gate;
  open_gate.release();
  std::atomic<int> completions{0};
  pl_job_options options{};
  options.size = sizeof options;
  options.on_complete = count_completion;
  options.user_data = &completions;
  options.label = "capi";
  std::vector<pl_job*> jobs(6);
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    if (i % 3 == 0)
      PL_REQUIRE_OK(pl_submit_wtns(p.pipeline, p.key, fixture("witness.wtns").c_str(), &options, &jobs[i]));
    if (i % 3 == 1)
      PL_REQUIRE_OK(pl_submit_scalars(p.pipeline, p.key, s.bytes.data(), s.count, &options, &jobs[i]));
    if (i % 3 == 2)
      PL_REQUIRE_OK(pl_submit_callback(p.pipeline, p.key, gated_fill, &open_gate, PL_FILLS_WITNESS, &options,
                                       &jobs[i]));
  }
  PL_REQUIRE_OK(pl_pipeline_drain(p.pipeline));
  CHECK(completions == 6);
  for (pl_job* job : jobs) {
    PL_REQUIRE_OK(pl_job_poll(job));
    CHECK(proof_verifies(job, p.vk));
    pl_job_info info{};
    info.size = sizeof info;
    PL_REQUIRE_OK(pl_job_get_info(job, &info));
    CHECK(info.outcome == PL_OK);
    CHECK(info.num_public == 2);
    CHECK(info.gpu == -1);
    CHECK(info.stage == -1);
    PL_REQUIRE_OK(pl_job_release(job));
  }
  const pl_stats stats = stats_of(p.pipeline);
  CHECK(stats.proofs == 6);
  CHECK(stats.failed == 0);
  CHECK(stats.pinned_bytes_leased == 0);
  CHECK(stats.slots_in_flight == 0);

  // A scalar not below r fails its job (the scalars are checked as they are converted into the slot).
  Scalars bad = s;
  std::fill(bad.bytes.begin() + 5 * PL_SCALAR_BYTES, bad.bytes.begin() + 6 * PL_SCALAR_BYTES, 0xFF);
  pl_job* job = nullptr;
  PL_REQUIRE_OK(pl_submit_scalars(p.pipeline, p.key, bad.bytes.data(), bad.count, nullptr, &job));
  PL_REQUIRE_OK(pl_job_wait(job, -1));
  CHECK(pl_job_outcome(job) == PL_ERR_BAD_INPUT);
  CHECK(std::string(pl_last_error_message()).find("witness scalar 5 is not below r") != std::string::npos);
  std::uint8_t proof[PL_PROOF_BYTES];
  CHECK(pl_job_proof(job, proof, sizeof proof) == PL_ERR_BAD_INPUT);
  PL_REQUIRE_OK(pl_job_release(job));
}

TEST_CASE("capi/prove/native key files and images and a callback that fills z a b and c") {
  groth16::SyntheticCircuit circuit = groth16::make_synthetic_circuit({.log_size = 6, .num_public = 2});
  const groth16::KeyPair keys = groth16::setup_from_trapdoor(circuit.cs, groth16::trapdoor_from_seed(3));
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("proofline-capi-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  groth16::write_proving_key(dir / "k.plkey", keys.pk, &keys.vk);
  groth16::write_constraint_system(dir / "k.plcs", circuit.cs);
  groth16::write_verifying_key(dir / "k.plvk", keys.vk);

  pl_config config = cpu_config();
  pl_pipeline* pipeline = nullptr;
  PL_REQUIRE_OK(pl_pipeline_create(&config, &pipeline));
  pl_key *from_files = nullptr, *from_memory = nullptr;
  PL_REQUIRE_OK(pl_key_add_native_files(pipeline, (dir / "k.plkey").c_str(), (dir / "k.plcs").c_str(),
                                        (dir / "k.plvk").c_str(), nullptr, &from_files));
  const std::vector<char> pk = file_bytes(dir / "k.plkey"), cs = file_bytes(dir / "k.plcs");
  pl_key_options named{sizeof(pl_key_options), "native-memory", PL_POINTS_TRUSTED};
  PL_REQUIRE_OK(
      pl_key_add_native_memory(pipeline, pk.data(), pk.size(), cs.data(), cs.size(), &named, &from_memory));
  std::filesystem::remove_all(dir);  // the keys own their bytes

  const WitnessVectors v = witness_vectors(circuit.cs, circuit.witness, keys.pk.domain_size());

  pl_vk* vk = nullptr;
  PL_REQUIRE_OK(pl_key_verifying_key(from_memory, &vk));
  pl_job *by_scalars = nullptr, *by_callback = nullptr;
  PL_REQUIRE_OK(
      pl_submit_scalars(pipeline, from_files, v.z.data(), circuit.witness.size(), nullptr, &by_scalars));
  PL_REQUIRE_OK(pl_submit_callback(pipeline, from_memory, fill_vectors, const_cast<WitnessVectors*>(&v),
                                   PL_FILLS_WITNESS_AND_ABC, nullptr, &by_callback));
  for (pl_job* job : {by_scalars, by_callback}) {
    PL_REQUIRE_OK(pl_job_wait(job, -1));
    PL_REQUIRE_OK(pl_job_outcome(job));
    std::uint8_t proof[PL_PROOF_BYTES], inputs[2 * PL_SCALAR_BYTES];
    std::size_t count = 0;
    PL_REQUIRE_OK(pl_job_proof(job, proof, sizeof proof));
    PL_REQUIRE_OK(pl_job_public_inputs(job, inputs, sizeof inputs, &count));
    CHECK(count == 2);
    PL_REQUIRE_OK(pl_verify(vk, proof, sizeof proof, inputs, count));
    PL_REQUIRE_OK(pl_job_release(job));
  }
  PL_REQUIRE_OK(pl_vk_release(vk));
  PL_REQUIRE_OK(pl_key_release(from_files));
  PL_REQUIRE_OK(pl_key_release(from_memory));
  PL_REQUIRE_OK(pl_pipeline_destroy(pipeline));
}

TEST_CASE("capi/prove/queue control: a full queue waiting with a timeout cancelling a queued job") {
  pl_config config = cpu_config();
  config.slots = 1;
  config.queue_capacity = 1;
  config.prewarm = 0;
  Prover p(config);
  Gate gate;
  pl_job *running = nullptr, *queued = nullptr, *refused = nullptr;
  PL_REQUIRE_OK(
      pl_submit_callback(p.pipeline, p.key, gated_fill, &gate, PL_FILLS_WITNESS, nullptr, &running));
  gate.wait_entered();  // it holds the only slot
  PL_REQUIRE_OK(pl_submit_wtns(p.pipeline, p.key, fixture("witness.wtns").c_str(), nullptr, &queued));
  pl_job_options no_wait{};
  no_wait.size = sizeof no_wait;
  no_wait.flags = PL_SUBMIT_NO_WAIT;
  CHECK(pl_submit_wtns(p.pipeline, p.key, fixture("witness.wtns").c_str(), &no_wait, &refused) ==
        PL_ERR_QUEUE_FULL);
  CHECK(refused == nullptr);
  CHECK(pl_job_poll(running) == PL_ERR_NOT_READY);
  CHECK(pl_job_wait(running, 20) == PL_ERR_NOT_READY);
  std::uint8_t proof[PL_PROOF_BYTES];
  CHECK(pl_job_proof(running, proof, sizeof proof) == PL_ERR_NOT_READY);
  PL_REQUIRE_OK(pl_job_cancel(queued));
  PL_REQUIRE_OK(pl_job_wait(queued, -1));
  CHECK(pl_job_outcome(queued) == PL_ERR_CANCELLED);
  CHECK(pl_job_cancel(queued) == PL_ERR_NOT_CANCELLABLE);
  gate.release();
  PL_REQUIRE_OK(pl_job_wait(running, -1));
  PL_REQUIRE_OK(pl_job_outcome(running));
  CHECK(pl_job_cancel(running) ==
        PL_ERR_NOT_CANCELLABLE);  // done (cancelling it in its callback would stop it)
  CHECK(stats_of(p.pipeline).refused == 1);
  PL_REQUIRE_OK(pl_job_release(running));
  PL_REQUIRE_OK(pl_job_release(queued));
}

TEST_CASE("capi/prove/timeouts of a century or more, UINT64_MAX and INT64_MAX included, mean no limit") {
  pl_config config = cpu_config();
  config.job_timeout_ms = UINT64_MAX;
  config.key_idle_timeout_ms = UINT64_MAX;
  Prover p(config);
  for (const std::uint64_t timeout : {std::uint64_t{0}, std::uint64_t{1} << 62, std::uint64_t{UINT64_MAX}}) {
    CAPTURE(timeout);
    pl_job_options options{};
    options.size = sizeof options;
    options.timeout_ms = timeout;
    pl_job* job = nullptr;
    PL_REQUIRE_OK(pl_submit_wtns(p.pipeline, p.key, fixture("witness.wtns").c_str(), &options, &job));
    PL_REQUIRE_OK(pl_job_wait(job, INT64_MAX));  // waits for the job, however long it takes
    PL_REQUIRE_OK(pl_job_outcome(job));
    CHECK(proof_verifies(job, p.vk));
    PL_REQUIRE_OK(pl_job_release(job));
  }
}

TEST_CASE("capi/prove/keys registered without a name from several threads at once each get their own") {
  Prover p;
  const std::vector<char> zkey = file_bytes(fixture("circuit_final.zkey"));
  constexpr int kThreads = 4, kEach = 3;
  std::vector<pl_key*> keys(kThreads * kEach, nullptr);
  std::vector<pl_status> statuses(keys.size(), PL_ERR_INTERNAL);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < kEach; ++i) {
        const std::size_t at = static_cast<std::size_t>(t * kEach + i);
        statuses[at] = pl_key_add_zkey_memory(p.pipeline, zkey.data(), zkey.size(), nullptr, &keys[at]);
      }
    });
  for (std::thread& thread : threads) thread.join();
  for (std::size_t i = 0; i < keys.size(); ++i) {
    CAPTURE(i);
    CHECK(statuses[i] == PL_OK);
    if (keys[i] != nullptr) PL_REQUIRE_OK(pl_key_release(keys[i]));
  }
}

TEST_CASE("capi/prove/destroying a pipeline with jobs in flight drains them and results outlive it") {
  const Scalars s = fixture_scalars();
  pl_config config = cpu_config();
  pl_pipeline* pipeline = nullptr;
  PL_REQUIRE_OK(pl_pipeline_create(&config, &pipeline));
  pl_key* key = nullptr;
  PL_REQUIRE_OK(pl_key_add_zkey_file(pipeline, fixture("circuit_final.zkey").c_str(), nullptr, &key));
  std::atomic<int> completions{0};
  pl_job_options options{};
  options.size = sizeof options;
  options.on_complete = count_completion;
  options.user_data = &completions;
  std::vector<pl_job*> jobs(8);
  for (pl_job*& job : jobs)
    PL_REQUIRE_OK(pl_submit_scalars(pipeline, key, s.bytes.data(), s.count, &options, &job));
  PL_REQUIRE_OK(pl_pipeline_destroy(pipeline));
  CHECK(completions == 8);  // every callback ran before destroy returned
  pl_vk* vk = nullptr;
  PL_REQUIRE_OK(pl_key_verifying_key(key, &vk));  // the key handle outlives its pipeline
  for (pl_job* job : jobs) {
    PL_REQUIRE_OK(pl_job_poll(job));
    CHECK(proof_verifies(job, vk));
    PL_REQUIRE_OK(pl_job_release(job));
  }
  pl_job* late = nullptr;
  CHECK(pl_submit_scalars(pipeline, key, s.bytes.data(), s.count, nullptr, &late) == PL_ERR_INVALID_HANDLE);
  PL_REQUIRE_OK(pl_vk_release(vk));
  PL_REQUIRE_OK(pl_key_release(key));
}

TEST_CASE("capi/prove/shutdown with cancel: queued jobs are cancelled later submissions refused") {
  pl_config config = cpu_config();
  config.slots = 1;
  config.prewarm = 0;
  Prover p(config);
  Gate gate;
  pl_job* running = nullptr;
  PL_REQUIRE_OK(
      pl_submit_callback(p.pipeline, p.key, gated_fill, &gate, PL_FILLS_WITNESS, nullptr, &running));
  gate.wait_entered();
  std::vector<pl_job*> queued(4);
  for (pl_job*& job : queued)
    PL_REQUIRE_OK(pl_submit_wtns(p.pipeline, p.key, fixture("witness.wtns").c_str(), nullptr, &job));
  std::thread opener([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    gate.release();
  });
  PL_REQUIRE_OK(pl_pipeline_shutdown(p.pipeline, PL_SHUTDOWN_CANCEL));
  opener.join();
  PL_REQUIRE_OK(pl_job_outcome(running));
  for (pl_job* job : queued) {
    CHECK(pl_job_outcome(job) == PL_ERR_CANCELLED);
    PL_REQUIRE_OK(pl_job_release(job));
  }
  PL_REQUIRE_OK(pl_job_release(running));
  const pl_stats stats = stats_of(p.pipeline);
  CHECK(stats.cancelled == 4);
  CHECK(stats.pinned_bytes_leased == 0);
  pl_job* late = nullptr;
  CHECK(pl_submit_wtns(p.pipeline, p.key, fixture("witness.wtns").c_str(), nullptr, &late) ==
        PL_ERR_SHUT_DOWN);
  pl_key* late_key = nullptr;
  CHECK(pl_key_add_zkey_file(p.pipeline, fixture("circuit_final.zkey").c_str(), nullptr, &late_key) ==
        PL_ERR_SHUT_DOWN);
  // Releasing the key of a shut-down pipeline (the Prover's destructor does, then destroys the pipeline)
  // unregisters nothing: remove_key would start graph work after the shutdown's last wait.
}

TEST_CASE("capi/prove/shutdown with cancel cancels queued jobs while a key release waits for them") {
  // pl_key_release waits for its key's jobs; a shutdown that cancels must not wait for them to be proved.
  pl_config config = cpu_config();
  config.slots = 1;
  config.prewarm = 0;
  pl_pipeline* pipeline = nullptr;
  PL_REQUIRE_OK(pl_pipeline_create(&config, &pipeline));
  pl_key* key = nullptr;
  PL_REQUIRE_OK(pl_key_add_zkey_file(pipeline, fixture("circuit_final.zkey").c_str(), nullptr, &key));
  Gate gate;
  pl_job *running = nullptr, *queued = nullptr;
  PL_REQUIRE_OK(pl_submit_callback(pipeline, key, gated_fill, &gate, PL_FILLS_WITNESS, nullptr, &running));
  gate.wait_entered();
  PL_REQUIRE_OK(pl_submit_wtns(pipeline, key, fixture("witness.wtns").c_str(), nullptr, &queued));
  std::atomic<pl_status> released{PL_ERR_INTERNAL};
  std::thread releaser([&] { released = pl_key_release(key); });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // the release is waiting for both jobs
  std::thread opener([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    gate.release();
  });
  PL_REQUIRE_OK(pl_pipeline_shutdown(pipeline, PL_SHUTDOWN_CANCEL));
  opener.join();
  releaser.join();
  CHECK(released == PL_OK);
  PL_REQUIRE_OK(pl_job_outcome(running));
  CHECK(pl_job_outcome(queued) == PL_ERR_CANCELLED);
  CHECK(stats_of(pipeline).pinned_bytes_leased == 0);
  PL_REQUIRE_OK(pl_job_release(running));
  PL_REQUIRE_OK(pl_job_release(queued));
  PL_REQUIRE_OK(pl_pipeline_destroy(pipeline));
}

TEST_CASE("capi/prove/threads submit wait and verify concurrently") {
  Prover p;
  const Scalars s = fixture_scalars();
  std::atomic<int> verified{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      std::vector<pl_job*> jobs(3);
      for (pl_job*& job : jobs)
        if (pl_submit_scalars(p.pipeline, p.key, s.bytes.data(), s.count, nullptr, &job) != PL_OK) return;
      for (pl_job* job : jobs) {
        if (pl_job_wait(job, -1) == PL_OK && proof_verifies(job, p.vk)) verified.fetch_add(1);
        pl_job_release(job);
      }
    });
  for (std::thread& t : threads) t.join();
  CHECK(verified == 12);
}

}  // namespace proofline::capi_test
