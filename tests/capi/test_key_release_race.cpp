// A submit that races its key's pl_key_release: the submit found the key, then the release unregistered it
// before the job reached the prover. The caller is told that its key was released (PL_ERR_INVALID_HANDLE,
// naming the key), not that it submitted to an unknown key, which reads like a handle the caller invented;
// and the prover under the C ABI tells a removed key from one it never registered.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <variant>

#include <proofline/capi/detail/objects.hpp>
#include <proofline/capi/detail/registry.hpp>
#include <proofline/graph/pipeline.hpp>
#include <proofline/groth16/zkey.hpp>

#include "capi_test_support.hpp"

namespace proofline::capi_test {

namespace {

/// The capi's object behind a pipeline handle, to open the test window in its submits.
capi::Pipeline& object_of(pl_pipeline* pipeline) {
  const std::shared_ptr<capi::Pipeline> object = capi::Registry<capi::Pipeline>::instance().find(
      static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(pipeline)));
  REQUIRE(object);
  return *object;
}

/// The status and message of a submit on `key`.
std::pair<pl_status, std::string> submit_to(pl_pipeline* pipeline, pl_key* key, pl_job** job) {
  const pl_status status = pl_submit_wtns(pipeline, key, fixture("witness.wtns").c_str(), nullptr, job);
  return {status, pl_last_error_message()};
}

}  // namespace

TEST_CASE("capi/keys/a submit whose key is released under it is told the key was released") {
  Prover p;
  pl_status released = PL_ERR_NOT_READY;
  // The whole release runs after the submit found the key and before its job reaches the prover.
  object_of(p.pipeline).test_submit_window = [&] {
    std::thread releaser([&] { released = pl_key_release(p.key); });
    releaser.join();
  };
  pl_job* job = nullptr;
  const auto [status, message] = submit_to(p.pipeline, p.key, &job);
  object_of(p.pipeline).test_submit_window = nullptr;
  CHECK(released == PL_OK);
  CHECK(job == nullptr);
  CHECK(status == PL_ERR_INVALID_HANDLE);
  CHECK_MESSAGE(message.find("key 'circuit_final' was released (pl_key_release)") != std::string::npos,
                message);
  CHECK_MESSAGE(message.find("unknown key") == std::string::npos, message);
  p.key = nullptr;  // released above
}

TEST_CASE("capi/keys/a submit racing a release that waits for the key's jobs is told the key was released") {
  Prover p;
  Gate gate;
  pl_job* running = nullptr;
  PL_REQUIRE_OK(
      pl_submit_callback(p.pipeline, p.key, gated_fill, &gate, PL_FILLS_WITNESS, nullptr, &running));
  gate.wait_entered();
  // The release starts inside the submit's window and waits there for the running job: the prover is
  // removing the key when the submit reaches it.
  std::atomic<pl_status> released{PL_ERR_NOT_READY};
  std::thread releaser;
  object_of(p.pipeline).test_submit_window = [&] {
    releaser = std::thread([&] { released = pl_key_release(p.key); });
    std::int32_t curve = 0;
    while (pl_key_curve(p.key, &curve) == PL_OK) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    std::this_thread::sleep_for(std::chrono::milliseconds(50));  // on to the prover's removal
  };
  pl_job* job = nullptr;
  const auto [status, message] = submit_to(p.pipeline, p.key, &job);
  object_of(p.pipeline).test_submit_window = nullptr;
  CHECK(released == PL_ERR_NOT_READY);  // still waiting for the running job
  gate.release();
  releaser.join();
  CHECK(released == PL_OK);
  CHECK(job == nullptr);
  CHECK(status == PL_ERR_INVALID_HANDLE);
  CHECK_MESSAGE(message.find("key 'circuit_final' was released (pl_key_release)") != std::string::npos,
                message);
  PL_REQUIRE_OK(pl_job_wait(running, -1));
  PL_REQUIRE_OK(pl_job_outcome(running));
  PL_REQUIRE_OK(pl_job_release(running));
  p.key = nullptr;
}

TEST_CASE("capi/keys/the prover tells a removed key from one never registered") {
  // The C++ API under the C ABI: its refusal names a removed key as removed, and only an id it never issued
  // as unknown.
  auto zkey = std::get<groth16::ZkeyFile>(groth16::read_any_zkey(fixture("circuit_final.zkey")));
  graph::Pipeline prover(
      graph::Config{.backend = graph::Backend::cpu, .host_budget = std::uint64_t{1} << 30, .max_threads = 2});
  const graph::KeyHandle key =
      prover.add_key({.name = "chain",
                      .pk = std::make_shared<const groth16::ProvingKey>(std::move(zkey.pk)),
                      .cs = std::make_shared<const groth16::ConstraintSystem>(std::move(zkey.cs)),
                      .vk = std::make_shared<const groth16::VerifyingKey>(std::move(zkey.vk))});
  prover.remove_key(key);
  const auto refusal = [&](graph::KeyHandle handle) -> std::string {
    try {
      prover.submit({.key = handle, .witness = graph::WtnsFile{fixture("witness.wtns")}});
    } catch (const Error& e) {
      CHECK(e.code() == Errc::invalid_argument);
      return e.what();
    }
    FAIL("the submit was accepted");
    return {};
  };
  const std::string removed = refusal(key);
  CHECK_MESSAGE(
      removed.find("key 'chain' (key " + std::to_string(key.id()) + ") was removed") != std::string::npos,
      removed);
  CHECK_MESSAGE(removed.find("unknown") == std::string::npos, removed);
  const graph::KeyHandle never(key.id() + 1000);
  const std::string unknown = refusal(never);
  CHECK_MESSAGE(unknown.find("unknown key " + std::to_string(never.id()) +
                             " (no key of that id was registered") != std::string::npos,
                unknown);
  // remove_key says the same of a key removed twice.
  try {
    prover.remove_key(key);
    FAIL("a key was removed twice");
  } catch (const Error& e) {
    const std::string twice = e.what();
    CHECK_MESSAGE(twice.find("was removed") != std::string::npos, twice);
  }
}

}  // namespace proofline::capi_test
