#include "batch_options.hpp"

#include "batch_common.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <proofline/graph/config_options.hpp>
#include <proofline/memory/pinning.hpp>
#include <proofline/util/options.hpp>
#include <proofline/util/text.hpp>

namespace proofline::apps {

namespace {

constexpr const char* usage = "usage: batch_prove [options]";
constexpr const char* about =
    "Proves a batch of synthetic Groth16 jobs (BLS12-381, or BN254 with --curve bn254), or circom witnesses "
    "with a snarkjs key, through proofline's flow-graph pipeline.";
constexpr const char* exit_codes =
    "Exit codes: 0 every proof made (and verified, with --verify), 1 some jobs failed, 2 unusable input or "
    "options (one line on stderr saying which and why), 130/143 stopped by SIGINT/SIGTERM (queued jobs "
    "cancelled, running ones finished and written).";

constexpr std::uint64_t max_seed = ~std::uint64_t{0} >> 1;

/// "pinned", "baseline:pre", ...: a mode, and whether that run's jobs are presynthesized.
BatchOptions::Run parse_run(std::string_view item) {
  BatchOptions::Run run;
  if (item.size() > 4 && item.ends_with(":pre")) {
    run.presynthesized = true;
    item.remove_suffix(4);
  }
  run.mode = graph::parse_mode(item);
  return run;
}

/// alloc, register and host, or any name memory::parse_pinning_kind knows.
memory::PinningKind parse_pin_backend(std::string_view name) {
  if (name == "alloc") return memory::PinningKind::cuda_host_alloc;
  if (name == "register") return memory::PinningKind::cuda_host_register;
  if (name == "host") return memory::PinningKind::host;
  return memory::parse_pinning_kind(name);
}

void add_workload(OptionParser& cli, BatchOptions& o) {
  cli.group("workload");
  cli.integer_list("--synthetic", "LOG2[,LOG2...]",
                   "constraints per job: a synthetic circuit of 2^LOG2 rows (2..28; default 12); several "
                   "sizes (e.g. 22,16) make a key of each, jobs in turn",
                   o.sizes, Bounds<unsigned>{2, 28});
  cli.integer("--count", "N", "jobs in the batch (default 8)", o.count, Bounds<std::uint64_t>{1, 10'000'000});
  cli.integer("--seed", "S", "circuit and witness seed (never the proofs' r, s; default 1)", o.seed,
              Bounds<std::uint64_t>{0, max_seed});
  cli.choice(
      "--curve",
      "the synthetic circuit's curve: bls12-381 (default) or bn254 (circom's bn128); either proves on "
      "either backend",
      o.curve,
      Choices<CurveId>{{"bls12-381", CurveId::bls12_381},
                       {"bn254", CurveId::bn254},
                       {"bls12381", CurveId::bls12_381},  // snarkjs's names, as proofs and keys spell them
                       {"bn128", CurveId::bn254}});
  cli.integer(
      "--keys", "N",
      "distinct synthetic keys (circuits of 2^LOG2 rows with seeds S, S+1, ...), registered together; "
      "job i proves with key i mod N (default 1)",
      o.keys, Bounds<unsigned>{1, 64});
  cli.choice("--key-gpus",
             "on the CUDA backend, every key resident on every GPU (all, the default), or key i on GPU i mod "
             "the GPUs' count alone, its jobs routed there (spread)",
             o.key_placement,
             Choices<BatchOptions::KeyPlacement>{{"all", BatchOptions::KeyPlacement::every_gpu},
                                                 {"spread", BatchOptions::KeyPlacement::spread}});
  cli.path("--key-cache", "DIR",
           "keep the (known-trapdoor, test-only) keys of either curve in DIR between runs (BLS12-381's as "
           "native .plkey files, BN254's as .zkey files)",
           o.key_cache);
  cli.flag("--presynthesize",
           "make the jobs' z, a, b, c before the timed batch (distinct witnesses up to 16 GiB, or half of "
           "--host-budget when given, reused round robin); synthesis then only copies them into the slot, so "
           "the GPU side is measured alone (the GPU evaluates nothing: keys keep their constraint systems "
           "on the host, as with --host-evaluate)",
           o.presynthesize);
  cli.path("--export-snarkjs", "DIR",
           "write DIR/circuit.zkey (the known-trapdoor, test-only key in snarkjs's format), "
           "DIR/verification_key.json and one DIR/witness-NNNNNN.wtns per job, then exit 0 without proving",
           o.export_snarkjs);
}

void add_snarkjs(OptionParser& cli, BatchOptions& o) {
  cli.group("snarkjs (circom) keys and witnesses, instead of the synthetic workload");
  cli.path_once("--zkey", "KEY.zkey",
                "a snarkjs Groth16 key, bls12381 or bn128 (the curve from the file; either proves on either "
                "backend)",
                o.zkey, "batch_prove proves with one key a run");
  cli.values("--wtns", "A.wtns B.wtns...",
             "witness files (circom's .wtns), one job each; with --out DIR, writes DIR/A.proof.json and "
             "DIR/A.public.json in snarkjs's formats",
             [&o](std::string_view file) { o.wtns.emplace_back(file); });
  graph::add_point_check_option(cli, o.zkey_check);
}

void add_backend(OptionParser& cli, BatchOptions& o) {
  cli.group("backend");
  graph::add_backend_option(cli, o.config);
  cli.value(
      "--mode", "pinned|baseline",
      "pinned slots and overlapping streams (default), or the old design for comparison: pageable vectors "
      "and one mutex per GPU across H2D + NTT + MSM; a list (pinned,baseline) runs the batch once per "
      "mode with the same keys, one after the other, and writes --report/--trace/--timeline files with "
      "the mode in their names; MODE:pre presynthesizes that run's jobs (as --presynthesize does for "
      "every run)",
      [&o](std::string_view text) {
        o.runs.clear();
        for (const std::string_view item : split_option_list("--mode", text))
          o.runs.push_back(parse_run(item));
        o.config.mode = o.runs.front().mode;
      });
  cli.value(
      "--pin-backend", "alloc|register|host",
      "pinned memory from cudaHostAlloc, mmap + cudaHostRegister, or plain host pages (default: register "
      "with a GPU, else host)",
      [&o](std::string_view text) { o.config.pinning = parse_pin_backend(text); });
}

void add_resources(OptionParser& cli, BatchOptions& o) {
  cli.group("resources");
  graph::add_host_resource_options(cli, o.config);
  graph::add_gpu_resource_options(cli, o.config);
  cli.flag(
      "--cpu-fallback",
      "CUDA backend: when a GPU fails (a CUDA error that kills its context), prove its jobs and the rest "
      "of the batch on the CPU instead of failing them",
      o.config.cpu_fallback);
  cli.flag("--wipe-slots",
           "zero each job's pinned slot (its witness) as it comes home, not only when the buffer is unpinned",
           o.config.wipe_slots_between_jobs);
  graph::add_job_timeout_option(cli, o.config, std::chrono::milliseconds(1),
                                "fail a job not done this long after submission");
}

void add_output(OptionParser& cli, BatchOptions& o) {
  cli.group("output");
  cli.flag("--verify", "verify every proof before counting it", o.config.verify);
  cli.path("--out", "DIR",
           "write each proof as DIR/proof-NNNNNN.json and its 192-byte encoding as .bin (bn254: snarkjs's "
           "proof.json as DIR/proof-NNNNNN.json and its public.json as .public.json)",
           o.out);
  cli.path("--report", "FILE.json",
           "the run's numbers (proofs/s, GPU busy, H2D GB/s, per-stage p50/p99, pool, budget); with --plan, "
           "the memory plan",
           o.report);
  cli.flag(
      "--plan",
      "register the key(s) with these options, print the memory plan (host budget, the keys, the pinned "
      "slot per job and the jobs in flight it allows, each GPU's VRAM: keys, MSM tables, device slots) and "
      "exit 0 without proving (--zkey needs no --wtns then)",
      o.plan);
  cli.path("--trace", "FILE.json", "Chrome trace event JSON of every span (open in ui.perfetto.dev)",
           o.trace);
  cli.path("--timeline", "FILE.svg",
           "a picture of the synthetic workload's run: streams, CPU workers, pool bytes (a --zkey batch: "
           "--trace)",
           o.timeline);
  cli.flag(
      "--h2d-probe",
      "before the batch, measure H2D from pinned and from pageable memory while the synthesis threads run "
      "(the same host load); the rates go into the report's \"extra\"",
      o.h2d_probe);
  graph::add_log_level_option(cli, o.log_level, "warn");
  cli.flag("--no-progress", "no progress line", [&o] { o.progress = false; });
}

void add_testing(OptionParser& cli, BatchOptions& o) {
  cli.group("testing");
  using graph::Stage;
  graph::add_fault_option(cli, o.fault,
                          {Stage::admission, Stage::synthesis, Stage::h2d, Stage::ntt, Stage::msm,
                           Stage::release, Stage::baseline});
}

/// What no single option can check: presynthesis of every run, the snarkjs workload's two halves.
void check_combination(BatchOptions& o) {
  if (o.presynthesize)
    for (auto& run : o.runs) run.presynthesized = true;
  if (!o.zkey && !o.wtns.empty()) throw OptionError("--wtns needs a key (--zkey KEY.zkey)");
  if (o.zkey && o.wtns.empty() && !o.plan)
    throw OptionError("--zkey needs witness files (--wtns A.wtns ...), or --plan");
  if (o.plan && (o.export_snarkjs || o.h2d_probe || o.timeline || o.trace || o.out))
    throw OptionError(
        "--plan proves nothing: it takes none of --export-snarkjs, --h2d-probe, --timeline, --trace, --out");
  if (o.export_snarkjs && o.zkey)
    throw OptionError("--export-snarkjs writes the synthetic workload; it does not take --zkey or --wtns");
  if (o.zkey && o.curve != CurveId::bls12_381)
    throw OptionError("--curve sets the synthetic circuit's curve; a --zkey names its own");
  if (o.zkey && o.runs.size() > 1)
    throw OptionError(
        "--mode with several modes runs the synthetic workload once per mode; a --zkey batch runs "
        "once (give one mode)");
  if (o.zkey && o.timeline)
    throw OptionError(
        "--timeline draws the synthetic workload's run; for a --zkey batch, --trace FILE.json "
        "records the same spans");
  if (o.zkey && (!o.sizes.empty() || o.count != 0))
    throw OptionError(std::string(!o.sizes.empty() ? "--synthetic" : "--count") +
                      " shapes the synthetic workload; a --zkey batch proves its --wtns files, one job each");
  if (o.sizes.empty()) o.sizes = {12};
  if (o.count == 0) o.count = 8;
  {
    // Two outputs on one path: the later one would overwrite the other.
    std::vector<std::pair<const char*, std::filesystem::path>> outputs;
    if (o.report) outputs.emplace_back("--report", std::filesystem::absolute(*o.report).lexically_normal());
    if (o.trace) outputs.emplace_back("--trace", std::filesystem::absolute(*o.trace).lexically_normal());
    if (o.timeline)
      outputs.emplace_back("--timeline", std::filesystem::absolute(*o.timeline).lexically_normal());
    for (std::size_t i = 0; i < outputs.size(); ++i)
      for (std::size_t j = i + 1; j < outputs.size(); ++j)
        if (outputs[i].second == outputs[j].second)
          throw OptionError(std::string(outputs[i].first) + " and " + outputs[j].first + " name one file, " +
                            quote_for_message(outputs[i].second.string(), 120, '\''));
    // Each run's files are named after its mode: a mode listed twice would write over its first run's.
    for (std::size_t i = 0; i < o.runs.size() && !outputs.empty(); ++i)
      for (std::size_t j = i + 1; j < o.runs.size(); ++j)
        if (o.runs[i].mode == o.runs[j].mode && o.runs[i].presynthesized == o.runs[j].presynthesized)
          throw OptionError("--mode lists a run twice, and its second run's " +
                            std::string(outputs[0].first) +
                            " file would replace the first's (their names carry the mode only): run it "
                            "twice, or list it once");
  }
  // Every run gets the fault: one whose mode has no such stage is refused now, not after the runs before it.
  if (o.fault)
    for (const BatchOptions::Run& run : o.runs)
      if (!stage_runs_in(o.fault->first, run.mode))
        throw OptionError(fault_stage_refusal(o.fault->first, run.mode));
  if (o.zkey || o.export_snarkjs) {
    const std::string one_key =
        o.zkey ? "a --zkey workload has its own key" : "--export-snarkjs writes one key";
    if (o.keys > 1) throw OptionError("--keys makes synthetic keys to prove with; " + one_key);
    if (o.sizes.size() > 1)
      throw OptionError("--synthetic with several sizes makes a synthetic key of each; " + one_key);
  }
  o.log2 = *std::max_element(o.sizes.begin(), o.sizes.end());
  const bool keys_from_sizes = o.keys < o.sizes.size();
  o.keys = std::max(o.keys, static_cast<unsigned>(o.sizes.size()));
  if (o.keys > o.count)
    throw OptionError((keys_from_sizes ? "--synthetic's " + std::to_string(o.keys) + " sizes make " +
                                             std::to_string(o.keys) + " keys, more"
                                       : "--keys " + std::to_string(o.keys) + " is more keys") +
                      " than the batch's " + std::to_string(o.count) + " jobs (--count)");
}

}  // namespace

std::optional<BatchOptions> parse_batch_options(int argc, const char* const* argv) {
  BatchOptions o;
  o.config.backend = graph::Backend::automatic;
  o.config.queue_capacity = 64;
  OptionParser cli("batch_prove", usage, about);
  add_workload(cli, o);
  add_snarkjs(cli, o);
  add_backend(cli, o);
  add_resources(cli, o);
  add_output(cli, o);
  add_testing(cli, o);
  cli.epilog(exit_codes);
  if (!cli.parse(argc, argv)) return std::nullopt;
  check_combination(o);
  return o;
}

}  // namespace proofline::apps
