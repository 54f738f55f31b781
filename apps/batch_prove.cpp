// batch_prove: proves a batch of Groth16 jobs through the pipeline and reports what bounded it.
//
// With no arguments it proves a small synthetic batch on whatever backend the machine has and prints a
// summary. Exit codes: 0 every proof made (and verified, with --verify), 1 some jobs failed, 2 unusable input
// or options (one line on stderr saying which and why).
#include <unistd.h>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <proofline/cuda/device.hpp>
#include <proofline/cuda/gpu_fixed_base.hpp>
#include <proofline/cuda/gpu_ntt.hpp>
#include <proofline/graph/pipeline.hpp>
#include <proofline/graph/report.hpp>
#include <proofline/trace/chrome_trace.hpp>
#include <proofline/trace/progress.hpp>
#include <proofline/trace/timeline_svg.hpp>
#include <proofline/groth16/constraint_system.hpp>
#include <proofline/groth16/key_cache.hpp>
#include <proofline/groth16/proof.hpp>
#include <proofline/groth16/proof_json.hpp>
#include <proofline/groth16/setup.hpp>
#include <proofline/groth16/snarkjs_jobs.hpp>
#include <proofline/groth16/synthetic.hpp>
#include <proofline/util/error.hpp>
#include <proofline/util/log.hpp>
#include <proofline/util/size.hpp>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/info.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>

#include "h2d_probe.hpp"

namespace {

using namespace proofline;
namespace fs = std::filesystem;

constexpr const char* usage = R"(usage: batch_prove [options]

Proves a batch of synthetic Groth16 jobs (BLS12-381) through proofline's flow-graph pipeline.

workload
  --synthetic LOG2        constraints per job: a synthetic circuit of 2^LOG2 rows (1..28; default 12)
  --count N               jobs in the batch (default 8)
  --seed S                circuit and witness seed (never the proofs' r, s; default 1)
  --key-cache DIR         keep the (known-trapdoor, test-only) keys in DIR between runs
  --presynthesize         make the jobs' z, a, b, c before the timed batch (at most 16 GiB of distinct
                          witnesses, reused round robin); synthesis then only copies them into the slot, so
                          the GPU side is measured alone
snarkjs (circom) keys and witnesses, instead of the synthetic workload
  --zkey KEY.zkey         a snarkjs Groth16 key for curve bls12381
  --wtns A.wtns B.wtns... witness files (circom's .wtns), one job each; with --out DIR, writes
                          DIR/A.proof.json and DIR/A.public.json in snarkjs's formats
  --zkey-check full|curve|trusted
                          how the key's points are checked: on the curve and in the subgroup (default),
                          on the curve only, or not at all (a key checked before)
backend
  --backend auto|cpu|cuda where H and the MSMs run (default auto: CUDA when a GPU is usable)
  --gpus LIST             CUDA devices, e.g. 0,1 (default: all)
  --mode pinned|baseline  pinned slots and overlapping streams (default), or the old design for comparison:
                          pageable vectors and one mutex per GPU across H2D + NTT + MSM; a list
                          (pinned,baseline) runs the batch once per mode with the same keys, one after the
                          other, and writes --report/--trace/--timeline files with the mode in their names;
                          MODE:pre presynthesizes that run's jobs (as --presynthesize does for every run)
  --pin-backend alloc|register|host
                          pinned memory from cudaHostAlloc, mmap + cudaHostRegister, or plain host pages
                          (default: register with a GPU, else host)
resources
  --host-budget SIZE      host memory for keys and pinned slots, e.g. 64G (default: what the process may use)
  --vram-budget SIZE      per GPU (default: free VRAM less a margin)
  --srs auto|vram|host    where the keys' points live on the GPU backend: in VRAM when a GPU's budget holds
                          them, else streamed from page-locked host memory (auto, the default); VRAM only; or
                          always streamed
  --srs-buffer SIZE       each of the two per-GPU staging buffers of a streamed SRS (default 256M)
  --no-ntt-table          the GPU NTT multiplies by root powers in its top pass instead of reading a table
                          of 2^n x 64 bytes per GPU (1 GiB at 2^24; used by default when VRAM allows)
  --slots N               most pinned slots in flight (default: synthesis jobs + 2 per GPU)
  --device-slots N        jobs bound to one GPU at once, each with its own compute stream and MSM scratch
                          (default: up to 4, as many as the VRAM budget holds next to the key)
  --synth-threads N       jobs synthesized at once (default: half the threads)
  --threads N             threads the pipeline may use (default: all)
  --job-timeout MS        fail a job not done MS milliseconds after submission (default: none)
output
  --verify                verify every proof before counting it
  --out DIR               write each proof as DIR/proof-NNNNNN.json and its 192-byte encoding as .bin
  --report FILE.json      the run's numbers (proofs/s, GPU busy, H2D GB/s, per-stage p50/p99, pool, budget)
  --trace FILE.json       Chrome trace event JSON of every span (open in ui.perfetto.dev)
  --timeline FILE.svg     a picture of the run: streams, CPU workers, pool bytes
  --h2d-probe             before the batch, measure H2D from pinned and from pageable memory while the
                          synthesis threads run (the same host load); the rates go into the report's "extra"
  --log-level LEVEL       trace, debug, info, warn, error, off (default warn)
  --no-progress           no progress line
  --help                  this text
testing
  --inject-fault STAGE:I  fail the I-th job (from 0) in STAGE (admission, synthesis, h2d, ntt, msm, release,
                          baseline), as a real error there would
)";

/// An unusable option or input: exit code 2 with one line.
struct UsageError {
  std::string message;
};

struct Options {
  unsigned log2 = 12;
  std::uint64_t count = 8;
  std::uint64_t seed = 1;
  std::optional<fs::path> key_cache;
  graph::Config config;
  std::optional<fs::path> out, report, trace, timeline;
  log::Level log_level = log::Level::warn;
  bool progress = true;
  std::optional<std::pair<graph::Stage, std::uint64_t>> fault;
  struct Run {
    graph::Mode mode = graph::Mode::pinned;
    bool presynthesized = false;
  };
  std::vector<Run> runs{Run{}};
  bool presynthesize = false;
  bool h2d_probe = false;
  // snarkjs mode (issue 7): --zkey KEY.zkey --wtns A.wtns ... (run_snarkjs below).
  std::optional<fs::path> zkey;
  std::vector<fs::path> wtns;
  groth16::PointCheck zkey_check = groth16::PointCheck::full;
};

std::uint64_t parse_count(std::string_view option, std::string_view text, std::uint64_t lo,
                          std::uint64_t hi) {
  std::uint64_t value = 0;
  if (text.empty() || text.size() > 19)
    throw UsageError{std::string(option) + ": '" + std::string(text) + "' is not a number"};
  for (const char ch : text) {
    if (ch < '0' || ch > '9')
      throw UsageError{std::string(option) + ": '" + std::string(text) + "' is not a number"};
    value = value * 10 + static_cast<std::uint64_t>(ch - '0');
  }
  if (value < lo || value > hi)
    throw UsageError{std::string(option) + ": " + std::string(text) + " is outside " + std::to_string(lo) +
                     ".." + std::to_string(hi)};
  return value;
}

std::uint64_t parse_bytes(std::string_view option, std::string_view text) {
  std::uint64_t bytes = 0;
  try {
    bytes = parse_size(text);
  } catch (const Error& e) {
    throw UsageError{std::string(option) + ": " + e.what()};
  }
  if (bytes == 0) throw UsageError{std::string(option) + ": a budget of 0 bytes"};
  if (bytes > (std::uint64_t{1} << 50))
    throw UsageError{std::string(option) + ": " + std::string(text) + " is absurd (more than 1 PiB)"};
  return bytes;
}

graph::Stage parse_stage(std::string_view text) {
  using graph::Stage;
  for (const Stage stage : {Stage::admission, Stage::synthesis, Stage::h2d, Stage::ntt, Stage::msm,
                            Stage::release, Stage::baseline})
    if (text == graph::to_string(stage)) return stage;
  throw UsageError{"--inject-fault: unknown stage '" + std::string(text) + "'"};
}

Options parse(int argc, char** argv) {
  Options o;
  o.config.backend = graph::Backend::automatic;
  o.config.queue_capacity = 64;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    std::string value;
    bool inline_value = false;
    if (const auto eq = arg.find('='); arg.rfind("--", 0) == 0 && eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
      inline_value = true;
    }
    const auto next = [&]() -> std::string {
      if (inline_value) return value;
      if (i + 1 >= argc) throw UsageError{arg + " needs a value"};
      return argv[++i];
    };
    const auto flag = [&] {
      if (inline_value) throw UsageError{arg + " takes no value"};
    };
    try {
      if (arg == "--help" || arg == "-h") {
        std::fputs(usage, stdout);
        std::exit(0);
      } else if (arg == "--synthetic") {
        o.log2 = static_cast<unsigned>(parse_count(arg, next(), 1, 28));
      } else if (arg == "--count") {
        o.count = parse_count(arg, next(), 1, 10'000'000);
      } else if (arg == "--seed") {
        o.seed = parse_count(arg, next(), 0, ~std::uint64_t{0} >> 1);
      } else if (arg == "--key-cache") {
        o.key_cache = next();
      } else if (arg == "--backend") {
        o.config.backend = graph::parse_backend(next());
      } else if (arg == "--gpus") {
        const std::string list = next();
        o.config.gpus.clear();
        std::size_t start = 0;
        while (start <= list.size()) {
          const std::size_t comma = std::min(list.find(',', start), list.size());
          o.config.gpus.push_back(
              static_cast<int>(parse_count(arg, list.substr(start, comma - start), 0, 1023)));
          start = comma + 1;
        }
      } else if (arg == "--mode") {
        const std::string list = next();
        o.runs.clear();
        std::size_t start = 0;
        while (start <= list.size()) {
          const std::size_t comma = std::min(list.find(',', start), list.size());
          std::string item = list.substr(start, comma - start);
          Options::Run run;
          if (item.size() > 4 && item.ends_with(":pre")) {
            run.presynthesized = true;
            item.resize(item.size() - 4);
          }
          run.mode = graph::parse_mode(item);
          o.runs.push_back(run);
          start = comma + 1;
        }
        o.config.mode = o.runs.front().mode;
      } else if (arg == "--presynthesize") {
        flag();
        o.presynthesize = true;
      } else if (arg == "--h2d-probe") {
        flag();
        o.h2d_probe = true;
      } else if (arg == "--pin-backend") {
        const std::string name = next();
        if (name == "alloc") {
          o.config.pinning = memory::PinningKind::cuda_host_alloc;
        } else if (name == "register") {
          o.config.pinning = memory::PinningKind::cuda_host_register;
        } else if (name == "host") {
          o.config.pinning = memory::PinningKind::host;
        } else {
          o.config.pinning = memory::parse_pinning_kind(name);
        }
      } else if (arg == "--host-budget") {
        o.config.host_budget = parse_bytes(arg, next());
      } else if (arg == "--vram-budget") {
        o.config.vram_budget = parse_bytes(arg, next());
      } else if (arg == "--srs") {
        o.config.srs = graph::parse_srs_placement(next());
      } else if (arg == "--srs-buffer") {
        o.config.srs_stream_buffer = parse_bytes(arg, next());
      } else if (arg == "--no-ntt-table") {
        flag();
        o.config.ntt_top_diagonal = false;
      } else if (arg == "--slots") {
        o.config.slots = parse_count(arg, next(), 1, 4096);
      } else if (arg == "--device-slots") {
        o.config.device_slots = parse_count(arg, next(), 1, 64);
      } else if (arg == "--synth-threads") {
        o.config.synthesis_concurrency = parse_count(arg, next(), 1, 4096);
      } else if (arg == "--threads") {
        o.config.max_threads = parse_count(arg, next(), 1, 4096);
      } else if (arg == "--job-timeout") {
        o.config.job_timeout = std::chrono::milliseconds(parse_count(arg, next(), 1, 86'400'000));
      } else if (arg == "--verify") {
        flag();
        o.config.verify = true;
      } else if (arg == "--out") {
        o.out = next();
      } else if (arg == "--report") {
        o.report = next();
      } else if (arg == "--trace") {
        o.trace = next();
      } else if (arg == "--timeline") {
        o.timeline = next();
      } else if (arg == "--log-level") {
        o.log_level = log::parse_level(next());
      } else if (arg == "--no-progress") {
        flag();
        o.progress = false;
      } else if (arg == "--inject-fault") {
        const std::string spec = next();
        const auto colon = spec.find(':');
        if (colon == std::string::npos)
          throw UsageError{"--inject-fault: expected STAGE:INDEX, got '" + spec + "'"};
        o.fault = std::make_pair(parse_stage(spec.substr(0, colon)),
                                 parse_count(arg, spec.substr(colon + 1), 0, ~std::uint64_t{0} >> 1));
      } else if (arg == "--zkey") {  // snarkjs mode (issue 7)
        o.zkey = next();
      } else if (arg == "--wtns") {
        if (inline_value) o.wtns.emplace_back(value);
        while (i + 1 < argc && std::string_view(argv[i + 1]).rfind("--", 0) != 0)
          o.wtns.emplace_back(argv[++i]);
        if (o.wtns.empty()) throw UsageError{"--wtns needs at least one witness file"};
      } else if (arg == "--zkey-check") {
        const std::string level = next();
        if (level == "full") {
          o.zkey_check = groth16::PointCheck::full;
        } else if (level == "curve") {
          o.zkey_check = groth16::PointCheck::on_curve;
        } else if (level == "trusted") {
          o.zkey_check = groth16::PointCheck::trusted;
        } else {
          throw UsageError{"--zkey-check: expected full, curve or trusted, got '" + level + "'"};
        }
      } else {
        throw UsageError{"unknown option '" + arg + "'"};
      }
    } catch (const Error& e) {
      throw UsageError{arg + ": " + e.what()};
    }
  }
  if (o.presynthesize)
    for (auto& run : o.runs) run.presynthesized = true;
  if (o.zkey.has_value() != !o.wtns.empty())
    throw UsageError{o.zkey ? "--zkey needs witness files (--wtns A.wtns ...)"
                            : "--wtns needs a key (--zkey KEY.zkey)"};
  return o;
}

void write_file(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) throw Error(Errc::io, path.string() + ": cannot write");
}

std::string job_name(std::uint64_t index) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "proof-%06llu", static_cast<unsigned long long>(index));
  return buffer;
}

/// "pinned", "baseline-pre", ...: what a run's files are called apart.
std::string run_name(const Options::Run& run) {
  return std::string(graph::to_string(run.mode)) + (run.presynthesized ? "-pre" : "");
}

/// `path` with the run's name before its extension (run.json -> run.pinned.json) when several runs are made.
fs::path for_run(const fs::path& path, const Options::Run& run, bool several) {
  if (!several) return path;
  fs::path out = path;
  out.replace_filename(path.stem().string() + "." + run_name(run) + path.extension().string());
  return out;
}

/// One job's z, a, b, c made before the timed batch (--presynthesize).
struct Presynthesized {
  std::vector<Fr> z, a, b, c;
};

void copy_parallel(std::span<const Fr> from, std::span<Fr> to) {
  if (from.size() != to.size())
    throw Error(Errc::internal, "presynthesized vector of " + std::to_string(from.size()) +
                                    " values for a slot region of " + std::to_string(to.size()));
  oneapi::tbb::parallel_for(oneapi::tbb::blocked_range<std::size_t>(0, from.size(), 1 << 16),
                            [&](const oneapi::tbb::blocked_range<std::size_t>& r) {
                              std::copy(from.begin() + static_cast<std::ptrdiff_t>(r.begin()),
                                        from.begin() + static_cast<std::ptrdiff_t>(r.end()),
                                        to.begin() + static_cast<std::ptrdiff_t>(r.begin()));
                            });
}

/// What every mode of one invocation shares: the circuit, its keys, presynthesized jobs, the H2D probe.
struct Prepared {
  groth16::SyntheticOptions circuit_options;
  std::shared_ptr<const groth16::ConstraintSystem> cs;
  std::shared_ptr<const groth16::ProvingKey> pk;
  std::shared_ptr<const groth16::VerifyingKey> vk;
  bool loaded = false;
  double setup_s = 0;
  std::vector<std::shared_ptr<const Presynthesized>> presynthesized;
  double presynthesis_s = 0;
  std::optional<apps::H2dProbeResult> probe;
  std::size_t probe_load_jobs = 0;
  bool ready = false;
};

std::uint64_t witness_seed(const Options& o, std::uint64_t i) {
  return o.seed * 1'000'003 + i;
}

/// The threads and concurrent syntheses a pipeline built from `config` uses (the same rule as the pipeline).
std::pair<std::size_t, std::size_t> pipeline_threads(const graph::Config& config) {
  const std::size_t threads =
      config.max_threads != 0
          ? config.max_threads
          : static_cast<std::size_t>(std::max(1, oneapi::tbb::info::default_concurrency()));
  const std::size_t synth = config.synthesis_concurrency != 0 ? config.synthesis_concurrency
                                                              : std::max<std::size_t>(1, threads / 2);
  return {threads, synth};
}

void prepare(const Options& o, const graph::Config& config, graph::Backend backend, Prepared& p) {
  p.circuit_options = groth16::SyntheticOptions{.log_size = o.log2, .num_public = 1, .seed = o.seed};
  groth16::SyntheticCircuit circuit = groth16::make_synthetic_circuit(p.circuit_options);
  groth16::SetupOptions setup;
  const int device = config.gpus.empty() ? 0 : config.gpus.front();
  if (backend == graph::Backend::cuda) {
    // Known-trapdoor setup is fixed-base multiplication; the GPU does it in a fraction of the CPU's time.
    setup.fixed_base.g1 = [device](const G1Affine& b, std::span<const Fr> s, std::span<G1Affine> out) {
      cuda::fixed_base_mul_g1(b, s, out, device);
    };
    setup.fixed_base.g2 = [device](const G2Affine& b, std::span<const Fr> s, std::span<G2Affine> out) {
      cuda::fixed_base_mul_g2(b, s, out, device);
    };
  }
  const auto setup_start = std::chrono::steady_clock::now();
  groth16::KeyPair keys =
      o.key_cache ? groth16::load_or_setup(
                        circuit.cs,
                        groth16::KeyCacheRequest{*o.key_cache,
                                                 groth16::synthetic_circuit_name(p.circuit_options), o.seed},
                        setup, &p.loaded)
                  : groth16::setup_from_trapdoor(circuit.cs, groth16::trapdoor_from_seed(o.seed), setup);
  p.setup_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - setup_start).count();
  p.cs = std::make_shared<const groth16::ConstraintSystem>(std::move(circuit.cs));
  p.pk = std::make_shared<const groth16::ProvingKey>(std::move(keys.pk));
  p.vk = std::make_shared<const groth16::VerifyingKey>(std::move(keys.vk));
  const std::uint64_t n = p.pk->domain_size();
  const std::uint64_t nv = p.pk->num_variables;
  const std::uint64_t job_bytes = (3 * n + nv) * sizeof(Fr);

  if (std::any_of(o.runs.begin(), o.runs.end(), [](const auto& r) { return r.presynthesized; })) {
    // Distinct witnesses up to 16 GiB, reused round robin: every proof still differs (fresh r, s).
    const std::uint64_t cap = std::max<std::uint64_t>(1, (std::uint64_t{16} << 30) / job_bytes);
    const std::uint64_t k = std::min<std::uint64_t>(o.count, cap);
    const auto start = std::chrono::steady_clock::now();
    for (std::uint64_t i = 0; i < k; ++i) {
      auto job = std::make_shared<Presynthesized>();
      job->z.resize(nv);
      job->a.resize(n);
      job->b.resize(n);
      job->c.resize(n);
      groth16::synthetic_witness_into(*p.cs, p.circuit_options, witness_seed(o, i), job->z);
      groth16::evaluate(*p.cs, job->z, job->a, job->b, job->c);
      p.presynthesized.push_back(std::move(job));
    }
    p.presynthesis_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }

  if (o.h2d_probe && backend == graph::Backend::cuda) {
    // The same host load as the pipeline's steady state: `synth` jobs synthesized at once (each parallel
    // inside) on `threads` threads, into heap vectors (fewer jobs if that much memory would not fit).
    const auto [threads, synth] = pipeline_threads(config);
    const std::size_t jobs = static_cast<std::size_t>(
        std::min<std::uint64_t>(synth, std::max<std::uint64_t>(1, (std::uint64_t{24} << 30) / job_bytes)));
    p.probe_load_jobs = jobs;
    std::vector<Presynthesized> scratch(jobs);
    for (auto& s : scratch) {
      s.z.resize(nv);
      s.a.resize(n);
      s.b.resize(n);
      s.c.resize(n);
    }
    const auto& cs = *p.cs;
    const auto options = p.circuit_options;
    const std::uint64_t seed = o.seed;
    p.probe = apps::probe_h2d(device, std::min<std::uint64_t>(job_bytes, std::uint64_t{1} << 30), 1.5,
                              [&, threads = threads](const std::atomic<bool>& stop) {
                                oneapi::tbb::task_arena arena(static_cast<int>(threads));
                                arena.execute([&] {
                                  std::uint64_t round = 0;
                                  while (!stop.load()) {
                                    oneapi::tbb::parallel_for(std::size_t{0}, jobs, [&](std::size_t j) {
                                      if (stop.load()) return;
                                      Presynthesized& s = scratch[j];
                                      groth16::synthetic_witness_into(
                                          cs, options, seed * 7'777'777 + round * jobs + j, s.z);
                                      groth16::evaluate(cs, s.z, s.a, s.b, s.c);
                                    });
                                    ++round;
                                  }
                                });
                              });
  }
  p.ready = true;
}

int run_one(const Options& o, const Options::Run& run, Prepared& prep) {
  const bool several = o.runs.size() > 1;
  graph::Config config = o.config;
  config.mode = run.mode;
  if (o.fault) {
    const auto [stage, index] = *o.fault;
    // Job ids are handed out from 1 in submission order, so the I-th job has id I + 1.
    config.fault_hook = [stage = stage, id = index + 1](graph::Stage at, graph::JobId job) {
      if (at == stage && job == id) throw Error(Errc::internal, "fault injected by --inject-fault");
    };
  }
  std::mutex mutex;
  std::vector<graph::JobResult> results;
  std::optional<trace::ProgressReporter> progress;
  std::uint64_t done = 0;
  config.on_result = [&](const graph::JobResult& r) {
    std::lock_guard lock(mutex);
    results.push_back(r);
    ++done;
    if (progress) progress->update(done);
  };

  // Everything up to the first submission is setup: any error there is unusable input or options (exit 2).
  std::optional<graph::Pipeline> prover;
  graph::KeyHandle key;
  try {
    prover.emplace(config);
    if (prover->backend() == graph::Backend::cuda && o.log2 < 10)
      throw UsageError{"--synthetic " + std::to_string(o.log2) +
                       ": the GPU NTT needs at least 2^10 rows (or use --backend cpu)"};
    if (o.out) fs::create_directories(*o.out);
    if (!prep.ready) prepare(o, config, prover->backend(), prep);
    key = prover->add_key(
        graph::KeySpec{groth16::synthetic_circuit_name(prep.circuit_options), prep.pk, prep.cs, prep.vk});
    const graph::PipelineStats s = prover->stats();
    std::printf(
        "batch_prove: %llu jobs of 2^%u rows on the %s backend (%s mode), keys %s in %.2f s, %zu tokens of "
        "%s\n",
        static_cast<unsigned long long>(o.count), o.log2,
        std::string(graph::to_string(prover->backend())).c_str(),
        std::string(graph::to_string(prover->mode())).c_str(), prep.loaded ? "loaded" : "made",
        prep.setup_s, s.token_target, format_size(s.slot_bytes).c_str());
    if (run.presynthesized)
      std::printf("batch_prove: %zu distinct jobs presynthesized in %.2f s (reused round robin)\n",
                  prep.presynthesized.size(), prep.presynthesis_s);
    if (prep.probe)
      std::printf(
          "batch_prove: H2D probe under the load of %zu jobs synthesizing: pinned %.1f GB/s (%d copies), "
          "pageable %.1f GB/s (%d copies) of %s\n",
          prep.probe_load_jobs, prep.probe->pinned_gbps, prep.probe->pinned_copies, prep.probe->pageable_gbps,
          prep.probe->pageable_copies, format_size(prep.probe->bytes).c_str());
    std::fflush(stdout);
  } catch (const UsageError&) {
    throw;
  } catch (const Error& e) {
    throw UsageError{e.what()};
  }

  if (o.progress) progress.emplace(stderr, trace::ProgressOptions{.total = o.count});
  const auto start = std::chrono::steady_clock::now();
  const std::int64_t batch_begin_ns = prover->recorder().now_ns();
  for (std::uint64_t i = 0; i < o.count; ++i) {
    graph::Job job;
    job.key = key;
    job.label = job_name(i);
    if (run.presynthesized) {
      std::shared_ptr<const Presynthesized> made = prep.presynthesized[i % prep.presynthesized.size()];
      job.witness = graph::WitnessCallback{[made](const graph::WitnessTarget& t) {
                                                copy_parallel(made->z, t.z.unchecked());
                                                copy_parallel(made->a, t.a.unchecked());
                                                copy_parallel(made->b, t.b.unchecked());
                                                copy_parallel(made->c, t.c.unchecked());
                                              },
                                              graph::WitnessCallback::Fills::witness_and_abc};
    } else {
      job.witness = graph::WitnessCallback{[cs = prep.cs, options = prep.circuit_options,
                                               seed = witness_seed(o, i)](const graph::WitnessTarget& t) {
        groth16::synthetic_witness_into(*cs, options, seed, t.z.unchecked());
      }};
    }
    prover->submit(std::move(job));
  }
  prover->drain();
  const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const std::int64_t batch_end_ns = prover->recorder().now_ns();
  prover->shutdown();
  if (progress) progress->finish();

  graph::RunReport report = graph::make_run_report(prover->recorder().snapshot(), prover->roles(),
                                                         prover->stats(), o.count, wall_s);
  report.extra.emplace_back("log2", static_cast<double>(o.log2));
  report.extra.emplace_back("presynthesized", run.presynthesized ? 1.0 : 0.0);
  report.extra.emplace_back("setup_s", prep.setup_s);
  if (prep.probe) {
    report.extra.emplace_back("probe_pinned_h2d_gbps", prep.probe->pinned_gbps);
    report.extra.emplace_back("probe_pageable_h2d_gbps", prep.probe->pageable_gbps);
    report.extra.emplace_back("probe_bytes", static_cast<double>(prep.probe->bytes));
    report.extra.emplace_back("probe_load_jobs", static_cast<double>(prep.probe_load_jobs));
  }
  std::fputs(graph::report_summary(report).c_str(), stdout);
  std::sort(results.begin(), results.end(), [](const auto& a, const auto& b) { return a.seq < b.seq; });
  for (const auto& r : results)
    if (r.error)
      std::fprintf(stderr, "batch_prove: job %s failed: %s\n", r.label.c_str(), r.error->message.c_str());
  if (o.out) {
    const fs::path dir = several ? *o.out / run_name(run) : *o.out;
    if (several) fs::create_directories(dir);
    for (const auto& r : results) {
      if (!r.proof) continue;
      write_file(dir / (r.label + ".json"), groth16::write_proof_json(*r.proof));
      const auto bytes = groth16::encode_proof(*r.proof);
      write_file(dir / (r.label + ".bin"), std::string(bytes.begin(), bytes.end()));
    }
  }
  if (o.report) write_file(for_run(*o.report, run, several), graph::report_json(report));
  const trace::Snapshot snapshot = prover->recorder().snapshot();
  if (o.trace) trace::write_chrome_trace_file(snapshot, for_run(*o.trace, run, several).string());
  if (o.timeline) {
    trace::TimelineOptions options;
    options.title = "batch_prove: " + std::to_string(o.count) + " jobs of 2^" + std::to_string(o.log2) +
                    " rows, " + report.backend + ", " + report.mode +
                    (run.presynthesized ? ", presynthesized" : "");
    // The batch only: the counters are sampled from the pipeline's start, through key setup.
    options.window = trace::Window{batch_begin_ns, batch_end_ns};
    std::vector<trace::TrackId> pool;
    for (const char* name : {"pool leased bytes", "pool idle bytes"})
      if (const auto track = snapshot.find_track(name)) pool.push_back(*track);
    if (!pool.empty())
      options.counter_charts.push_back({"pinned pool (leased, idle)", pool, trace::CounterUnit::bytes, true});
    if (const auto waiting = snapshot.find_track("jobs waiting for a token"))
      options.counter_charts.push_back(
          {"jobs waiting for a token", {*waiting}, trace::CounterUnit::count, false});
    trace::write_timeline_svg_file(snapshot, options, for_run(*o.timeline, run, several).string());
  }
  const bool all_good =
      report.failed == 0 && report.proofs == o.count && (!o.config.verify || report.verified == o.count);
  return all_good ? 0 : 1;
}

int run(const Options& o) {
  log::set_level(o.log_level);
  Prepared prep;
  int status = 0;
  for (const Options::Run& run : o.runs) status = std::max(status, run_one(o, run, prep));
  return status;
}

// ---- snarkjs mode (issue 7): prove circom witnesses with a snarkjs key, write snarkjs's files -------------

int run_snarkjs(const Options& o) {
  log::set_level(o.log_level);
  // Everything before the first submission is setup: an unusable key, witness or option is exit 2.
  groth16::SnarkjsKey key;
  std::vector<groth16::WtnsJob> planned;
  graph::Config config = o.config;
  try {
    const auto load_start = std::chrono::steady_clock::now();
    key = groth16::load_snarkjs_key(*o.zkey, groth16::ZkeyOptions{.points = o.zkey_check});
    const double load_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - load_start).count();
    planned = groth16::plan_wtns_jobs(o.wtns, key.pk->num_variables, o.zkey->string());
    // The GPU NTT starts at 2^10 rows: small circuits go to the CPU unless the GPU was asked for.
    if (config.backend == graph::Backend::automatic && key.pk->log_domain_size < cuda::NttEngine::min_log_n)
      config.backend = graph::Backend::cpu;
    if (o.out) fs::create_directories(*o.out);
    std::printf(
        "batch_prove: %zu witnesses for %s (2^%u rows, %llu variables, %llu public), key read in %.2f s\n",
        planned.size(), o.zkey->string().c_str(), key.pk->log_domain_size,
        static_cast<unsigned long long>(key.pk->num_variables),
        static_cast<unsigned long long>(key.pk->num_public), load_s);
    std::fflush(stdout);
  } catch (const Error& e) {
    throw UsageError{e.what()};
  }

  std::mutex mutex;
  std::vector<graph::JobResult> results;
  std::optional<trace::ProgressReporter> progress;
  config.on_result = [&](const graph::JobResult& r) {
    std::lock_guard lock(mutex);
    results.push_back(r);
    if (progress) progress->update(results.size());
  };
  std::optional<graph::Pipeline> prover;
  graph::KeyHandle handle;
  try {
    prover.emplace(config);
    handle = prover->add_key(graph::KeySpec{key.name, key.pk, key.cs, key.vk});
  } catch (const Error& e) {
    throw UsageError{e.what()};
  }
  if (o.progress) progress.emplace(stderr, trace::ProgressOptions{.total = planned.size()});
  const auto start = std::chrono::steady_clock::now();
  for (const groth16::WtnsJob& job : planned)
    prover->submit(graph::Job{.key = handle, .witness = graph::WtnsFile{job.wtns}, .label = job.name});
  prover->drain();
  const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  prover->shutdown();
  if (progress) progress->finish();

  const graph::RunReport report = graph::make_run_report(prover->recorder().snapshot(), prover->roles(),
                                                               prover->stats(), planned.size(), wall_s);
  std::fputs(graph::report_summary(report).c_str(), stdout);
  std::sort(results.begin(), results.end(), [](const auto& a, const auto& b) { return a.seq < b.seq; });
  std::size_t written = 0;
  for (const auto& r : results) {
    if (r.error) {
      std::fprintf(stderr, "batch_prove: %s failed: %s\n", r.label.c_str(), r.error->message.c_str());
    } else if (o.out && r.proof) {
      groth16::write_snarkjs_outputs(*o.out, r.label, *r.proof, r.public_inputs);
      ++written;
    }
  }
  if (o.out) std::printf("batch_prove: wrote %zu proofs to %s\n", written, o.out->string().c_str());
  if (o.report) write_file(*o.report, graph::report_json(report));
  if (o.trace) trace::write_chrome_trace_file(prover->recorder().snapshot(), o.trace->string());
  const bool all_good = report.failed == 0 && report.proofs == planned.size() &&
                        (!o.config.verify || report.verified == planned.size());
  return all_good ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Options options = parse(argc, argv);
    return options.zkey ? run_snarkjs(options) : run(options);
  } catch (const UsageError& e) {
    std::fprintf(stderr, "batch_prove: %s (see --help)\n", e.message.c_str());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "batch_prove: %s\n", e.what());
    return 1;
  }
}
