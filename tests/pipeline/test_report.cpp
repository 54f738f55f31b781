// The run report: built from a real run's spans and stats, it holds the numbers batch_prove prints, and its
// JSON parses and carries every field.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include <proofline/graph/report.hpp>
#include <proofline/groth16/json.hpp>

#include "pipeline/helpers.hpp"

using namespace proofline;
using namespace proofline::graph;
using namespace proofline::graph::test;

TEST_CASE("pipeline/report/a run's report carries its numbers and its JSON every field") {
  const Circuit& c = circuit(8);
  TestConfig config = cpu_config();
  config.verify = true;
  config.slots = 3;
  // The first job to reach synthesis stays there until two others hold their slots, so all three slots are
  // in flight at once however the threads run (and those two wait for a synthesis permit meanwhile).
  std::atomic<Pipeline*> self{nullptr};
  std::atomic<bool> first{true};
  config.fault_hook = [&](Stage stage, JobId) {
    if (stage != Stage::synthesis || !first.exchange(false)) return;
    eventually(
        [&] {
          Pipeline* p = self.load();
          return p != nullptr && p->stats().slots_in_flight >= 3;
        },
        std::chrono::seconds(30));
  };
  Pipeline pipeline = make_pipeline(config);
  self = &pipeline;
  const KeyHandle key = pipeline.add_key(c.spec("n8"));
  const auto start = std::chrono::steady_clock::now();
  std::vector<Submission> submitted;
  for (std::uint64_t i = 0; i < 6; ++i) submitted.push_back(pipeline.submit(job(c, key, i)));
  for (auto& s : submitted) CHECK(await(s).ok());
  pipeline.shutdown();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const RunReport report =
      make_run_report(recorder(pipeline).snapshot(), run_roles(pipeline), pipeline.stats(), 6, wall);
  CHECK(report.backend == "cpu");
  CHECK(report.proofs == 6);
  CHECK(report.verified == 6);
  CHECK(report.failed == 0);
  CHECK(report.not_submitted == 0);
  // A run stopped before it submitted its whole batch says how many were never submitted.
  const RunReport stopped =
      make_run_report(recorder(pipeline).snapshot(), run_roles(pipeline), pipeline.stats(), 10, wall);
  CHECK(stopped.not_submitted == 4);
  CHECK(report_summary(stopped).find("proofs 6/10 (verified 6), failed 0, never submitted 4") !=
        std::string::npos);
  CHECK(report.proofs_per_s == doctest::Approx(6 / wall));
  CHECK(report.max_inflight_slots == 3);
  // One job synthesized at a time until two waited behind the first, more than its permit could serve: then
  // two permits (synthesis_concurrency).
  CHECK(report.max_synthesis_permits == 2);
  CHECK(report.pool.leased_bytes_at_exit == 0);
  CHECK(report.pool.leases == 6);
  CHECK(report.pool.pin_calls_after_warmup == 0);
  CHECK_FALSE(report.gpu_busy_fraction);  // no GPU
  CHECK_FALSE(report.h2d_gbps);
  CHECK(report.gpu_busy_each.empty());
  CHECK(report.h2d_gbps_each.empty());
  CHECK(report.budget.host_total == 256ull << 20);
  CHECK(report.budget.host_high_water > 0);
  for (const char* stage : {"admission", "synthesis", "ntt", "msm", "release"}) {
    CAPTURE(stage);
    const auto it = std::find_if(report.stages.begin(), report.stages.end(),
                                 [&](const StageReport& s) { return s.name == stage; });
    REQUIRE(it != report.stages.end());
    CHECK(it->count == 6);
    CHECK(it->p50_ms <= it->p99_ms);
    CHECK(it->busy_s > 0);
  }
  // The CPU backend's report speaks of the CPU: no GPU, no H2D, no pinning. Which bound it names depends on
  // how the threads ran (a loaded machine can leave the H and MSM stages short of saturated).
  CHECK_MESSAGE((report.verdict.find("CPU compute") != std::string::npos ||
                 report.verdict.find("CPU bound") != std::string::npos ||
                 report.verdict.find("slot-cap bound") != std::string::npos),
                report.verdict);
  CHECK(report.verdict.find("GPU") == std::string::npos);
  CHECK(report.verdict.find("H2D") == std::string::npos);
  const std::string summary = report_summary(report);
  CHECK_MESSAGE(summary.find("[cpu, pooled slots]") != std::string::npos, summary);
  CHECK_MESSAGE(summary.find("synthesis up to 2 jobs at once") != std::string::npos, summary);
  CHECK_MESSAGE(summary.find("GPU") == std::string::npos, summary);
  CHECK_MESSAGE(summary.find("pin calls") == std::string::npos, summary);

  const groth16::json::Value doc = groth16::json::parse(report_json(report), "report");
  for (const char* field :
       {"jobs", "not_submitted", "proofs", "failed", "cancelled", "retried", "verified", "wall_s",
        "proofs_per_s", "max_inflight_slots", "max_synthesis_permits", "gpu_busy_fraction", "h2d_gbps",
        "gpu_busy_each", "h2d_gbps_each", "stages", "pool", "budget", "verdict"})
    CHECK_MESSAGE(doc.find(field) != nullptr, field);
  for (const char* field : {"leases", "hits", "misses", "pin_calls", "pin_calls_after_warmup", "pin_s",
                            "bytes_pinned", "high_water_bytes", "leased_bytes_at_exit"})
    CHECK_MESSAGE(doc.at("pool").find(field) != nullptr, field);
  CHECK(doc.at("budget").find("host_total") != nullptr);
  CHECK(doc.at("budget").find("host_high_water") != nullptr);
  CHECK(doc.at("stages").at("synthesis").find("p99_ms") != nullptr);
  CHECK(doc.at("proofs").as_u64() == 6);
  CHECK(doc.at("gpu_busy_fraction").is_null());
  CHECK(report_summary(report).find("proofs 6/6") != std::string::npos);
}

TEST_CASE(
    "pipeline/report/each GPU's device slots, MSM tables and VRAM reach the report, its JSON and summary") {
  PipelineStats stats;
  stats.backend = Backend::cuda;
  for (const int device : {0, 1}) {
    GpuStats gpu;
    gpu.device = device;
    gpu.device_slots = 3 + device;
    gpu.msm_tables = 5 - device;
    gpu.msm_table_bytes = (99ull - 33 * device) << 30;
    gpu.vram.total = 132ull << 30;
    gpu.vram.high_water = (120ull + device) << 30;
    stats.gpus.push_back(gpu);
  }
  const RunReport report = make_run_report(trace::Snapshot{}, trace::RunRoles{}, stats, 0, 1.0);
  REQUIRE(report.gpu_memory.size() == 2);
  CHECK(report.gpu_memory[1].device_slots == 4);
  CHECK(report.gpu_memory[1].msm_tables == 4);
  CHECK(report.gpu_memory[1].msm_table_bytes == 66ull << 30);
  CHECK(report.gpu_memory[1].vram_budget == 132ull << 30);
  CHECK(report.gpu_memory[1].vram_high_water == 121ull << 30);

  const groth16::json::Value doc = groth16::json::parse(report_json(report), "report");
  const groth16::json::Value& first = doc.at("gpu_memory").at(std::size_t{0});
  CHECK(first.at("device_slots").as_u64() == 3);
  CHECK(first.at("msm_tables").as_u64() == 5);
  CHECK(first.at("msm_table_bytes").as_u64() == 99ull << 30);
  CHECK(first.at("vram_budget").as_u64() == 132ull << 30);
  CHECK(first.at("vram_high_water").as_u64() == 120ull << 30);
  const std::string summary = report_summary(report);
  CHECK_MESSAGE(summary.find("vram: GPU 0 3 device slots, MSM tables for 5 queries (99.00 GiB), high water "
                             "120.00 GiB of 132.00 GiB") != std::string::npos,
                summary);
  CHECK_MESSAGE(
      summary.find("vram: GPU 1 4 device slots, MSM tables for 4 queries (66.00 GiB)") != std::string::npos,
      summary);
}

TEST_CASE("pipeline/report/an idle pipeline records no counter samples") {
  const Circuit& c = circuit(8);
  TestConfig config = cpu_config();
  config.trace_memory = 0;  // each recording thread keeps one or two chunks, more than four jobs fill
  Pipeline pipeline = make_pipeline(config);
  const KeyHandle key = pipeline.add_key(c.spec("n8"));
  std::vector<Submission> submitted;
  for (std::uint64_t i = 0; i < 4; ++i) submitted.push_back(pipeline.submit(job(c, key, i)));
  for (auto& s : submitted) CHECK(await(s).ok());
  pipeline.drain();
  // The supervisor samples every 20 ms at most, and only what changed: 200 ms of idling adds nothing.
  std::this_thread::sleep_for(std::chrono::milliseconds(60));
  const std::size_t before = recorder(pipeline).snapshot().counters.size();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  CHECK(recorder(pipeline).snapshot().counters.size() == before);
  CHECK(recorder(pipeline).snapshot().dropped == 0);  // four jobs fill no chunk
}
