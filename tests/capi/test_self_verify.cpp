// pl_config.verify with check_witness off: the witness is not checked row by row, so a proof that does not
// verify says that of the witness (PL_ERR_BAD_INPUT), not that the key's parts belong to two circuits.
#include <string>

#include "capi_test_support.hpp"

namespace proofline::capi_test {

TEST_CASE(
    "capi/self verify/without the row check a witness that fails verification is the caller's bad input") {
  pl_config config = cpu_config();
  config.check_witness = 0;
  config.verify = 1;
  Prover p(config);
  Scalars scalars = fixture_scalars();
  scalars.bytes[5 * PL_SCALAR_BYTES] ^= 1;  // still below r, but z no longer satisfies the circuit
  pl_job* job = nullptr;
  PL_REQUIRE_OK(pl_submit_scalars(p.pipeline, p.key, scalars.bytes.data(), scalars.count, nullptr, &job));
  PL_REQUIRE_OK(pl_job_wait(job, -1));
  CHECK(pl_job_outcome(job) == PL_ERR_BAD_INPUT);
  const std::string message = pl_last_error_message();
  CHECK_MESSAGE(message.find("check_witness") != std::string::npos, message);
  CHECK_MESSAGE(message.find("not of the same circuit") == std::string::npos, message);
  PL_REQUIRE_OK(pl_job_release(job));

  // The key is sound: the fixture's own witness proves, verified, on the same pipeline.
  const Scalars good = fixture_scalars();
  PL_REQUIRE_OK(pl_submit_scalars(p.pipeline, p.key, good.bytes.data(), good.count, nullptr, &job));
  PL_REQUIRE_OK(pl_job_wait(job, -1));
  PL_REQUIRE_OK(pl_job_outcome(job));
  pl_job_info info{};
  info.size = sizeof info;
  PL_REQUIRE_OK(pl_job_get_info(job, &info));
  CHECK(info.verified == 1);
  PL_REQUIRE_OK(pl_job_release(job));
}

}  // namespace proofline::capi_test
