// The text a Prometheus scraper parses: one HELP and TYPE per family, escaped label values, cumulative
// histogram buckets ending in +Inf, and refusals for what the format cannot carry.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include <proofline/util/error.hpp>
#include <proofline/util/prometheus.hpp>

using namespace proofline;

TEST_CASE("util/prometheus/families, labels and values") {
  PrometheusText page;
  page.counter("jobs_total", "Jobs.\nAll of them \\ really", 12);
  page.family("bytes", PrometheusText::Type::gauge, "Bytes by state.")
      .sample("bytes", 1 << 20, {{"state", "idle"}})
      .sample("bytes", 0.5, {{"state", "leased"}, {"gpu", "0"}});
  page.gauge("ratio", "A ratio.", std::numeric_limits<double>::quiet_NaN());
  page.gauge("big", "Beyond 2^53.", 18446744073709551615.0);
  page.gauge("top", "Infinite.", std::numeric_limits<double>::infinity());
  CHECK(page.text() ==
        "# HELP jobs_total Jobs.\\nAll of them \\\\ really\n"
        "# TYPE jobs_total counter\n"
        "jobs_total 12\n"
        "# HELP bytes Bytes by state.\n"
        "# TYPE bytes gauge\n"
        "bytes{state=\"idle\"} 1048576\n"
        "bytes{state=\"leased\",gpu=\"0\"} 0.5\n"
        "# HELP ratio A ratio.\n# TYPE ratio gauge\nratio NaN\n"
        "# HELP big Beyond 2^53.\n# TYPE big gauge\nbig 18446744073709551616\n"
        "# HELP top Infinite.\n# TYPE top gauge\ntop +Inf\n");
}

TEST_CASE("util/prometheus/label values are escaped and kept valid UTF-8") {
  PrometheusText page;
  page.family("key_info", PrometheusText::Type::gauge, "Keys.")
      .sample("key_info", 1, {{"name", "a \"quoted\" \\ name\nnext \xC3\xA9 \xFF"}});
  CHECK(page.text().ends_with(
      "key_info{name=\"a \\\"quoted\\\" \\\\ name\\nnext \xC3\xA9 \xEF\xBF\xBD\"} 1\n"));
}

TEST_CASE("util/prometheus/histogram buckets are cumulative and end in +Inf") {
  const std::array<double, 3> bounds{0.1, 1, 2.5};
  const std::array<std::uint64_t, 3> at_most{1, 3, 3};
  PrometheusText page;
  page.family("job_seconds", PrometheusText::Type::histogram, "Job time.")
      .histogram_samples("job_seconds", bounds, at_most, 4, 7.25, {{"key", "k"}});
  CHECK(page.text() ==
        "# HELP job_seconds Job time.\n# TYPE job_seconds histogram\n"
        "job_seconds_bucket{key=\"k\",le=\"0.1\"} 1\n"
        "job_seconds_bucket{key=\"k\",le=\"1\"} 3\n"
        "job_seconds_bucket{key=\"k\",le=\"2.5\"} 3\n"
        "job_seconds_bucket{key=\"k\",le=\"+Inf\"} 4\n"
        "job_seconds_sum{key=\"k\"} 7.25\n"
        "job_seconds_count{key=\"k\"} 4\n");
}

TEST_CASE("util/prometheus/refuses what the format cannot carry") {
  PrometheusText page;
  CHECK_THROWS_AS(page.gauge("9lives", "x", 1), Error);
  CHECK_THROWS_AS(page.gauge("has-dash", "x", 1), Error);
  CHECK_THROWS_AS(page.gauge("", "x", 1), Error);
  CHECK_THROWS_AS(page.sample("orphan", 1), Error);  // no family started
  page.gauge("ok", "x", 1);
  CHECK_THROWS_AS(page.gauge("ok", "again", 2), Error);
  CHECK_THROWS_AS(page.sample("other", 1), Error);
  CHECK_THROWS_AS(page.sample("ok_total", 1), Error);
  CHECK_THROWS_AS(page.sample("ok", 1, {{"__reserved", "x"}}), Error);
  CHECK_THROWS_AS(page.sample("ok", 1, {{"le", "x"}}), Error);
  CHECK_THROWS_AS(page.sample("ok", 1, {{"bad:label", "x"}}), Error);
  const std::array<double, 1> bounds{1};
  const std::array<std::uint64_t, 2> at_most{1, 2};
  page.family("h", PrometheusText::Type::histogram, "x");
  CHECK_THROWS_AS(page.histogram_samples("h", bounds, at_most, 2, 1), Error);
  CHECK_THROWS_AS(page.histogram_samples("ok", bounds, std::span(at_most).first(1), 2, 1), Error);
}
