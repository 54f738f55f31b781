// Callbacks across the C ABI: completion callbacks with a user pointer, calling back into the library from
// them (submit works, calls that wait for the pipeline are refused with PL_ERR_IN_CALLBACK), callbacks that
// throw, and witness callbacks writing into the pinned slot through bounds- and value-checked writes, every
// value of which must be written.
#include <atomic>
#include <chrono>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "capi_test_support.hpp"

namespace proofline::capi_test {

namespace {

/// What a completion callback saw of the library from inside.
struct Inside {
  Prover* prover = nullptr;
  std::atomic<int> calls{0};
  std::atomic<int> outcome{-1};
  std::atomic<int> destroy{-1}, shutdown{-1}, drain{-1}, key_release{-1}, key_add{-1}, wait_timeout{-1},
      wait_poll{-1}, poll{-1};
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
  pl_key* added = nullptr;  // registering may wait for jobs (to free memory) and for a shutdown under way
  in->key_add =
      pl_key_add_zkey_file(in->prover->pipeline, fixture("circuit_final.zkey").c_str(), nullptr, &added);
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
  enum class Does {
    whole,
    in_pieces,
    overlapping,
    nothing,
    all_but_one,
    out_of_range,
    not_below_r,
    writes_a,
    fails,
    fails_internal,
    returns_internal,
    returns_no_status,
    throws,
    destroys,
    refused_then_ok,           ///< writes all of z, and one write past it, refused; returns PL_OK
    bad_value_then_rewrites,   ///< a value not below r, refused; then all of z; returns PL_OK
    refused_leaving_a_gap,     ///< its last write goes one past z, refused, so z[n - 1] stays unwritten
    refused_then_error,        ///< a write refused, then an error code without pl_witness_fail
    refused_twice_in_threads,  ///< one refusal on its own thread, then one on a helper thread; returns PL_OK
    fails_then_ok              ///< pl_witness_fail, then all of z, then PL_OK
  } does;
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
    case Fill::Does::overlapping:  // backwards, each piece over the last one's first values
      for (std::size_t to = n; to > 0; to = to > 4 ? to - 4 : 0)
        if (const pl_status s = write_z(target, *f, to > 7 ? to - 7 : 0, to); s != PL_OK) return s;
      return PL_OK;
    case Fill::Does::nothing:
      return PL_OK;
    case Fill::Does::all_but_one:
      if (const pl_status s = write_z(target, *f, 0, n / 2); s != PL_OK) return s;
      return write_z(target, *f, n / 2 + 1, n);
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
    case Fill::Does::fails_internal:  // what a C caller reaches for when its own code failed
      pl_witness_fail(target, "the witness generator ran out of constraints");
      return PL_ERR_INTERNAL;
    case Fill::Does::returns_internal:
      return PL_ERR_INTERNAL;
    case Fill::Does::returns_no_status:
      return static_cast<pl_status>(-1);
    case Fill::Does::throws:
      throw std::runtime_error("thrown through a C callback");
    case Fill::Does::destroys:
      f->inner = pl_pipeline_destroy(f->pipeline);
      return write_z(target, *f, 0, n);
    case Fill::Does::refused_then_ok:
      if (const pl_status s = write_z(target, *f, 0, n); s != PL_OK) return s;
      f->inner = pl_witness_write(target, PL_VECTOR_Z, n, f->scalars.bytes.data(), 1);
      return PL_OK;
    case Fill::Does::bad_value_then_rewrites: {
      std::vector<std::uint8_t> big(PL_SCALAR_BYTES, 0xFF);
      f->inner = pl_witness_write(target, PL_VECTOR_Z, 3, big.data(), 1);
      return write_z(target, *f, 0, n);
    }
    case Fill::Does::refused_leaving_a_gap:
      if (const pl_status s = write_z(target, *f, 0, n - 1); s != PL_OK) return s;
      f->inner = pl_witness_write(target, PL_VECTOR_Z, n - 1, f->scalars.bytes.data(), 2);
      return PL_OK;
    case Fill::Does::refused_then_error:
      f->inner = pl_witness_write(target, PL_VECTOR_Z, n - 1, f->scalars.bytes.data(), 2);
      return PL_ERR_BAD_INPUT;
    case Fill::Does::refused_twice_in_threads: {
      f->inner = pl_witness_write(target, PL_VECTOR_B, 0, f->scalars.bytes.data(), 1);  // fills z only
      std::thread helper([&] { pl_witness_write(target, PL_VECTOR_Z, n + 5, f->scalars.bytes.data(), 1); });
      helper.join();
      return write_z(target, *f, 0, n);
    }
    case Fill::Does::fails_then_ok:
      pl_witness_fail(target, "the witness generator changed its mind");
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
  pl_job_info info{};
  info.size = sizeof info;
  PL_REQUIRE_OK(pl_job_get_info(job, &info));
  CHECK(info.stage == (outcome == PL_OK ? -1 : PL_STAGE_SYNTHESIS));  // a witness callback runs in synthesis
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
  CHECK(in.key_add == PL_ERR_IN_CALLBACK);
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
  Fill overlapping{.does = Fill::Does::overlapping};
  CHECK(fill_outcome(p, overlapping).first == PL_OK);

  // A callback that returns PL_OK must have written every value: the reused slot holds another job's there.
  Fill nothing{.does = Fill::Does::nothing};
  auto [unwritten, said] = fill_outcome(p, nothing);
  CHECK(unwritten == PL_ERR_BAD_INPUT);
  CHECK(said.find("did not write z[0, " + std::to_string(nothing.scalars.count) + ")") != std::string::npos);
  Fill all_but_one{.does = Fill::Does::all_but_one};
  const std::size_t hole = all_but_one.scalars.count / 2;
  std::tie(unwritten, said) = fill_outcome(p, all_but_one);
  CHECK(unwritten == PL_ERR_BAD_INPUT);
  CHECK(said.find("did not write z[" + std::to_string(hole) + ", " + std::to_string(hole + 1) + ")") !=
        std::string::npos);

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

  Fill destroys{.does = Fill::Does::destroys};
  CHECK(fill_outcome(p, destroys).first == PL_OK);
  CHECK(destroys.inner == PL_ERR_IN_CALLBACK);
}

TEST_CASE(
    "capi/callbacks/a witness callback's failure is the caller's bad input with the callback's message") {
  // PL_ERR_INTERNAL says "a bug in proofline": a callback's failure is the caller's, as the C++ API reports
  // what its callbacks throw (bad input), whatever code the callback picked to say it failed.
  Prover p;
  Fill fails_internal{.does = Fill::Does::fails_internal};
  auto [code, message] = fill_outcome(p, fails_internal);
  CHECK(code == PL_ERR_BAD_INPUT);
  CHECK_MESSAGE(message.find("the witness generator ran out of constraints") != std::string::npos, message);

  Fill returns_internal{.does = Fill::Does::returns_internal};
  std::tie(code, message) = fill_outcome(p, returns_internal);
  CHECK(code == PL_ERR_BAD_INPUT);
  CHECK_MESSAGE(message.find("the witness callback returned PL_ERR_INTERNAL") != std::string::npos, message);

  Fill returns_no_status{.does = Fill::Does::returns_no_status};
  std::tie(code, message) = fill_outcome(p, returns_no_status);
  CHECK(code == PL_ERR_BAD_INPUT);
  CHECK_MESSAGE(message.find("returned -1, which is no pl_status") != std::string::npos, message);

  // A C++ caller's callback that throws: its what() says why.
  Fill throws{.does = Fill::Does::throws};
  std::tie(code, message) = fill_outcome(p, throws);
  CHECK(code == PL_ERR_BAD_INPUT);
  CHECK_MESSAGE(message.find("the witness callback failed: thrown through a C callback") != std::string::npos,
                message);

  // Every one of them failed its job only: the pipeline still proves.
  Fill whole{.does = Fill::Does::whole};
  CHECK(fill_outcome(p, whole).first == PL_OK);
}

TEST_CASE(
    "capi/callbacks/a witness callback that returns PL_OK after a refused write fails with the refusal") {
  // The write it meant to make is not in the slot, and what it did instead is not what it meant: the job
  // fails with the first refusal's message, even where everything was written after all.
  Prover p;
  const std::size_t count = fixture_scalars().count;
  const std::string n = std::to_string(count), last = std::to_string(count - 1);
  const auto expect = [&](Fill::Does does, const std::string& says) {
    Fill f{.does = does};
    const auto [code, message] = fill_outcome(p, f);
    CHECK(code == PL_ERR_BAD_INPUT);
    CHECK_MESSAGE(message.find(says) != std::string::npos, message);
    return message;
  };
  std::string message = expect(Fill::Does::refused_then_ok,
                               "the witness callback returned PL_OK after a refused write: "
                               "PL_ERR_INVALID_ARGUMENT from pl_witness_write: z[" +
                                   n + ", " + n + " + 1) is out of range (size " + n + ")");
  message =
      expect(Fill::Does::bad_value_then_rewrites,
             "after a refused write: PL_ERR_BAD_INPUT from pl_witness_write: scalar 0 (z[3]) is not below r");
  // The refusal says why z[n - 1] was not written, rather than only that it was not.
  message = expect(Fill::Does::refused_leaving_a_gap, "z[" + last + ", " + last + " + 2) is out of range");
  CHECK_MESSAGE(message.find("did not write") == std::string::npos, message);
  // The first of several refusals, from whichever thread, with their count.
  message = expect(Fill::Does::refused_twice_in_threads,
                   "after 2 refused writes, the first: PL_ERR_INVALID_ARGUMENT from pl_witness_write: this "
                   "job's callback fills z only");
  CHECK_MESSAGE(message.find("z[" + std::to_string(count + 5)) == std::string::npos, message);
  // pl_witness_fail says the callback failed, whatever it returns afterwards.
  expect(Fill::Does::fails_then_ok,
         "the witness callback returned PL_OK after pl_witness_fail: the witness generator changed its mind");

  // An error code without pl_witness_fail keeps its code and says which write was refused.
  Fill refused_then_error{.does = Fill::Does::refused_then_error};
  const auto [code, said] = fill_outcome(p, refused_then_error);
  CHECK(refused_then_error.inner == PL_ERR_INVALID_ARGUMENT);
  CHECK(code == PL_ERR_BAD_INPUT);
  CHECK_MESSAGE(said.find("the witness callback returned PL_ERR_BAD_INPUT after a refused write: "
                          "PL_ERR_INVALID_ARGUMENT from pl_witness_write: z[") != std::string::npos,
                said);

  // A refusal belongs to its own job: the next one proves.
  Fill whole{.does = Fill::Does::whole};
  CHECK(fill_outcome(p, whole).first == PL_OK);
}

TEST_CASE("capi/callbacks/a witness target is refused outside its callback") {
  std::uint64_t not_a_target[8] = {};
  std::uint64_t z = 0;
  CHECK(pl_witness_sizes(reinterpret_cast<pl_witness_target*>(&not_a_target), &z, nullptr, nullptr) ==
        PL_ERR_INVALID_HANDLE);
  CHECK(pl_witness_write(nullptr, PL_VECTOR_Z, 0, nullptr, 0) == PL_ERR_INVALID_HANDLE);
  std::int32_t stop = 0;
  CHECK(pl_witness_stop_requested(nullptr, &stop) == PL_ERR_INVALID_HANDLE);
}

namespace {

/// A witness callback that outlasts its job's timeout, and what the job's completion saw of it.
struct SlowFill {
  Scalars scalars = fixture_scalars();
  std::atomic<bool> started{false}, stop_seen{false}, returned{false};
  std::atomic<int> null_stop{-1};
  std::atomic<int> completions{0}, completed_after_return{0};
};

pl_status slow_fill(pl_witness_target* target, void* user_data) {
  auto* f = static_cast<SlowFill*>(user_data);
  // As a long computation that polls would: on until proofline says the job's time is up, which it must
  // within the minute (the test's timeout is 500 ms).
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::minutes(1);
  f->null_stop = pl_witness_stop_requested(target, nullptr);
  f->started = true;
  std::int32_t stop = 0;
  while (stop == 0 && std::chrono::steady_clock::now() < give_up) {
    if (pl_witness_stop_requested(target, &stop) != PL_OK) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  f->stop_seen = stop == 1;
  const pl_status status =
      pl_witness_write(target, PL_VECTOR_Z, 0, f->scalars.bytes.data(), f->scalars.count);
  f->returned = true;
  return status;
}

void note_completion(pl_job*, void* user_data) {
  auto* f = static_cast<SlowFill*>(user_data);
  f->completions.fetch_add(1);
  if (f->returned) f->completed_after_return.fetch_add(1);
}

/// What fill_from_two_threads fills z from, and the target it was given (kept to try after the callback).
struct TwoThreads {
  Scalars scalars = fixture_scalars();
  pl_witness_target* target = nullptr;
};

/// Fills z from two threads: the callback's own and one it starts, both through the target it was given.
pl_status fill_from_two_threads(pl_witness_target* target, void* user_data) {
  auto* two = static_cast<TwoThreads*>(user_data);
  two->target = target;
  const Scalars* scalars = &two->scalars;
  const std::size_t half = scalars->count / 2;
  pl_status other = PL_ERR_INTERNAL;
  std::thread helper([&] {
    other = pl_witness_write(target, PL_VECTOR_Z, half, scalars->bytes.data() + half * PL_SCALAR_BYTES,
                             scalars->count - half);
  });
  const pl_status own = pl_witness_write(target, PL_VECTOR_Z, 0, scalars->bytes.data(), half);
  helper.join();
  return own != PL_OK ? own : other;
}

}  // namespace

TEST_CASE(
    "capi/callbacks/a job timing out in its witness callback asks it to stop and completes after it "
    "returns") {
  Prover p;
  SlowFill f;
  pl_job_options options{};
  options.size = sizeof options;
  options.timeout_ms = 500;  // room to reach the callback on a loaded machine, which it must for the test
  options.on_complete = note_completion;
  options.user_data = &f;
  pl_job* job = nullptr;
  PL_REQUIRE_OK(pl_submit_callback(p.pipeline, p.key, slow_fill, &f, PL_FILLS_WITNESS, &options, &job));
  PL_REQUIRE_OK(pl_job_wait(job, -1));
  // The deadline passed during the callback, which was told so; the job's result waited for it, so its user
  // data is free now.
  CHECK(f.null_stop == PL_ERR_INVALID_ARGUMENT);
  CHECK(f.stop_seen);
  CHECK(f.returned);
  CHECK(f.completions == 1);
  CHECK(f.completed_after_return == 1);
  CHECK(pl_job_outcome(job) == PL_ERR_TIMEOUT);
  PL_REQUIRE_OK(pl_job_release(job));
  // The slot it held came home: the next job proves.
  pl_job* next = submit_with(p, nullptr, nullptr);
  PL_REQUIRE_OK(pl_job_wait(next, -1));
  CHECK(proof_verifies(next, p.vk));
  PL_REQUIRE_OK(pl_job_release(next));
}

TEST_CASE("capi/callbacks/pl_job_cancel stops a job in its witness callback, which is told so") {
  Prover p;
  SlowFill f;
  pl_job_options options{};
  options.size = sizeof options;
  options.on_complete = note_completion;
  options.user_data = &f;
  pl_job* job = nullptr;
  PL_REQUIRE_OK(pl_submit_callback(p.pipeline, p.key, slow_fill, &f, PL_FILLS_WITNESS, &options, &job));
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::minutes(1);
  while (!f.started && std::chrono::steady_clock::now() < give_up)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  REQUIRE(f.started);
  PL_REQUIRE_OK(pl_job_cancel(job));
  PL_REQUIRE_OK(pl_job_wait(job, -1));
  CHECK(f.stop_seen);
  CHECK(f.completed_after_return == 1);
  CHECK(pl_job_outcome(job) == PL_ERR_CANCELLED);
  CHECK(pl_job_cancel(job) == PL_ERR_NOT_CANCELLABLE);  // done
  PL_REQUIRE_OK(pl_job_release(job));
}

TEST_CASE("capi/callbacks/a target works from the callback's helper threads and a foreign one is not read") {
  Prover p;
  TwoThreads two;
  const Scalars& scalars = two.scalars;
  pl_job* job = nullptr;
  PL_REQUIRE_OK(
      pl_submit_callback(p.pipeline, p.key, fill_from_two_threads, &two, PL_FILLS_WITNESS, nullptr, &job));
  PL_REQUIRE_OK(pl_job_wait(job, -1));
  PL_REQUIRE_OK(pl_job_outcome(job));
  CHECK(proof_verifies(job, p.vk));
  PL_REQUIRE_OK(pl_job_release(job));
  // The target after its callback returned, and addresses that are no target (unmapped ones included), are
  // refused without being dereferenced.
  std::uint64_t z = 0;
  REQUIRE(two.target != nullptr);
  CHECK(pl_witness_sizes(two.target, &z, nullptr, nullptr) == PL_ERR_INVALID_HANDLE);
  CHECK(pl_witness_write(two.target, PL_VECTOR_Z, 0, scalars.bytes.data(), 1) == PL_ERR_INVALID_HANDLE);
  for (const std::uintptr_t address : {std::uintptr_t{0x10}, std::uintptr_t{0x1000}, ~std::uintptr_t{0xF}}) {
    auto* foreign = reinterpret_cast<pl_witness_target*>(address);
    CHECK(pl_witness_sizes(foreign, &z, nullptr, nullptr) == PL_ERR_INVALID_HANDLE);
    CHECK(pl_witness_write(foreign, PL_VECTOR_Z, 0, scalars.bytes.data(), 1) == PL_ERR_INVALID_HANDLE);
    CHECK(pl_witness_fail(foreign, "no") == PL_ERR_INVALID_HANDLE);
  }
}

}  // namespace proofline::capi_test
