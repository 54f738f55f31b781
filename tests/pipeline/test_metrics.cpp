// The pipeline's figures as Prometheus metrics: counters that match what happened, latency histograms
// that count each proved job once in cumulative buckets, and a page a scraper can parse.
#include <doctest/doctest.h>

#include <cstdint>
#include <map>
#include <sstream>
#include <string>

#include <proofline/graph/metrics.hpp>

#include "pipeline/helpers.hpp"

using namespace proofline;
using namespace proofline::graph;
using namespace proofline::graph::test;

namespace {

/// The samples of a page, by their name and labels as written ("name{a=\"x\"}"), after checking that each
/// sample line follows its family's HELP and TYPE lines.
std::map<std::string, double> samples_of(const std::string& page) {
  std::map<std::string, double> samples;
  std::istringstream lines(page);
  std::string line, family;
  while (std::getline(lines, line)) {
    REQUIRE_FALSE(line.empty());
    if (line.starts_with("# HELP ")) {
      family = line.substr(7, line.find(' ', 7) - 7);
      continue;
    }
    if (line.starts_with("# TYPE ")) {
      CHECK(line.substr(7, family.size()) == family);
      continue;
    }
    const auto space = line.rfind(' ');
    const std::string key = line.substr(0, space);
    CHECK(key.starts_with(family));
    CHECK(samples.emplace(key, std::stod(line.substr(space + 1))).second);
  }
  return samples;
}

}  // namespace

TEST_CASE("pipeline/metrics/counters and latency histograms of a run, as a Prometheus page") {
  const Circuit& c = circuit(8);
  constexpr std::uint64_t jobs = 6;
  TestConfig config = cpu_config();
  config.fault_hook = [](Stage at, JobId id) {
    if (at == Stage::msm && id == jobs + 1) throw Error(Errc::io, "injected fault");
  };
  Pipeline pipeline = make_pipeline(config);
  const KeyHandle key = pipeline.add_key(c.spec("n8"));
  prove_and_drain(pipeline, c, key, jobs);
  auto failing = pipeline.submit(job(c, key, 99));
  CHECK(await(failing).error);
  pipeline.drain();

  const PipelineStats stats = pipeline.stats();
  CHECK(stats.proof_seconds.count == jobs);
  CHECK(stats.queued_seconds.count == jobs);
  CHECK(stats.proof_seconds.at_most.back() <= jobs);
  for (std::size_t i = 1; i < stats.proof_seconds.at_most.size(); ++i)
    CHECK(stats.proof_seconds.at_most[i - 1] <= stats.proof_seconds.at_most[i]);
  CHECK(stats.proof_seconds.sum_seconds > 0);
  CHECK(stats.queued_seconds.sum_seconds <= stats.proof_seconds.sum_seconds);

  const std::map<std::string, double> m = samples_of(metrics_text(stats));
  CHECK(m.at("proofline_pipeline_info{backend=\"cpu\",mode=\"pinned\"}") == 1);
  CHECK(m.at("proofline_jobs_submitted_total") == jobs + 1);
  CHECK(m.at("proofline_proofs_total") == jobs);
  CHECK(m.at("proofline_jobs_failed_total") == 1);
  CHECK(m.at("proofline_jobs_timed_out_total") == 0);
  CHECK(m.at("proofline_proof_seconds_count") == jobs);
  CHECK(m.at("proofline_proof_seconds_bucket{le=\"+Inf\"}") == jobs);
  CHECK(m.at("proofline_proof_seconds_bucket{le=\"1000\"}") ==
        static_cast<double>(stats.proof_seconds.at_most.back()));
  CHECK(m.at("proofline_proof_seconds_sum") == doctest::Approx(stats.proof_seconds.sum_seconds));
  CHECK(m.at("proofline_jobs_in_stage{stage=\"synthesis\"}") == 0);
  CHECK(m.at("proofline_slots_in_flight") == 0);
  CHECK(m.at("proofline_pinned_bytes{state=\"leased\"}") == 0);
  CHECK(m.at("proofline_pinned_bytes{state=\"idle\"}") == static_cast<double>(stats.pool.bytes_idle));
  CHECK(m.at("proofline_host_keys") == 1);
  CHECK(m.at("proofline_host_budget_bytes") == static_cast<double>(stats.host_budget.total));
  CHECK(m.count("proofline_gpu_info{gpu=\"0\",name=\"\"}") == 0);  // the CPU backend has no GPU families
}
