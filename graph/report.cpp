#include <proofline/graph/report.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>

#include <proofline/groth16/json.hpp>
#include <proofline/trace/json_text.hpp>
#include <proofline/util/size.hpp>

namespace proofline::graph {

namespace {

namespace json = groth16::json;

/// The share of the time at which a stage counts as saturated (trace::VerdictRule's default).
const double saturated_share = trace::VerdictRule{}.saturated;

json::Value number(double value) {
  const std::string text = trace::json_number(value);
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

/// The steady state of one GPU's compute streams: from the end of the first job's work on them to the begin
/// of the last job's work on them. The fill (the first job's synthesis and copy, while the GPU has nothing
/// yet) and the drain (the last job alone) are cut off, so the fraction says whether the GPU waited for the
/// host while jobs were in flight. Nullopt with fewer than three jobs on the streams (no steady state).
std::optional<trace::Window> compute_steady_window(const trace::Snapshot& snapshot,
                                                   const std::vector<trace::TrackId>& tracks) {
  std::map<std::uint64_t, trace::Window> jobs;  // per job: its first begin and last end on these streams
  for (const trace::Span& span : snapshot.spans) {
    if (span.job == trace::no_job || std::find(tracks.begin(), tracks.end(), span.track) == tracks.end())
      continue;
    const auto [it, fresh] = jobs.try_emplace(span.job, trace::Window{span.begin_ns, span.end_ns});
    if (!fresh) {
      it->second.begin_ns = std::min(it->second.begin_ns, span.begin_ns);
      it->second.end_ns = std::max(it->second.end_ns, span.end_ns);
    }
  }
  if (jobs.size() < 3) return std::nullopt;
  const trace::Window* first = nullptr;
  const trace::Window* last = nullptr;
  for (const auto& [id, w] : jobs) {
    if (first == nullptr || w.begin_ns < first->begin_ns) first = &w;
    if (last == nullptr || w.end_ns > last->end_ns) last = &w;
  }
  const trace::Window window{first->end_ns, last->begin_ns};
  if (window.end_ns <= window.begin_ns) return std::nullopt;
  return window;
}

void fill_counts(RunReport& r, const PipelineStats& stats, std::uint64_t jobs, double wall_s) {
  r.backend = std::string(to_string(stats.backend));
  r.mode = std::string(to_string(stats.mode));
  for (const GpuStats& gpu : stats.gpus) {
    r.gpus.push_back(gpu.device);
    r.gpu_jobs.push_back(gpu.jobs);
    r.srs_stream_bytes += gpu.srs_stream_bytes;
    r.gpu_memory.push_back(
        {gpu.device_slots, gpu.msm_tables, gpu.msm_table_bytes, gpu.vram.total, gpu.vram.high_water});
  }
  r.jobs = jobs;
  // A stopped run leaves the rest of its batch unsubmitted: jobs = submitted (each ended one way) + those.
  r.not_submitted = jobs - std::min(jobs, stats.submitted);
  r.proofs = stats.proofs;
  r.failed = stats.failed - std::min(stats.failed, stats.cancelled);
  r.cancelled = stats.cancelled;
  r.retried = stats.retried;
  r.verified = stats.verified;
  r.wall_s = wall_s;
  r.proofs_per_s = wall_s > 0 ? static_cast<double>(stats.proofs) / wall_s : 0.0;
  r.max_inflight_slots = stats.max_inflight_slots;
  r.max_synthesis_permits = stats.max_synthesis_permits;
  r.tokens = stats.token_target;
  r.slot_bytes = stats.slot_bytes;
}

/// Fills the GPU busy fractions; returns the first GPU's steady window, for the verdict.
std::optional<trace::Window> fill_gpu_busy(RunReport& r, const trace::Snapshot& snapshot,
                                           const trace::RunRoles& roles) {
  std::optional<trace::Window> gpu_window;
  if (roles.compute_streams.empty()) return gpu_window;
  // Per GPU: the union of its compute streams over its own steady state (first and last job on it
  // excluded), and over the whole batch; averaged, since a union over GPUs is no utilisation.
  std::map<int, std::vector<trace::TrackId>> per_gpu;
  for (const trace::TrackId track : roles.compute_streams)
    per_gpu[snapshot.track(track).gpu].push_back(track);
  const trace::Window whole = trace::extent(snapshot);
  double sum = 0, sum_run = 0, seconds = 0;
  std::size_t counted = 0;
  r.gpu_busy_each.assign(r.gpus.size(), std::nullopt);
  for (const auto& [gpu, tracks] : per_gpu) {
    if (whole.length_ns() > 0) sum_run += trace::busy_fraction(snapshot, tracks, whole);
    const std::optional<trace::Window> window = compute_steady_window(snapshot, tracks);
    if (!window) continue;
    if (!gpu_window) gpu_window = window;
    const double busy = trace::busy_fraction(snapshot, tracks, *window);
    const auto at = std::find(r.gpus.begin(), r.gpus.end(), gpu);
    if (at != r.gpus.end()) r.gpu_busy_each[static_cast<std::size_t>(at - r.gpus.begin())] = busy;
    sum += busy;
    seconds += window->seconds();
    ++counted;
  }
  if (counted > 0) {
    r.gpu_busy_fraction = sum / static_cast<double>(counted);
    r.gpu_steady_s = seconds / static_cast<double>(counted);
  }
  if (whole.length_ns() > 0) r.gpu_busy_fraction_run = sum_run / static_cast<double>(per_gpu.size());
  return gpu_window;
}

/// The bracketed figures that end a verdict's reason (" (...)"), or nothing.
std::string reason_detail(const trace::Verdict& v) {
  return v.detail.empty() ? std::string() : " (" + v.detail + ")";
}

/// The verdict's reason, or a more specific one where the pipeline's own statistics explain the bound.
std::string verdict_reason(const trace::Verdict& v, const PipelineStats& stats, bool has_streams) {
  const std::uint64_t headroom = stats.host_budget.total > stats.host_budget.high_water
                                     ? stats.host_budget.total - stats.host_budget.high_water
                                     : 0;
  if (stats.mode == Mode::baseline && has_streams && v.bound != trace::Bound::gpu_compute &&
      v.gpu + v.h2d >= saturated_share) {
    // The old design: one mutex per GPU across H2D and compute, so the two add up instead of overlapping.
    return "GPU mutex bound (baseline mode): H2D " + std::to_string(std::lround(100 * v.h2d)) +
           "% + compute " + std::to_string(std::lround(100 * v.gpu)) +
           "% of the steady state under one mutex; the copy cannot overlap the compute" + reason_detail(v);
  }
  if (v.bound == trace::Bound::tokens && stats.slot_bytes > 0 && headroom >= stats.slot_bytes) {
    // Jobs waited for a token although the budget never ran short: the slot cap (--slots), not the
    // budget, kept them waiting; with every job submitted at once that is the queue, not a shortage.
    // In the backend's own words: the CPU backend has no GPU, and its slot cap is synthesis jobs + 2.
    return std::string("slot-cap bound: jobs queue for a ") + (has_streams ? "pinned slot" : "slot") +
           ", but the host budget always had room for " + std::to_string(headroom / stats.slot_bytes) +
           " more slots: the token count is the slot cap (Config::slots, --slots; default synthesis jobs + "
           "2" +
           (has_streams ? " per GPU" : "") + "), not the budget; no stage is saturated" + reason_detail(v);
  }
  return v.reason;
}

/// The share of the CPU worker threads' time spent in any stage over `window` (0 when there are none).
double worker_threads_busy(const trace::Snapshot& snapshot, const trace::Window& window) {
  const std::vector<trace::TrackId> workers = snapshot.tracks_of_kind(trace::TrackKind::cpu_worker);
  if (workers.empty() || window.length_ns() <= 0) return 0;
  double busy = 0;
  for (const trace::TrackId track : workers)
    busy += trace::busy_seconds(snapshot, std::span(&track, 1), window);
  return busy / (window.seconds() * static_cast<double>(workers.size()));
}

std::string run_verdict(const trace::Snapshot& snapshot, const trace::RunRoles& roles,
                        const PipelineStats& stats, const trace::Window& window) {
  if (window.length_ns() <= 0) return "no verdict: no spans";
  trace::VerdictInput input = trace::verdict_input(snapshot, roles, window);
  if (roles.compute_streams.empty()) {
    // The CPU backend has no streams: its H and MSM stages stand in for the GPU.
    std::vector<trace::StageId> compute;
    for (const char* name : {"ntt", "msm"})
      if (const auto id = snapshot.find_stage(name)) compute.push_back(*id);
    input.gpu_busy_s = trace::busy_seconds(snapshot, {}, window, compute);
    input.gpus = 1;
    input.cpu_device = true;
    input.cpu_threads_busy = worker_threads_busy(snapshot, window);
  }
  try {
    const trace::Verdict v = trace::verdict(input);
    return verdict_reason(v, stats, !roles.compute_streams.empty());
  } catch (const std::exception& e) {
    return std::string("no verdict: ") + e.what();
  }
}

void fill_pool_and_budget(RunReport& r, const PipelineStats& stats) {
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
}

}  // namespace

RunReport make_run_report(const trace::Snapshot& snapshot, const trace::RunRoles& roles,
                          const PipelineStats& stats, std::uint64_t jobs, double wall_s) {
  RunReport r;
  fill_counts(r, stats, jobs, wall_s);
  for (const trace::StageStats& s : trace::stage_stats(snapshot)) {
    r.stages.push_back(StageReport{s.name, s.count, s.busy_s, s.p50_ms, s.p99_ms, s.mean_ms, s.bytes});
  }

  const std::optional<trace::Window> steady = trace::steady_state_window(snapshot);
  if (steady) r.steady_state_s = steady->seconds();
  const std::optional<trace::Window> gpu_window = fill_gpu_busy(r, snapshot, roles);  // the first GPU's
  if (const auto h2d = snapshot.find_stage("h2d")) {
    const double rate = trace::bytes_per_second(snapshot, *h2d);
    if (rate > 0) r.h2d_gbps = rate * 1e-9;
    for (const int gpu : r.gpus) {
      const double each = trace::bytes_per_second(snapshot, *h2d, std::nullopt, gpu);
      r.h2d_gbps_each.push_back(each > 0 ? std::optional<double>(each * 1e-9) : std::nullopt);
    }
  }

  const trace::Window window = gpu_window ? *gpu_window : steady ? *steady : trace::extent(snapshot);
  r.verdict = run_verdict(snapshot, roles, stats, window);
  fill_pool_and_budget(r, stats);
  return r;
}

std::string report_json(const RunReport& r) {
  json::Value gpus = json::Value::array();
  for (const int gpu : r.gpus) gpus.push_back(json::Value(gpu));
  json::Value gpu_jobs = json::Value::array();
  for (const std::uint64_t jobs : r.gpu_jobs) gpu_jobs.push_back(json::Value(jobs));
  json::Value gpu_busy = json::Value::array(), gpu_h2d = json::Value::array();
  for (const std::optional<double>& busy : r.gpu_busy_each) gpu_busy.push_back(optional_number(busy));
  for (const std::optional<double>& rate : r.h2d_gbps_each) gpu_h2d.push_back(optional_number(rate));
  json::Value gpu_memory = json::Value::array();
  for (const RunReport::GpuMemory& m : r.gpu_memory)
    gpu_memory.push_back(json::Value::object({
        {"device_slots", json::Value(static_cast<std::uint64_t>(m.device_slots))},
        {"msm_tables", json::Value(static_cast<std::uint64_t>(m.msm_tables))},
        {"msm_table_bytes", json::Value(m.msm_table_bytes)},
        {"vram_budget", json::Value(m.vram_budget)},
        {"vram_high_water", json::Value(m.vram_high_water)},
    }));
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
  json::Value extra = json::Value::object();
  for (const auto& [name, value] : r.extra) extra.set(name, number(value));
  const json::Value doc = json::Value::object({
      {"backend", json::Value(r.backend)},
      {"mode", json::Value(r.mode)},
      {"curve", r.curve.empty() ? json::Value() : json::Value(r.curve)},
      {"gpus", gpus},
      {"gpu_jobs", gpu_jobs},
      {"gpu_busy_each", gpu_busy},
      {"h2d_gbps_each", gpu_h2d},
      {"srs_stream_bytes", json::Value(r.srs_stream_bytes)},
      {"gpu_memory", gpu_memory},
      {"jobs", json::Value(r.jobs)},
      {"not_submitted", json::Value(r.not_submitted)},
      {"proofs", json::Value(r.proofs)},
      {"failed", json::Value(r.failed)},
      {"cancelled", json::Value(r.cancelled)},
      {"retried", json::Value(r.retried)},
      {"verified", json::Value(r.verified)},
      {"wall_s", number(r.wall_s)},
      {"proofs_per_s", number(r.proofs_per_s)},
      {"max_inflight_slots", json::Value(static_cast<std::uint64_t>(r.max_inflight_slots))},
      {"max_synthesis_permits", json::Value(static_cast<std::uint64_t>(r.max_synthesis_permits))},
      {"tokens", json::Value(static_cast<std::uint64_t>(r.tokens))},
      {"slot_bytes", json::Value(r.slot_bytes)},
      {"gpu_busy_fraction", optional_number(r.gpu_busy_fraction)},
      {"gpu_busy_fraction_run", optional_number(r.gpu_busy_fraction_run)},
      {"gpu_steady_s", optional_number(r.gpu_steady_s)},
      {"h2d_gbps", optional_number(r.h2d_gbps)},
      {"steady_state_s", optional_number(r.steady_state_s)},
      {"verdict", json::Value(r.verdict)},
      {"stages", stages},
      {"pool", pool},
      {"budget", budget},
      {"extra", extra},
  });
  return json::dump(doc, 2) + "\n";
}

std::string report_summary(const RunReport& r) {
  std::string out;
  out += "proofs " + std::to_string(r.proofs) + "/" + std::to_string(r.jobs);
  if (r.verified > 0) out += " (verified " + std::to_string(r.verified) + ")";
  out += ", failed " + std::to_string(r.failed);
  if (r.cancelled > 0) out += ", cancelled " + std::to_string(r.cancelled);
  if (r.not_submitted > 0) out += ", never submitted " + std::to_string(r.not_submitted);
  if (r.retried > 0) out += ", " + std::to_string(r.retried) + " proved again after their GPU failed";
  // The CPU backend's slots are pooled page-locked host buffers, not a GPU's pinned staging.
  const std::string mode = r.backend == "cpu" && r.mode == "pinned" ? "pooled slots" : r.mode;
  out += ", wall " + fixed(r.wall_s, 2) + " s, " + fixed(r.proofs_per_s, 2) + " proofs/s [" + r.backend +
         ", " + mode + "]\n";
  if (!r.curve.empty()) out += "curve: " + r.curve + "\n";
  out += "slots: at most " + std::to_string(r.max_inflight_slots) + " in flight, " +
         std::to_string(r.tokens) + " tokens of " + format_size(r.slot_bytes) + "; synthesis up to " +
         std::to_string(r.max_synthesis_permits) + (r.max_synthesis_permits == 1 ? " job" : " jobs") +
         " at once\n";
  if (r.gpu_busy_fraction || r.h2d_gbps) {
    out += "gpu:";
    if (r.gpu_busy_fraction) out += " busy " + fixed(100 * *r.gpu_busy_fraction, 1) + "% of the steady state";
    if (r.gpu_busy_fraction_run)
      out += (r.gpu_busy_fraction ? " (" : " busy ") + fixed(100 * *r.gpu_busy_fraction_run, 1) +
             "% of the whole batch" + (r.gpu_busy_fraction ? ")" : "");
    if (r.h2d_gbps)
      out += (r.gpu_busy_fraction ? ", " : " ") + std::string("H2D ") + fixed(*r.h2d_gbps, 1) + " GB/s";
    out += "\n";
  }
  if (r.gpus.size() > 1) {
    out += "per GPU:";
    for (std::size_t i = 0; i < r.gpus.size() && i < r.gpu_jobs.size(); ++i) {
      out += ' ';
      out += std::to_string(r.gpus[i]) + ": " + std::to_string(r.gpu_jobs[i]) + " jobs";
      if (i < r.gpu_busy_each.size() && r.gpu_busy_each[i])
        out += ", busy " + fixed(100 * *r.gpu_busy_each[i], 1) + "%";
      if (i < r.h2d_gbps_each.size() && r.h2d_gbps_each[i])
        out += ", H2D " + fixed(*r.h2d_gbps_each[i], 1) + " GB/s";
      out += ";";
    }
    out += "\n";
  }
  for (std::size_t i = 0; i < r.gpus.size() && i < r.gpu_memory.size(); ++i) {
    const RunReport::GpuMemory& m = r.gpu_memory[i];
    out += "vram: GPU " + std::to_string(r.gpus[i]) + " " + std::to_string(m.device_slots) +
           " device slots, MSM tables for " + std::to_string(m.msm_tables) + " queries (" +
           format_size(m.msm_table_bytes) + "), high water " + format_size(m.vram_high_water) + " of " +
           format_size(m.vram_budget) + "\n";
  }
  if (r.srs_stream_bytes > 0)
    out += "srs: " + format_size(r.srs_stream_bytes) + " of points streamed from host memory\n";
  out += "stages (count, p50/p99 ms):";
  for (const StageReport& s : r.stages)
    out += " " + s.name + " " + std::to_string(s.count) + " " + fixed(s.p50_ms, 2) + "/" +
           fixed(s.p99_ms, 2) + ";";
  out += "\n";
  out += "pool: " + std::to_string(r.pool.leases) + " slot leases, " + std::to_string(r.pool.hits) +
         " buffer hits, " + std::to_string(r.pool.misses) + " misses, " + std::to_string(r.pool.pin_calls) +
         (r.backend == "cpu" ? " buffer allocations (" : " pin calls (") +
         std::to_string(r.pool.pin_calls_after_warmup) + " after warm-up, " + fixed(r.pool.pin_s, 3) +
         " s), high water " + format_size(r.pool.high_water_bytes) + ", leased at exit " +
         format_size(r.pool.leased_bytes_at_exit) + "\n";
  out += "budget: host " + format_size(r.budget.host_total) + ", high water " +
         format_size(r.budget.host_high_water) + "\n";
  if (!r.extra.empty()) {
    out += "extra:";
    for (const auto& [name, value] : r.extra) out += " " + name + " " + fixed(value, 3) + ";";
    out += "\n";
  }
  out += "verdict: " + r.verdict + "\n";
  return out;
}

}  // namespace proofline::graph
