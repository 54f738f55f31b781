#include <proofline/graph/report.hpp>

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>

#include <proofline/graph/trace/detail/json.hpp>
#include <proofline/groth16/json.hpp>
#include <proofline/util/size.hpp>

namespace proofline::pipeline {

namespace {

namespace json = groth16::json;

json::Value number(double value) {
  const std::string text = trace::detail::json_number(value);
  return text == "null" ? json::Value() : json::Value::number(text);
}

json::Value optional_number(const std::optional<double>& value) {
  return value ? number(*value) : json::Value();
}

std::string fixed(double value, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

}  // namespace

RunReport make_run_report(const trace::Snapshot& snapshot, const trace::RunRoles& roles,
                          const PipelineStats& stats, std::uint64_t jobs, double wall_s) {
  RunReport r;
  r.backend = std::string(to_string(stats.backend));
  r.mode = std::string(to_string(stats.mode));
  for (const GpuStats& gpu : stats.gpus) r.gpus.push_back(gpu.device);
  r.jobs = jobs;
  r.proofs = stats.proofs;
  r.failed = stats.failed;
  r.verified = stats.verified;
  r.wall_s = wall_s;
  r.proofs_per_s = wall_s > 0 ? static_cast<double>(stats.proofs) / wall_s : 0.0;
  r.max_inflight_slots = stats.max_inflight_slots;
  r.tokens = stats.token_target;
  r.slot_bytes = stats.slot_bytes;

  for (const trace::StageStats& s : trace::stage_stats(snapshot)) {
    r.stages.push_back(StageReport{s.name, s.count, s.busy_s, s.p50_ms, s.p99_ms, s.mean_ms, s.bytes});
  }

  const std::optional<trace::Window> steady = trace::steady_state_window(snapshot);
  if (steady) r.steady_state_s = steady->seconds();
  if (steady && !roles.compute_streams.empty()) {
    // Per GPU: the union of its compute streams over the window; averaged, since a union over GPUs is no
    // utilisation.
    std::map<int, std::vector<trace::TrackId>> per_gpu;
    for (const trace::TrackId track : roles.compute_streams)
      per_gpu[snapshot.track(track).gpu].push_back(track);
    double sum = 0;
    for (const auto& [gpu, tracks] : per_gpu) sum += trace::busy_fraction(snapshot, tracks, *steady);
    r.gpu_busy_fraction = sum / static_cast<double>(per_gpu.size());
  }
  if (const auto h2d = snapshot.find_stage("h2d")) {
    const double rate = trace::bytes_per_second(snapshot, *h2d);
    if (rate > 0) r.h2d_gbps = rate * 1e-9;
  }

  const trace::Window window = steady ? *steady : trace::extent(snapshot);
  if (window.length_ns() > 0) {
    trace::VerdictInput input = trace::verdict_input(snapshot, roles, window);
    std::string prefix;
    if (roles.compute_streams.empty()) {
      // The CPU backend has no streams: its H and MSM stages stand in for the GPU.
      std::vector<trace::StageId> compute;
      for (const char* name : {"ntt", "msm"})
        if (const auto id = snapshot.find_stage(name)) compute.push_back(*id);
      input.gpu_busy_s = trace::busy_seconds(snapshot, {}, window, compute);
      input.gpus = 1;
      prefix = "(CPU backend: the H and MSM stages count as the device) ";
    }
    try {
      r.verdict = prefix + trace::verdict(input).reason;
    } catch (const std::exception& e) {
      r.verdict = std::string("no verdict: ") + e.what();
    }
  } else {
    r.verdict = "no verdict: no spans";
  }

  r.pool.leases = stats.pool.slot_leases;
  r.pool.hits = stats.pool.reuse_hits;
  r.pool.misses = stats.pool.misses;
  r.pool.pin_calls = stats.pool.pin_calls;
  r.pool.pin_calls_after_warmup = stats.pool.pin_calls_since_warm;
  r.pool.pin_s = stats.pool.pin_seconds;
  r.pool.bytes_pinned = stats.pool.bytes_pinned;
  r.pool.high_water_bytes = stats.pool.high_water;
  r.pool.leased_bytes_at_exit = stats.pool.bytes_leased;
  r.budget.host_total = stats.host_budget.total;
  r.budget.host_high_water = stats.host_budget.high_water;
  return r;
}

std::string report_json(const RunReport& r) {
  json::Value gpus = json::Value::array();
  for (const int gpu : r.gpus) gpus.push_back(json::Value(gpu));
  json::Value stages = json::Value::object();
  for (const StageReport& s : r.stages) {
    stages.set(s.name, json::Value::object({{"count", json::Value(static_cast<std::uint64_t>(s.count))},
                                            {"busy_s", number(s.busy_s)},
                                            {"p50_ms", number(s.p50_ms)},
                                            {"p99_ms", number(s.p99_ms)},
                                            {"mean_ms", number(s.mean_ms)},
                                            {"bytes", json::Value(s.bytes)}}));
  }
  const json::Value pool = json::Value::object({
      {"leases", json::Value(r.pool.leases)},
      {"hits", json::Value(r.pool.hits)},
      {"misses", json::Value(r.pool.misses)},
      {"pin_calls", json::Value(r.pool.pin_calls)},
      {"pin_calls_after_warmup", json::Value(r.pool.pin_calls_after_warmup)},
      {"pin_s", number(r.pool.pin_s)},
      {"bytes_pinned", json::Value(r.pool.bytes_pinned)},
      {"high_water_bytes", json::Value(r.pool.high_water_bytes)},
      {"leased_bytes_at_exit", json::Value(r.pool.leased_bytes_at_exit)},
  });
  const json::Value budget = json::Value::object({
      {"host_total", json::Value(r.budget.host_total)},
      {"host_high_water", json::Value(r.budget.host_high_water)},
  });
  const json::Value doc = json::Value::object({
      {"backend", json::Value(r.backend)},
      {"mode", json::Value(r.mode)},
      {"gpus", gpus},
      {"jobs", json::Value(r.jobs)},
      {"proofs", json::Value(r.proofs)},
      {"failed", json::Value(r.failed)},
      {"verified", json::Value(r.verified)},
      {"wall_s", number(r.wall_s)},
      {"proofs_per_s", number(r.proofs_per_s)},
      {"max_inflight_slots", json::Value(static_cast<std::uint64_t>(r.max_inflight_slots))},
      {"tokens", json::Value(static_cast<std::uint64_t>(r.tokens))},
      {"slot_bytes", json::Value(r.slot_bytes)},
      {"gpu_busy_fraction", optional_number(r.gpu_busy_fraction)},
      {"h2d_gbps", optional_number(r.h2d_gbps)},
      {"steady_state_s", optional_number(r.steady_state_s)},
      {"verdict", json::Value(r.verdict)},
      {"stages", stages},
      {"pool", pool},
      {"budget", budget},
  });
  return json::dump(doc, 2) + "\n";
}

std::string report_summary(const RunReport& r) {
  std::string out;
  out += "proofs " + std::to_string(r.proofs) + "/" + std::to_string(r.jobs);
  if (r.verified > 0) out += " (verified " + std::to_string(r.verified) + ")";
  out += ", failed " + std::to_string(r.failed) + ", wall " + fixed(r.wall_s, 2) + " s, " +
         fixed(r.proofs_per_s, 2) + " proofs/s [" + r.backend + ", " + r.mode + "]\n";
  out += "slots: at most " + std::to_string(r.max_inflight_slots) + " in flight, " +
         std::to_string(r.tokens) + " tokens of " + format_size(r.slot_bytes) + "\n";
  if (r.gpu_busy_fraction || r.h2d_gbps) {
    out += "gpu:";
    if (r.gpu_busy_fraction) out += " busy " + fixed(100 * *r.gpu_busy_fraction, 1) + "% of the steady state";
    if (r.h2d_gbps)
      out += (r.gpu_busy_fraction ? ", " : " ") + std::string("H2D ") + fixed(*r.h2d_gbps, 1) + " GB/s";
    out += "\n";
  }
  out += "stages (count, p50/p99 ms):";
  for (const StageReport& s : r.stages)
    out += " " + s.name + " " + std::to_string(s.count) + " " + fixed(s.p50_ms, 2) + "/" +
           fixed(s.p99_ms, 2) + ";";
  out += "\n";
  out += "pool: " + std::to_string(r.pool.leases) + " slot leases, " + std::to_string(r.pool.hits) +
         " buffer hits, " + std::to_string(r.pool.misses) + " misses, " + std::to_string(r.pool.pin_calls) +
         " pin calls (" + std::to_string(r.pool.pin_calls_after_warmup) + " after warm-up, " +
         fixed(r.pool.pin_s, 3) + " s), high water " + format_size(r.pool.high_water_bytes) +
         ", leased at exit " + format_size(r.pool.leased_bytes_at_exit) + "\n";
  out += "budget: host " + format_size(r.budget.host_total) + ", high water " +
         format_size(r.budget.host_high_water) + "\n";
  out += "verdict: " + r.verdict + "\n";
  return out;
}

}  // namespace proofline::pipeline
