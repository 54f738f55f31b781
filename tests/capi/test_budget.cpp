// A host budget too small for a key through the C ABI: the refusal names the size that does not fit, and
// nothing stays reserved or pinned after it.
#include <unistd.h>

#include <cstdint>
#include <string>

#include <proofline/util/size.hpp>

#include "capi_test_support.hpp"

namespace proofline::capi_test {

TEST_CASE("capi/budget/a budget that holds the key but no pinned slot names the slot's pinned size") {
  // chain_16's key takes 13.17 KiB of host memory and its slot's four vectors 3.59 KiB of bytes; the CPU
  // backend pins each vector in whole pages. 20,000 bytes leave 6.36 KiB free: more than the vectors'
  // bytes, less than their pages, so a message naming the bytes alone reads as if the slot fitted.
  pl_config config = cpu_config();
  config.host_budget_bytes = 20000;
  pl_pipeline* pipeline = nullptr;
  PL_REQUIRE_OK(pl_pipeline_create(&config, &pipeline));
  pl_key* key = nullptr;
  CHECK(pl_key_add_zkey_file(pipeline, fixture("circuit_final.zkey").c_str(), nullptr, &key) ==
        PL_ERR_OUT_OF_BUDGET);
  CHECK(key == nullptr);
  const std::string message = pl_last_error_message();
  const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  CHECK_MESSAGE(message.find("pinned slot of " + format_size(4 * page)) != std::string::npos, message);
  CHECK_MESSAGE(message.find("host_budget_bytes") != std::string::npos, message);

  // The refusal gave back what it reserved: nothing is charged or pinned.
  pl_stats stats{};
  stats.size = sizeof stats;
  PL_REQUIRE_OK(pl_pipeline_stats(pipeline, &stats));
  CHECK(stats.host_budget_used == 0);
  CHECK(stats.pinned_bytes == 0);
  PL_REQUIRE_OK(pl_pipeline_destroy(pipeline));
}

}  // namespace proofline::capi_test
