// pl_verify and pl_verify_uncompressed with a public input count the key does not expect: judged from the
// count alone, before the inputs are read. A caller's off-by-one (z[0] counted as an input) must come back
// as the wrong count, not as a read past its buffer whose bytes then decide the error.
#include <cstdint>
#include <memory>
#include <string>

#include "capi_test_support.hpp"

namespace proofline::capi_test {

TEST_CASE(
    "capi/verify counts/a count past the caller's inputs is a wrong count and nothing past them is read") {
  Prover p;
  pl_job* job = nullptr;
  PL_REQUIRE_OK(pl_submit_wtns(p.pipeline, p.key, fixture("witness.wtns").c_str(), nullptr, &job));
  PL_REQUIRE_OK(pl_job_wait(job, -1));
  std::uint8_t proof[PL_PROOF_BYTES], points[PL_PROOF_UNCOMPRESSED_BYTES_BLS12_381];
  PL_REQUIRE_OK(pl_job_proof(job, proof, sizeof proof));
  PL_REQUIRE_OK(pl_job_proof_uncompressed(job, points, sizeof points, nullptr));
  std::size_t count = 0;
  CHECK(pl_job_public_inputs(job, nullptr, 0, &count) == PL_ERR_BUFFER_TOO_SMALL);
  REQUIRE(count == 2);
  // A heap buffer of exactly the inputs: AddressSanitizer stops a read of the third.
  const auto inputs = std::make_unique<std::uint8_t[]>(count * PL_SCALAR_BYTES);
  PL_REQUIRE_OK(pl_job_public_inputs(job, inputs.get(), count * PL_SCALAR_BYTES, &count));
  PL_REQUIRE_OK(pl_verify(p.vk, proof, sizeof proof, inputs.get(), count));

  CHECK(pl_verify(p.vk, proof, sizeof proof, inputs.get(), count + 1) == PL_ERR_PROOF_INVALID);
  CHECK_MESSAGE(std::string(pl_last_error_message()).find("3 given, the key expects 2") != std::string::npos,
                pl_last_error_message());
  CHECK(pl_verify_uncompressed(p.vk, points, sizeof points, inputs.get(), count + 1) == PL_ERR_PROOF_INVALID);
  CHECK_MESSAGE(std::string(pl_last_error_message()).find("3 given, the key expects 2") != std::string::npos,
                pl_last_error_message());
  PL_REQUIRE_OK(pl_job_release(job));
}

}  // namespace proofline::capi_test
