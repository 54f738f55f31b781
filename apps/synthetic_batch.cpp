#include "synthetic_batch.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include <proofline/cpu/parallel_copy.hpp>
#include <proofline/graph/observe.hpp>
#include <proofline/groth16/proof.hpp>
#include <proofline/groth16/proof_json.hpp>
#include <proofline/groth16/snarkjs_json.hpp>
#include <proofline/trace/chrome_trace.hpp>
#include <proofline/trace/timeline_svg.hpp>
#include <proofline/util/options.hpp>
#include <proofline/util/size.hpp>

#include "batch_common.hpp"
#include "snarkjs_export.hpp"
#include "synthetic_keys.hpp"

namespace proofline::apps {

namespace {

namespace fs = std::filesystem;
using Run = BatchOptions::Run;

/// "pinned", "baseline-pre", ...: what a run's files are called apart.
std::string run_name(const Run& run) {
  return std::string(graph::to_string(run.mode)) + (run.presynthesized ? "-pre" : "");
}

/// `path` with the run's name before its extension (run.json -> run.pinned.json) when several runs are made.
fs::path for_run(const fs::path& path, const Run& run, bool several) {
  if (!several) return path;
  fs::path out = path;
  out.replace_filename(path.stem().string() + "." + run_name(run) + path.extension().string());
  return out;
}

std::string job_name(std::uint64_t index) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "proof-%06llu", static_cast<unsigned long long>(index));
  return buffer;
}

/// The slot's views in Curve's scalars: z, a, b, c.
template <class Curve>
std::array<std::span<typename Curve::Fr>, 4> views(const graph::WitnessTarget& t) {
  if constexpr (std::is_same_v<Curve, Bn254>)
    return {t.bn254_z.unchecked(), t.bn254_a.unchecked(), t.bn254_b.unchecked(), t.bn254_c.unchecked()};
  else
    return {t.z.unchecked(), t.a.unchecked(), t.b.unchecked(), t.c.unchecked()};
}

/// The jobs' sizes for titles: "2^22", or "2^22/2^16" in --synthetic's order.
std::string rows_text(const BatchOptions& o) {
  std::string out;
  for (const unsigned log2 : o.sizes) out.append(out.empty() ? "2^" : "/2^").append(std::to_string(log2));
  return out;
}

/// Key `k`'s options (of --keys): its circuit's seed and its share of the jobs; the H2D probe runs once.
BatchOptions key_options(const BatchOptions& o, unsigned k) {
  BatchOptions one = o;
  one.seed = o.seed + k;
  one.log2 = o.sizes[k % o.sizes.size()];
  one.sizes = {one.log2};
  one.count = (o.count - k + o.keys - 1) / o.keys;  // jobs k, k + keys, ...
  one.h2d_probe = o.h2d_probe && k == 0;
  return one;
}

/// The keys' setups (made on the first run, once the backend is known), in --keys order.
template <class Curve>
using Setups = std::vector<SyntheticSetup<Curve>>;

/// Job `index`'s witness (the index among its key's jobs, `o` its key's options): synthesized in the slot,
/// or copied there from the presynthesized jobs.
template <class Curve>
graph::WitnessSource witness_of(const BatchOptions& o, const Run& run, const SyntheticSetup<Curve>& s,
                                std::uint64_t index) {
  using F = typename Curve::Fr;
  if (!run.presynthesized)
    return graph::WitnessCallback{[cs = s.cs, options = s.circuit_options,
                                   seed = witness_seed(o, index)](const graph::WitnessTarget& t) {
                                    groth16::synthetic_witness_into(*cs, options, seed, views<Curve>(t)[0]);
                                  },
                                  graph::WitnessCallback::Fills::witness, Curve::id};
  std::shared_ptr<const Presynthesized<Curve>> made = s.presynthesized[index % s.presynthesized.size()];
  return graph::WitnessCallback{[made](const graph::WitnessTarget& t) {
                                  const auto [z, a, b, c] = views<Curve>(t);
                                  cpu::parallel_copy<F>(made->z, z);
                                  cpu::parallel_copy<F>(made->a, a);
                                  cpu::parallel_copy<F>(made->b, b);
                                  cpu::parallel_copy<F>(made->c, c);
                                },
                                graph::WitnessCallback::Fills::witness_and_abc, Curve::id};
}

/// Where a run's proofs go: DIR, or DIR/RUN with several runs (made here, before the batch).
fs::path proof_dir(const BatchOptions& o, const Run& run) {
  if (o.runs.size() == 1) return *o.out;
  const fs::path dir = *o.out / run_name(run);
  std::error_code error;
  fs::create_directories(dir, error);
  if (error) throw UnusableInput("--out: cannot create directory '" + dir.string() + "': " + error.message());
  return dir;
}

/// Each proof as soon as it is made: BLS12-381's as LABEL.json and its 192-byte encoding as LABEL.bin,
/// BN254's as snarkjs's LABEL.json and LABEL.public.json (the 192-byte encoding is BLS12-381's).
ResultCollector::Writer proof_writer(const BatchOptions& o, const Run& run) {
  if (!o.out) return {};
  return [dir = proof_dir(o, run)](const graph::JobResult& r) {
    if (r.curve == CurveId::bn254) {
      groth16::write_snarkjs_proof(dir / (r.label + ".json"), *r.bn254_proof);
      groth16::write_snarkjs_public(dir / (r.label + ".public.json"), r.bn254_public_inputs);
      return;
    }
    write_file(dir / (r.label + ".json"), groth16::write_proof_json(*r.proof));
    const auto bytes = groth16::encode_proof(*r.proof);
    write_file(dir / (r.label + ".bin"), std::string(bytes.begin(), bytes.end()));
  };
}

/// The pipeline's configuration for one run: its mode, results into `results`. Either curve runs on the
/// backend asked for (automatic: the GPU when there is one).
graph::Config run_config(const BatchOptions& o, const Run& run, ResultCollector& results) {
  graph::Config config = o.config;
  config.mode = run.mode;
  // Presynthesized jobs bring a, b and c with z: the GPU has nothing to evaluate, so the keys' constraint
  // systems stay on the host and the pool is prewarmed with slots of all four vectors, which the jobs lease.
  if (run.presynthesized) config.gpu_evaluate = false;
  // Keys of several sizes: the device slots hold the largest, whichever key comes first.
  config.max_log_n = o.log2;
  results.attach(config, proof_writer(o, run));
  return config;
}

/// The registered keys and what the GPUs had loaded when the batch began.
struct Registered {
  std::vector<graph::KeyHandle> keys;
  std::vector<std::vector<int>> gpus;  ///< each key's placement (empty: every GPU)
  std::uint64_t srs_loads = 0;         ///< SRS uploads to every GPU by the end of registration
};

std::uint64_t srs_loads(const graph::PipelineStats& stats) {
  std::uint64_t loads = 0;
  for (const graph::GpuStats& gpu : stats.gpus) loads += gpu.keys.loads;
  return loads;
}

/// Where --key-gpus puts key `k`: every GPU, or the (k mod count)-th of the pipeline's alone.
std::vector<int> placement(const BatchOptions& o, graph::Pipeline& prover, unsigned k) {
  if (o.key_placement == BatchOptions::KeyPlacement::every_gpu) return {};
  if (prover.backend() != graph::Backend::cuda)
    throw OptionError("--key-gpus spread places keys on GPUs; the " +
                      std::string(graph::to_string(prover.backend())) + " backend has none");
  const std::vector<graph::GpuStats> gpus = prover.stats().gpus;
  return {gpus[k % gpus.size()].device};
}

/// The keys' setup time, all of them.
template <class Curve>
double setup_seconds(const Setups<Curve>& setups) {
  double seconds = 0;
  for (const SyntheticSetup<Curve>& s : setups) seconds += s.setup_s;
  return seconds;
}

template <class Curve>
void print_setup(const BatchOptions& o, const Run& run, const Setups<Curve>& setups,
                 const Registered& registered, graph::Pipeline& prover) {
  const graph::PipelineStats stats = prover.stats();
  double presynthesis_s = 0;
  std::size_t presynthesized = 0;
  for (const SyntheticSetup<Curve>& s : setups) {
    presynthesis_s += s.presynthesis_s;
    presynthesized += s.presynthesized.size();
  }
  const SyntheticSetup<Curve>& s = setups.front();
  std::printf(
      "batch_prove: %llu jobs of %s rows on the %s backend (%s mode), %s keys %s in %.2f s, %zu tokens "
      "of %s\n",
      static_cast<unsigned long long>(o.count), rows_text(o).c_str(),
      std::string(graph::to_string(prover.backend())).c_str(),
      std::string(graph::to_string(prover.mode())).c_str(), std::string(Curve::name).c_str(),
      s.loaded ? "loaded" : "made", setup_seconds(setups), stats.token_target,
      format_size(stats.slot_bytes).c_str());
  if (setups.size() > 1)
    for (std::size_t k = 0; k < setups.size(); ++k) {
      std::string where;
      if (prover.backend() == graph::Backend::cuda)
        where = registered.gpus[k].empty() ? " on every GPU"
                                           : " on GPU " + std::to_string(registered.gpus[k].front());
      std::printf("batch_prove: key %zu '%s'%s\n", k,
                  groth16::synthetic_circuit_name(setups[k].circuit_options).c_str(), where.c_str());
    }
  if (run.presynthesized)
    std::printf("batch_prove: %zu distinct jobs presynthesized in %.2f s (reused round robin)\n",
                presynthesized, presynthesis_s);
  if (s.probe)
    std::printf(
        "batch_prove: H2D probe under the load of %zu jobs synthesizing: pinned %.1f GB/s (%d copies), "
        "pageable %.1f GB/s (%d copies) of %s\n",
        s.probe_load_jobs, s.probe->pinned_gbps, s.probe->pinned_copies, s.probe->pageable_gbps,
        s.probe->pageable_copies, format_size(s.probe->bytes).c_str());
  std::fflush(stdout);
}

/// Builds the pipeline and registers the keys (making them on the first run). Everything up to the first
/// submission is setup: an error there is unusable input or options (exit 2).
template <class Curve>
Registered start_pipeline(const BatchOptions& o, const Run& run, const graph::Config& config,
                          Setups<Curve>& setups, std::optional<graph::Pipeline>& prover) {
  return setup_step([&] {
    prover.emplace(make_pipeline_with_fault(config, o.fault, o.count));
    Registered registered;
    for (unsigned k = 0; k < o.keys; ++k) registered.gpus.push_back(placement(o, *prover, k));
    if (setups.empty())
      for (unsigned k = 0; k < o.keys; ++k)
        setups.push_back(make_synthetic_setup<Curve>(key_options(o, k), config, prover->backend()));
    for (unsigned k = 0; k < o.keys; ++k) {
      const SyntheticSetup<Curve>& s = setups[k];
      registered.keys.push_back(prover->add_key(graph::BasicKeySpec<Curve>{
          groth16::synthetic_circuit_name(s.circuit_options), s.pk, s.cs, s.vk, registered.gpus[k]}));
    }
    registered.srs_loads = srs_loads(prover->stats());
    if (!o.plan) print_setup(o, run, setups, registered, *prover);
    return registered;
  });
}

/// The batch's wall time, its window on the recorder's clock, and the SRS uploads it made (read before
/// shutdown frees the GPUs' resources and their counters).
struct BatchTimes {
  double wall_s = 0;
  trace::Window window;
  std::uint64_t srs_loads = 0;
};

template <class Curve>
BatchTimes prove_batch(const BatchOptions& o, const Run& run, const Setups<Curve>& setups,
                       graph::Pipeline& prover, const Registered& registered, ResultCollector& results) {
  std::vector<BatchOptions> per_key;
  for (unsigned k = 0; k < o.keys; ++k) per_key.push_back(key_options(o, k));
  results.start_progress(o.progress, o.count);
  const auto start = std::chrono::steady_clock::now();
  BatchTimes times;
  times.window.begin_ns = graph::recorder(prover).now_ns();
  prove_until_stopped(
      prover, o.count,
      [&](std::uint64_t i) {
        const std::uint64_t k = i % o.keys;
        return graph::Job{.key = registered.keys[k],
                          .witness = witness_of(per_key[k], run, setups[k], i / o.keys),
                          .label = job_name(i)};
      },
      results, "batch_prove");
  times.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  times.window.end_ns = graph::recorder(prover).now_ns();
  times.srs_loads = srs_loads(prover.stats()) - registered.srs_loads;
  prover.shutdown();
  results.finish_progress();
  return times;
}

template <class Curve>
graph::RunReport make_report(const BatchOptions& o, const Run& run, const Setups<Curve>& setups,
                             graph::Pipeline& prover, const BatchTimes& times) {
  const graph::PipelineStats stats = prover.stats();
  graph::RunReport report = graph::make_run_report(graph::recorder(prover).snapshot(),
                                                   graph::run_roles(prover), stats, o.count, times.wall_s);
  const SyntheticSetup<Curve>& s = setups.front();
  report.curve = std::string(Curve::name);
  report.extra.emplace_back("log2", static_cast<double>(o.log2));
  if (o.sizes.size() > 1)
    report.extra.emplace_back("log2_smallest", *std::min_element(o.sizes.begin(), o.sizes.end()));
  report.extra.emplace_back("presynthesized", run.presynthesized ? 1.0 : 0.0);
  report.extra.emplace_back("setup_s", setup_seconds(setups));
  report.extra.emplace_back("keys", static_cast<double>(o.keys));
  // Keys that stay where they were registered upload no SRS during the batch.
  if (prover.backend() == graph::Backend::cuda)
    report.extra.emplace_back("srs_loads_in_batch", static_cast<double>(times.srs_loads));
  if (s.probe) {
    report.extra.emplace_back("probe_pinned_h2d_gbps", s.probe->pinned_gbps);
    report.extra.emplace_back("probe_pageable_h2d_gbps", s.probe->pageable_gbps);
    report.extra.emplace_back("probe_bytes", static_cast<double>(s.probe->bytes));
    report.extra.emplace_back("probe_load_jobs", static_cast<double>(s.probe_load_jobs));
  }
  return report;
}

void write_timeline(const fs::path& path, const BatchOptions& o, const Run& run,
                    const graph::RunReport& report, const trace::Snapshot& snapshot,
                    const trace::Window& batch) {
  trace::TimelineOptions options;
  options.title = "batch_prove: " + std::to_string(o.count) + " jobs of " + rows_text(o) + " rows, " +
                  report.backend + ", " + report.mode + (run.presynthesized ? ", presynthesized" : "");
  // The batch only: the counters are sampled from the pipeline's start, through key setup.
  options.window = batch;
  std::vector<trace::TrackId> pool;
  for (const char* name : {"pool leased bytes", "pool idle bytes"})
    if (const auto track = snapshot.find_track(name)) pool.push_back(*track);
  if (!pool.empty())
    options.counter_charts.push_back({"pinned pool (leased, idle)", pool, trace::CounterUnit::bytes, true});
  if (const auto waiting = snapshot.find_track("jobs waiting for a token"))
    options.counter_charts.push_back(
        {"jobs waiting for a token", {*waiting}, trace::CounterUnit::count, false});
  trace::write_timeline_svg_file(snapshot, options, path.string());
}

/// The summary on stdout, failed jobs on stderr, then every file asked for (the proofs are written already).
void write_outputs(const BatchOptions& o, const Run& run, const graph::RunReport& report,
                   graph::Pipeline& prover, ResultCollector& results, const trace::Window& batch) {
  const bool several = o.runs.size() > 1;
  std::fputs(graph::report_summary(report).c_str(), stdout);
  std::fflush(stdout);
  print_failures(results, "job ");
  if (o.report) write_file(for_run(*o.report, run, several), graph::report_json(report));
  const trace::Snapshot snapshot = graph::recorder(prover).snapshot();
  if (o.trace) trace::write_chrome_trace_file(snapshot, for_run(*o.trace, run, several).string());
  if (o.timeline) write_timeline(for_run(*o.timeline, run, several), o, run, report, snapshot, batch);
}

template <class Curve>
int run_one(const BatchOptions& o, const Run& run, Setups<Curve>& setups) {
  ResultCollector results;  // before the pipeline, which reports into it until it is destroyed
  const graph::Config config = run_config(o, run, results);
  std::optional<graph::Pipeline> prover;
  const Registered registered = start_pipeline(o, run, config, setups, prover);
  const BatchTimes times = prove_batch(o, run, setups, *prover, registered, results);
  const graph::RunReport report = make_report(o, run, setups, *prover, times);
  write_outputs(o, run, report, *prover, results, times.window);
  return batch_status(report, o.count, o.config.verify, results);
}

/// Every --mode run, one after the other, with the same keys of Curve.
template <class Curve>
int run_all(const BatchOptions& options) {
  Setups<Curve> setups;  // made on the first run, once the backend is known
  if (options.plan) {
    ResultCollector results;
    const Run& run = options.runs.front();
    std::optional<graph::Pipeline> prover;
    start_pipeline(options, run, run_config(options, run, results), setups, prover);
    return print_memory_plan(*prover, options.report);
  }
  int status = 0;
  for (const Run& run : options.runs) {
    if (stop_signal() != 0) break;
    status = std::max(status, run_one(options, run, setups));
  }
  return status;
}

}  // namespace

int run_synthetic(const BatchOptions& options) {
  log::set_level(options.log_level);
  if (options.export_snarkjs) return export_snarkjs(options);
  check_outputs_writable(options);
  return with_curve(options.curve, [&]<class Curve>() { return run_all<Curve>(options); });
}

}  // namespace proofline::apps
