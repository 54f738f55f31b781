// pl_pipeline_metrics: the pipeline's Prometheus page through the C ABI, sized like every text output, and
// its counters agreeing with pl_pipeline_stats.
#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <vector>

#include "capi_test_support.hpp"

namespace proofline::capi_test {

TEST_CASE("capi/metrics/the Prometheus page counts the proofs made and is sized like every text") {
  Prover p;
  std::vector<pl_job*> jobs(3);
  for (pl_job*& job : jobs)
    PL_REQUIRE_OK(pl_submit_wtns(p.pipeline, p.key, fixture("witness.wtns").c_str(), nullptr, &job));
  PL_REQUIRE_OK(pl_pipeline_drain(p.pipeline));
  for (pl_job* job : jobs) PL_REQUIRE_OK(pl_job_release(job));

  std::size_t needed = 0;
  CHECK(pl_pipeline_metrics(p.pipeline, nullptr, 0, &needed) == PL_ERR_BUFFER_TOO_SMALL);
  REQUIRE(needed > 1);
  std::vector<char> text(needed);
  CHECK(pl_pipeline_metrics(p.pipeline, text.data(), needed - 1, nullptr) == PL_ERR_BUFFER_TOO_SMALL);
  PL_REQUIRE_OK(pl_pipeline_metrics(p.pipeline, text.data(), needed, nullptr));
  const std::string page(text.data());
  CHECK(page.size() == needed - 1);
  for (const char* line :
       {"# TYPE proofline_proofs_total counter\n", "proofline_proofs_total 3\n",
        "proofline_proof_seconds_count 3\n", "proofline_proof_seconds_bucket{le=\"+Inf\"} 3\n",
        "proofline_pinned_bytes{state=\"leased\"} 0\n",
        "proofline_pipeline_info{backend=\"cpu\",mode=\"pinned\"} 1\n"})
    CHECK_MESSAGE(page.find(line) != std::string::npos, line);
  CHECK(pl_pipeline_metrics(nullptr, text.data(), needed, nullptr) == PL_ERR_INVALID_HANDLE);
}

}  // namespace proofline::capi_test
