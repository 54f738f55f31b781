// bench_capi: the same batch proved through the C ABI (libproofline.so: pl_submit_scalars, pl_job_wait,
// pl_job_proof) and through the C++ API (graph::Pipeline::submit with a MemoryWitness, futures), in one run,
// repetitions alternating the two, medians compared. The C side includes what a C caller pays: its witness
// crosses as canonical 32-byte scalars (copied at submit, converted into the pinned slot) and its proof comes
// back as 192 bytes. Each batch gets a fresh pipeline (created, key added, warmed up, outside the timing).
//
//   bench_capi [--log-n 16] [--count 64] [--reps 5] [--warmup 4] [--backend cpu|cuda|auto]
//              [--witness memory|wtns] [--key-cache DIR] [--json FILE]
//
// The key is a synthetic circuit's, from a known trapdoor (on the GPU with the CUDA backend), cached in the
// native format under --key-cache; the C side registers it from those files (pl_key_add_native_files).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <future>
#include <optional>
#include <string>
#include <vector>

#include <proofline.h>
#include <proofline/cuda/gpu_fixed_base.hpp>
#include <proofline/graph/pipeline.hpp>
#include <proofline/groth16/key_cache.hpp>
#include <proofline/groth16/native_file.hpp>
#include <proofline/groth16/proof.hpp>
#include <proofline/groth16/synthetic.hpp>
#include <proofline/groth16/wtns.hpp>
#include <proofline/util/log.hpp>
#include <proofline/util/options.hpp>
#include <proofline/util/size.hpp>

namespace {

using namespace proofline;
using Clock = std::chrono::steady_clock;

double since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

struct Options {
  unsigned log_n = 16;
  std::uint64_t count = 64;
  int reps = 5;
  std::uint64_t warmup = 4;
  graph::Backend backend = graph::Backend::automatic;
  std::filesystem::path key_cache = std::filesystem::temp_directory_path() / "proofline-bench-keys";
  std::string json_path;
  bool wtns = false;  ///< both sides read .wtns files (the same witness path: what differs is the ABI alone)
  std::uint64_t outstanding =
      0;  ///< jobs submitted and not yet collected, at most (0: the whole batch at once)
};

std::optional<Options> parse_options(int argc, char** argv) {
  Options o;
  std::string backend = "auto";
  std::optional<std::filesystem::path> cache;
  OptionParser cli("bench_capi",
                   "usage: bench_capi [--log-n 16] [--count 64] [--reps 5] [--warmup 4] [--backend auto] "
                   "[--key-cache DIR] [--json FILE]",
                   "The same batch proved through the C ABI and the C++ API, alternating; medians compared.");
  cli.integer("--log-n", "N", "rows per job: 2^N (default 16)", o.log_n, Bounds<unsigned>{4, 26});
  cli.integer("--count", "JOBS", "jobs per batch (default 64)", o.count, Bounds<std::uint64_t>{1, 100000});
  cli.integer("--reps", "R", "timed batches per API (default 5)", o.reps, Bounds<int>{1, 100});
  cli.integer("--warmup", "JOBS", "jobs proved before each timed batch (default 4)", o.warmup,
              Bounds<std::uint64_t>{0, 1000});
  cli.text("--backend", "auto|cpu|cuda", "where the pipelines prove (default auto)", backend);
  cli.path("--key-cache", "DIR", "where the synthetic key is cached (default: a temp folder)", cache);
  cli.text("--json", "FILE", "write the figures as JSON too", o.json_path);
  cli.integer("--outstanding", "JOBS",
              "submit while at most JOBS are unfinished, collecting the oldest first, as a client whose "
              "witnesses come one by one does (default 0: the whole batch at once)",
              o.outstanding, Bounds<std::uint64_t>{0, 100000});
  std::string witness = "memory";
  cli.text("--witness", "memory|wtns",
           "memory: C++ MemoryWitness vs C pl_submit_scalars (default); wtns: .wtns files on both sides",
           witness);
  if (!cli.parse(argc, argv)) return std::nullopt;
  if (witness != "memory" && witness != "wtns") throw OptionError("--witness must be memory or wtns");
  if (!o.json_path.empty()) check_output_file_option("--json", o.json_path);
  o.wtns = witness == "wtns";
  o.backend = graph::parse_backend(backend);
  if (cache) o.key_cache = *cache;
  return o;
}

struct Setup {
  groth16::SyntheticOptions circuit;
  std::shared_ptr<const groth16::ConstraintSystem> cs;
  std::filesystem::path pk_file, cs_file;
  std::vector<std::shared_ptr<const std::vector<Fr>>> witnesses;  ///< the C++ side's
  std::vector<std::vector<std::uint8_t>> scalars;                 ///< the same witnesses, canonical bytes
  std::vector<std::filesystem::path> wtns;                        ///< the same witnesses as .wtns files
};

groth16::SetupOptions setup_options(graph::Backend backend) {
  groth16::SetupOptions setup;
  if (backend != graph::Backend::cuda) return setup;
  setup.fixed_base.g1 = [](const G1Affine& b, std::span<const Fr> s, std::span<G1Affine> out) {
    cuda::fixed_base_mul_g1(b, s, out, 0);
  };
  setup.fixed_base.g2 = [](const G2Affine& b, std::span<const Fr> s, std::span<G2Affine> out) {
    cuda::fixed_base_mul_g2(b, s, out, 0);
  };
  return setup;
}

Setup make_setup(const Options& o, graph::Backend backend) {
  Setup s;
  s.circuit = groth16::SyntheticOptions{.log_size = o.log_n, .num_public = 1, .seed = 1};
  groth16::SyntheticCircuit circuit = groth16::make_synthetic_circuit(s.circuit);
  const std::string name = groth16::synthetic_circuit_name(s.circuit);  // the request only views it
  const groth16::KeyCacheRequest request{o.key_cache, name, 1};
  groth16::KeyPair keys = groth16::load_or_setup(circuit.cs, request, setup_options(backend));
  s.pk_file = groth16::key_cache_path(request, keys.pk.convention, keys.pk.log_domain_size);
  s.cs_file = o.key_cache / (name + ".plcs");
  if (!std::filesystem::exists(s.cs_file)) groth16::write_constraint_system(s.cs_file, circuit.cs);
  s.cs = std::make_shared<const groth16::ConstraintSystem>(std::move(circuit.cs));
  // Distinct witnesses, reused round robin (every proof differs anyway: fresh r, s).
  for (std::uint64_t i = 0; i < std::min<std::uint64_t>(o.count, 8); ++i) {
    auto z = std::make_shared<const std::vector<Fr>>(groth16::synthetic_witness(*s.cs, s.circuit, 100 + i));
    std::vector<std::uint8_t> bytes(z->size() * PL_SCALAR_BYTES);
    for (std::size_t j = 0; j < z->size(); ++j) (*z)[j].to_bytes_le(bytes.data() + j * PL_SCALAR_BYTES);
    if (o.wtns) {
      s.wtns.push_back(o.key_cache / (name + ".w" + std::to_string(i) + ".wtns"));
      groth16::write_wtns(s.wtns.back(), *z);
    }
    s.witnesses.push_back(std::move(z));
    s.scalars.push_back(std::move(bytes));
  }
  return s;
}

graph::Config cpp_config(graph::Backend backend) {
  graph::Config config;
  config.backend = backend;
  return config;
}

/// GPU 0's memory plan after a batch, as each API reports it (nothing on the CPU backend).
struct GpuPlan {
  std::uint64_t device_slots = 0, msm_tables = 0, msm_table_bytes = 0, keys_resident = 0, key_loads = 0;
  bool operator==(const GpuPlan&) const = default;
  std::string text() const {
    return std::to_string(device_slots) + " device slots, MSM tables for " + std::to_string(msm_tables) +
           " queries (" + format_size(msm_table_bytes) + "), " + std::to_string(keys_resident) +
           " key(s) resident, " + std::to_string(key_loads) + " upload(s)";
  }
};

struct Batch {
  double seconds = 0;  ///< from the first submission to the last result
  std::optional<GpuPlan> gpu;
};

/// One timed batch through the C++ API.
Batch cpp_batch(const Setup& s, graph::Backend backend, std::uint64_t count, std::uint64_t warmup,
                std::uint64_t outstanding) {
  // The very files the C side registers, loaded afresh for each batch as pl_key_add_native_files does, so
  // that where the key lies in memory is no difference between the two sides.
  const groth16::LoadOptions load{.check_query_points = false};
  groth16::Loaded<groth16::ProvingKeyFile> file = groth16::load_proving_key(s.pk_file, load);
  auto pk = std::make_shared<const groth16::ProvingKey>(std::move(file.value.pk));
  auto cs = std::make_shared<const groth16::ConstraintSystem>(
      groth16::load_constraint_system(s.cs_file, load).value);
  graph::Pipeline prover(cpp_config(backend));
  const graph::KeyHandle key = prover.add_key({.name = "bench", .pk = pk, .cs = cs, .vk = nullptr});
  const auto run = [&](std::uint64_t jobs) {
    std::vector<std::future<graph::JobResult>> results;
    std::size_t proved = 0, collected = 0;
    const auto collect = [&] {
      const graph::JobResult r = results[collected++].get();
      if (r.ok() && groth16::encode_proof(*r.proof).size() == PL_PROOF_BYTES) ++proved;
    };
    for (std::uint64_t i = 0; i < jobs; ++i) {
      while (outstanding != 0 && i - collected >= outstanding) collect();
      graph::WitnessSource witness = graph::MemoryWitness{s.witnesses[i % s.witnesses.size()]};
      if (!s.wtns.empty()) witness = graph::WtnsFile{s.wtns[i % s.wtns.size()]};
      results.push_back(prover.submit({.key = key, .witness = std::move(witness)}).result);
    }
    while (collected < jobs) collect();
    if (proved != jobs) throw Error(Errc::internal, "the C++ batch had failed jobs");
  };
  run(warmup);
  const auto start = Clock::now();
  run(count);
  Batch batch{since(start), std::nullopt};
  if (const graph::PipelineStats stats = prover.stats(); !stats.gpus.empty()) {
    const graph::GpuStats& g = stats.gpus[0];
    batch.gpu = GpuPlan{g.device_slots, g.msm_tables, g.msm_table_bytes, g.keys.entries, g.keys.loads};
  }
  return batch;
}

void check(pl_status status, const char* call) {
  if (status != PL_OK)
    throw Error(Errc::internal,
                std::string(call) + ": " + pl_status_name(status) + ": " + pl_last_error_message());
}

/// The same batch through the C ABI.
Batch c_batch(const Setup& s, graph::Backend backend, std::uint64_t count, std::uint64_t warmup,
              std::uint64_t outstanding) {
  pl_config config;
  check(pl_config_default(&config, sizeof config), "pl_config_default");
  config.backend = backend == graph::Backend::cuda  ? PL_BACKEND_CUDA
                   : backend == graph::Backend::cpu ? PL_BACKEND_CPU
                                                    : PL_BACKEND_AUTO;
  pl_pipeline* pipeline = nullptr;
  check(pl_pipeline_create(&config, &pipeline), "pl_pipeline_create");
  pl_key* key = nullptr;
  const pl_key_options options{sizeof(pl_key_options), "bench", PL_POINTS_TRUSTED};
  check(pl_key_add_native_files(pipeline, s.pk_file.c_str(), s.cs_file.c_str(), nullptr, &options, &key),
        "pl_key_add_native_files");
  const auto run = [&](std::uint64_t jobs) {
    std::vector<pl_job*> handles(jobs);
    std::uint64_t collected = 0;
    std::uint8_t proof[PL_PROOF_BYTES];
    const auto collect = [&] {
      pl_job* job = handles[collected++];
      check(pl_job_wait(job, -1), "pl_job_wait");
      check(pl_job_proof(job, proof, sizeof proof), "pl_job_proof");
      check(pl_job_release(job), "pl_job_release");
    };
    for (std::uint64_t i = 0; i < jobs; ++i) {
      while (outstanding != 0 && i - collected >= outstanding) collect();
      const std::vector<std::uint8_t>& z = s.scalars[i % s.scalars.size()];
      if (!s.wtns.empty())
        check(pl_submit_wtns(pipeline, key, s.wtns[i % s.wtns.size()].c_str(), nullptr, &handles[i]),
              "pl_submit_wtns");
      else
        check(pl_submit_scalars(pipeline, key, z.data(), z.size() / PL_SCALAR_BYTES, nullptr, &handles[i]),
              "pl_submit_scalars");
    }
    while (collected < jobs) collect();
  };
  run(warmup);
  const auto start = Clock::now();
  run(count);
  Batch batch{since(start), std::nullopt};
  pl_gpu_stats g{};
  g.size = sizeof g;
  if (backend == graph::Backend::cuda) {
    check(pl_pipeline_gpu_stats(pipeline, 0, &g), "pl_pipeline_gpu_stats");
    batch.gpu = GpuPlan{g.device_slots, g.msm_tables, g.msm_table_bytes, g.keys_resident, g.key_loads};
  }
  check(pl_key_release(key), "pl_key_release");
  check(pl_pipeline_destroy(pipeline), "pl_pipeline_destroy");
  return batch;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

std::string join(const std::vector<double>& values) {
  std::string out;
  for (const double v : values) out += (out.empty() ? "" : ", ") + std::to_string(v);
  return out;
}

void report(const Options& o, graph::Backend backend, const std::vector<double>& cpp,
            const std::vector<double>& c) {
  const double cpp_s = median(cpp), c_s = median(c);
  const double overhead = (c_s / cpp_s - 1.0) * 100.0;
  std::printf(
      "\nbench_capi: 2^%u rows x %llu jobs, %s backend, witnesses %s, %s, %d repetitions (alternating), "
      "medians\n",
      o.log_n, static_cast<unsigned long long>(o.count), std::string(graph::to_string(backend)).c_str(),
      o.wtns ? "from .wtns files (both)" : "in memory (C++ MemoryWitness, C pl_submit_scalars)",
      o.outstanding == 0 ? "all submitted at once"
                         : ("at most " + std::to_string(o.outstanding) + " unfinished").c_str(),
      o.reps);
  std::printf("| API | median batch s | proofs/s | batches s |\n|---|---|---|---|\n");
  std::printf("| C++ (graph::Pipeline) | %.3f | %.2f | %s |\n", cpp_s, o.count / cpp_s, join(cpp).c_str());
  std::printf("| C ABI (libproofline.so) | %.3f | %.2f | %s |\n", c_s, o.count / c_s, join(c).c_str());
  std::printf("C ABI overhead: %+.2f %% (target: at most +1 %%)\n", overhead);
  if (o.json_path.empty()) return;
  std::ofstream out(o.json_path);
  out << "{\"bench\": \"capi\", \"log_n\": " << o.log_n << ", \"count\": " << o.count << ", \"backend\": \""
      << graph::to_string(backend) << "\", \"witness\": \"" << (o.wtns ? "wtns" : "memory")
      << "\", \"outstanding\": " << o.outstanding << ", \"reps\": " << o.reps << ", \"cpp_s\": [" << join(cpp)
      << "], \"c_s\": [" << join(c) << "], \"cpp_median_s\": " << cpp_s << ", \"c_median_s\": " << c_s
      << ", \"cpp_proofs_per_s\": " << o.count / cpp_s << ", \"c_proofs_per_s\": " << o.count / c_s
      << ", \"c_overhead_percent\": " << overhead << "}\n";
  if (!out) throw Error(Errc::io, "cannot write " + o.json_path);
}

int run(const Options& o) {
  pl_set_log_level(PL_LOG_WARN);
  log::set_level(log::Level::warn);
  graph::Backend backend = o.backend;
  if (backend == graph::Backend::automatic) backend = graph::Pipeline(graph::Config{}).backend();
  const auto start = Clock::now();
  const Setup s = make_setup(o, backend);
  std::printf("bench_capi: key and %zu witnesses of 2^%u rows ready in %.1f s\n", s.witnesses.size(), o.log_n,
              since(start));
  std::vector<double> cpp, c;
  for (int rep = 0; rep < o.reps; ++rep) {
    // Alternate which API goes first, so that drift in the machine's state falls on both evenly.
    const bool c_first = rep % 2 == 1;
    Batch c_side, cpp_side;
    if (c_first) c_side = c_batch(s, backend, o.count, o.warmup, o.outstanding);
    cpp_side = cpp_batch(s, backend, o.count, o.warmup, o.outstanding);
    if (!c_first) c_side = c_batch(s, backend, o.count, o.warmup, o.outstanding);
    cpp.push_back(cpp_side.seconds);
    c.push_back(c_side.seconds);
    std::printf("  repetition %d: C++ %.3f s, C ABI %.3f s\n", rep + 1, cpp.back(), c.back());
    // pl_pipeline_gpu_stats against the C++ stats of a pipeline made alike.
    if (rep == 0 && cpp_side.gpu) {
      std::printf("  GPU 0, C++:   %s\n  GPU 0, C ABI: %s\n", cpp_side.gpu->text().c_str(),
                  c_side.gpu ? c_side.gpu->text().c_str() : "none");
      if (!(c_side.gpu == cpp_side.gpu))
        throw Error(Errc::internal, "pl_pipeline_gpu_stats differs from the C++ pipeline's GPU stats");
    }
    std::fflush(stdout);
  }
  report(o, backend, cpp, c);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::optional<Options> o = parse_options(argc, argv);
    return o ? run(*o) : 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_capi: %s\n", e.what());
    return 2;
  }
}
