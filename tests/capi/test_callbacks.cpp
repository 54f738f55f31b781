// Callbacks across the C ABI: completion callbacks with a user pointer, calling back into the library from
// them (submit works, calls that wait for the pipeline are refused with PL_ERR_IN_CALLBACK), callbacks that
// throw, and witness callbacks writing into the pinned slot through bounds- and value-checked writes.
#include <atomic>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "capi_test_support.hpp"

namespace proofline::capi_test {

namespace {

/// What a completion callback saw of the library from inside.
struct Inside {
  Prover* prover = nullptr;
  std::atomic<int> calls{0};
  std::atomic<int> outcome{-1};
  std::atomic<int> destroy{-1}, shutdown{-1}, drain{-1}, key_release{-1}, wait_timeout{-1}, wait_poll{-1},
      poll{-1};
  std::atomic<int> resubmit{-1};
  pl_job* follow_up = nullptr;
  bool verified = false;
};

void probe_from_inside(pl_job* job, void* user_data) {
  auto* in = static_cast<Inside*>(user_data);
  in->outcome = pl_job_outcome(job);
  in->verified = proof_verifies(job, in->prover->vk);
  in->destroy = pl_pipeline_destroy(in->prover->pipeline);
  in->shutdown = pl_pipeline_shutdown(in->prover->pipeline, PL_SHUTDOWN_DRAIN);
  in->drain = pl_pipeline_drain(in->prover->pipeline);
  in->key_release = pl_key_release(in->prover->key);
  in->wait_timeout = pl_job_wait(job, 1000);
  in->wait_poll = pl_job_wait(job, 0);  // the callback itself has not returned: not complete yet
  in->poll = pl_job_poll(job);
  // Submitting from a completion callback works.
  in->resubmit = pl_submit_wtns(in->prover->pipeline, in->prover->key, fixture("witness.wtns").c_str(),
                                nullptr, &in->follow_up);
  in->calls.fetch_add(1);
}

void throw_from_callback(pl_job*, void* user_data) {
  static_cast<std::atomic<int>*>(user_data)->fetch_add(1);
  throw std::runtime_error("a C++ caller's callback threw");
}

void release_from_callback(pl_job* job, void* user_data) {
  static_cast<std::atomic<int>*>(user_data)->fetch_add(pl_job_release(job) == PL_OK ? 1 : 100);
}

pl_job* submit_with(const Prover& p, pl_completion_fn fn, void* user_data) {
  pl_job_options options{};
  options.size = sizeof options;
  options.on_complete = fn;
  options.user_data = user_data;
  pl_job* job = nullptr;
  PL_REQUIRE_OK(pl_submit_wtns(p.pipeline, p.key, fixture("witness.wtns").c_str(), &options, &job));
  return job;
}

/// Witness callbacks, by what they do.
struct Fill {
  Scalars scalars = fixture_scalars();
  enum class Does { whole, in_pieces, out_of_range, not_below_r, writes_a, fails, throws, destroys } does;
  pl_pipeline* pipeline = nullptr;
  std::atomic<int> inner{-1};  ///< the status of the call under test, made inside the callback
};

pl_status write_z(pl_witness_target* target, const Fill& f, std::size_t from, std::size_t to) {
  return pl_witness_write(target, PL_VECTOR_Z, from, f.scalars.bytes.data() + from * PL_SCALAR_BYTES,
                          to - from);
}

pl_status fill(pl_witness_target* target, void* user_data) {
  auto* f = static_cast<Fill*>(user_data);
  const std::size_t n = f->scalars.count;
  switch (f->does) {
    case Fill::Does::whole:
      return write_z(target, *f, 0, n);
    case Fill::Does::in_pieces:
      for (std::size_t i = 0; i < n; i += 5)
        if (const pl_status s = write_z(target, *f, i, std::min(n, i + 5)); s != PL_OK) return s;
      return PL_OK;
    case Fill::Does::out_of_range:
      f->inner = pl_witness_write(target, PL_VECTOR_Z, n - 1, f->scalars.bytes.data(), 2);
      return static_cast<pl_status>(f->inner.load());
    case Fill::Does::not_below_r: {
      std::vector<std::uint8_t> big(PL_SCALAR_BYTES, 0xFF);
      f->inner = pl_witness_write(target, PL_VECTOR_Z, 3, big.data(), 1);
      return static_cast<pl_status>(f->inner.load());
    }
    case Fill::Does::writes_a:
      f->inner = pl_witness_write(target, PL_VECTOR_A, 0, f->scalars.bytes.data(), 1);
      return static_cast<pl_status>(f->inner.load());
    case Fill::Does::fails:
      pl_witness_fail(target, "the circuit library found no witness");
      return PL_ERR_BAD_INPUT;
    case Fill::Does::throws:
      throw std::runtime_error("thrown through a C callback");
    case Fill::Does::destroys:
      f->inner = pl_pipeline_destroy(f->pipeline);
      return write_z(target, *f, 0, n);
  }
  return PL_ERR_INTERNAL;
}

/// The job's outcome and message after a witness callback doing `does`.
std::pair<pl_status, std::string> fill_outcome(Prover& p, Fill& f) {
  f.pipeline = p.pipeline;
  pl_job* job = nullptr;
  PL_REQUIRE_OK(pl_submit_callback(p.pipeline, p.key, fill, &f, PL_FILLS_WITNESS, nullptr, &job));
  PL_REQUIRE_OK(pl_job_wait(job, -1));
  const pl_status outcome = pl_job_outcome(job);
  const std::string message = pl_last_error_message();
  if (outcome == PL_OK) CHECK(proof_verifies(job, p.vk));
  PL_REQUIRE_OK(pl_job_release(job));
  return {outcome, message};
}

}  // namespace

TEST_CASE(
    "capi/callbacks/inside a completion callback: accessors and submit work and waiting calls are refused") {
  Prover p;
  Inside in;
  in.prover = &p;
  pl_job* job = submit_with(p, probe_from_inside, &in);
  PL_REQUIRE_OK(pl_job_wait(job, -1));
  CHECK(in.calls == 1);
  CHECK(in.outcome == PL_OK);
  CHECK(in.verified);
  CHECK(in.destroy == PL_ERR_IN_CALLBACK);
  CHECK(in.shutdown == PL_ERR_IN_CALLBACK);
  CHECK(in.drain == PL_ERR_IN_CALLBACK);
  CHECK(in.key_release == PL_ERR_IN_CALLBACK);
  CHECK(in.wait_timeout == PL_ERR_IN_CALLBACK);
  CHECK(in.wait_poll == PL_ERR_NOT_READY);
  CHECK(in.poll == PL_OK);
  REQUIRE(in.resubmit == PL_OK);
  PL_REQUIRE_OK(pl_job_wait(in.follow_up, -1));
  CHECK(proof_verifies(in.follow_up, p.vk));
  PL_REQUIRE_OK(pl_job_release(in.follow_up));
  PL_REQUIRE_OK(pl_job_release(job));
  // Nothing was destroyed by the refused calls: the pipeline and the key still prove.
  pl_job* after = submit_with(p, nullptr, nullptr);
  PL_REQUIRE_OK(pl_job_wait(after, -1));
  PL_REQUIRE_OK(pl_job_outcome(after));
  PL_REQUIRE_OK(pl_job_release(after));
}

TEST_CASE("capi/callbacks/a throwing completion callback is contained and release from inside works") {
  Prover p;
  std::atomic<int> thrown{0}, released{0};
  pl_job* a = submit_with(p, throw_from_callback, &thrown);
  pl_job* b = submit_with(p, release_from_callback, &released);
  PL_REQUIRE_OK(pl_job_wait(a, -1));
  CHECK(thrown == 1);
  PL_REQUIRE_OK(pl_job_outcome(a));
  PL_REQUIRE_OK(pl_job_release(a));
  PL_REQUIRE_OK(pl_pipeline_drain(p.pipeline));
  CHECK(released == 1);
  CHECK(pl_job_poll(b) == PL_ERR_INVALID_HANDLE);
}

TEST_CASE("capi/callbacks/witness callbacks: writes are bounds- and value-checked failures fail the job") {
  Prover p;
  Fill whole{.does = Fill::Does::whole};
  CHECK(fill_outcome(p, whole).first == PL_OK);
  Fill pieces{.does = Fill::Does::in_pieces};
  CHECK(fill_outcome(p, pieces).first == PL_OK);

  Fill out_of_range{.does = Fill::Does::out_of_range};
  auto [code, message] = fill_outcome(p, out_of_range);
  CHECK(out_of_range.inner == PL_ERR_INVALID_ARGUMENT);
  CHECK(code == PL_ERR_INVALID_ARGUMENT);
  CHECK(message.find("PL_ERR_INVALID_ARGUMENT") != std::string::npos);

  Fill not_below_r{.does = Fill::Does::not_below_r};
  CHECK(fill_outcome(p, not_below_r).first == PL_ERR_BAD_INPUT);
  CHECK(not_below_r.inner == PL_ERR_BAD_INPUT);

  Fill writes_a{.does = Fill::Does::writes_a};
  CHECK(fill_outcome(p, writes_a).first == PL_ERR_INVALID_ARGUMENT);

  Fill fails{.does = Fill::Does::fails};
  std::tie(code, message) = fill_outcome(p, fails);
  CHECK(code == PL_ERR_BAD_INPUT);
  CHECK(message.find("the circuit library found no witness") != std::string::npos);

  Fill throws{.does = Fill::Does::throws};
  std::tie(code, message) = fill_outcome(p, throws);
  CHECK(code == PL_ERR_INTERNAL);
  CHECK(message.find("threw") != std::string::npos);

  Fill destroys{.does = Fill::Does::destroys};
  CHECK(fill_outcome(p, destroys).first == PL_OK);
  CHECK(destroys.inner == PL_ERR_IN_CALLBACK);
}

TEST_CASE("capi/callbacks/a witness target is refused outside its callback") {
  std::uint64_t not_a_target[8] = {};
  std::uint64_t z = 0;
  CHECK(pl_witness_sizes(reinterpret_cast<pl_witness_target*>(&not_a_target), &z, nullptr, nullptr) ==
        PL_ERR_INVALID_HANDLE);
  CHECK(pl_witness_write(nullptr, PL_VECTOR_Z, 0, nullptr, 0) == PL_ERR_INVALID_HANDLE);
}

}  // namespace proofline::capi_test
