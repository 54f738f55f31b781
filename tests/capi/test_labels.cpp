// A job's label (pl_job_options.label) in its failure: the C ABI gives a job's result no other way back to
// the caller's name for it, and a prover that submits thousands of jobs finds the bad input by that name.
#include <cstring>
#include <string>

#include "capi_test_support.hpp"

namespace proofline::capi_test {

namespace {

/// A job of `scalars` submitted with `label` (NULL: none), waited for.
pl_job* finished_job(const Prover& p, const Scalars& scalars, const char* label) {
  pl_job_options options{};
  options.size = sizeof options;
  options.label = label;
  pl_job* job = nullptr;
  PL_REQUIRE_OK(pl_submit_scalars(p.pipeline, p.key, scalars.bytes.data(), scalars.count, &options, &job));
  PL_REQUIRE_OK(pl_job_wait(job, -1));
  return job;
}

}  // namespace

TEST_CASE("capi/labels/a failed job's message names its label and a job without one says nothing more") {
  Prover p;
  Scalars bad = fixture_scalars();
  std::memset(bad.bytes.data() + 5 * PL_SCALAR_BYTES, 0xFF, PL_SCALAR_BYTES);  // z[5] not below r

  pl_job* labelled = finished_job(p, bad, "batch-7/witness-3");
  CHECK(pl_job_outcome(labelled) == PL_ERR_BAD_INPUT);
  std::string message = pl_last_error_message();
  CHECK_MESSAGE(message.find("witness scalar 5 is not below r") != std::string::npos, message);
  CHECK_MESSAGE(message.find("batch-7/witness-3") != std::string::npos, message);
  // The accessors that report the job's failure name it too.
  std::uint8_t proof[PL_PROOF_BYTES];
  CHECK(pl_job_proof(labelled, proof, sizeof proof) == PL_ERR_BAD_INPUT);
  message = pl_last_error_message();
  CHECK_MESSAGE(message.find("batch-7/witness-3") != std::string::npos, message);
  PL_REQUIRE_OK(pl_job_release(labelled));

  pl_job* unlabelled = finished_job(p, bad, nullptr);
  CHECK(pl_job_outcome(unlabelled) == PL_ERR_BAD_INPUT);
  message = pl_last_error_message();
  CHECK_MESSAGE(message.find("(job '") == std::string::npos, message);
  PL_REQUIRE_OK(pl_job_release(unlabelled));
}

}  // namespace proofline::capi_test
