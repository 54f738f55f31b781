// Groth16 on the CPU: known-trapdoor setup time and prove time per synthetic circuit size, with the share of
// synthesis, H (NTTs) and each of the five MSMs, as a table and optionally JSON. Every proof is verified.
//
//   bench_groth16 [--min-log K] [--max-log K] [--runs N] [--conventions generator7,snarkjs] [--threads N]
//                 [--cache-dir DIR] [--json FILE] [--seed S]
//
// Sizes are domains 2^K filled by the synthetic generator (2^K − 2 constraints plus 2 input rows, one public
// input, the default 20/50/30 witness mix). With --cache-dir keys are cached in the native format, and a key
// loaded from the cache shows "cached" instead of a setup time.
#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <proofline/groth16/key_cache.hpp>
#include <proofline/groth16/prover.hpp>
#include <proofline/groth16/setup.hpp>
#include <proofline/groth16/synthetic.hpp>
#include <proofline/groth16/verifier.hpp>
#include <proofline/util/options.hpp>

namespace {

using namespace proofline;
using namespace proofline::groth16;

struct Options {
  unsigned min_log = 12;
  unsigned max_log = 18;
  unsigned runs = 3;
  std::size_t threads = 0;  // 0: TBB's default
  std::vector<HConvention> conventions = {HConvention::generator7};
  std::string cache_dir;
  std::string json_path;
  std::uint64_t seed = 1;
};

struct Row {
  unsigned log_n = 0;
  HConvention convention = HConvention::generator7;
  std::uint64_t constraints = 0, variables = 0, nonzeros = 0;
  double synthetic_s = 0;
  bool setup_cached = false;
  SetupTimings setup;
  std::vector<ProveTimings> proves;
  bool verified = false;

  /// Median of one field over the runs.
  double median(double ProveTimings::*field) const {
    std::vector<double> values;
    for (const auto& t : proves) values.push_back(t.*field);
    std::sort(values.begin(), values.end());
    const std::size_t m = values.size() / 2;
    return values.size() % 2 ? values[m] : (values[m - 1] + values[m]) / 2;
  }
};

const char* name(HConvention c) {
  return c == HConvention::generator7 ? "generator7" : "snarkjs";
}

std::string loadavg() {
  std::ifstream in("/proc/loadavg");
  std::string one, five, fifteen;
  in >> one >> five >> fifteen;
  return one + " " + five + " " + fifteen;
}

const std::pair<const char*, double ProveTimings::*> kShares[] = {
    {"synth", &ProveTimings::synthesis_s}, {"H/NTT", &ProveTimings::h_s},     {"A", &ProveTimings::msm_a_s},
    {"B1", &ProveTimings::msm_b1_s},       {"B2", &ProveTimings::msm_b2_s},   {"L", &ProveTimings::msm_l_s},
    {"H", &ProveTimings::msm_h_s},         {"asm", &ProveTimings::assembly_s}};

void print_header() {
  std::printf("%-3s %-10s %9s %10s | %9s %7s %7s | %9s", "log", "convention", "rows", "nonzeros", "setup_s",
              "g1_s", "g2_s", "prove_s");
  for (const auto& [label, field] : kShares) std::printf(" %6s", label);
  std::printf(" | verify\n");
}

void print_row(const Row& row) {
  const double total = row.median(&ProveTimings::total_s);
  std::printf("%-3u %-10s %9llu %10llu | ", row.log_n, name(row.convention),
              static_cast<unsigned long long>(row.constraints),
              static_cast<unsigned long long>(row.nonzeros));
  if (row.setup_cached) {
    std::printf("%9s %7s %7s | ", "cached", "-", "-");
  } else {
    std::printf("%9.2f %7.2f %7.2f | ", row.setup.total_s, row.setup.g1_s, row.setup.g2_s);
  }
  std::printf("%9.3f", total);
  for (const auto& [label, field] : kShares) std::printf(" %5.1f%%", 100.0 * row.median(field) / total);
  std::printf(" | %s\n", row.verified ? "ok" : "FAILED");
  std::fflush(stdout);
}

void write_json(const std::string& path, const std::vector<Row>& rows, const Options& options, int threads,
                const std::string& load_start, const std::string& load_end) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error("cannot write " + path);
  out << "{\n  \"benchmark\": \"bench_groth16\",\n  \"threads\": " << threads
      << ",\n  \"runs\": " << options.runs << ",\n  \"seed\": " << options.seed
      << ",\n  \"loadavg_start\": \"" << load_start << "\",\n  \"loadavg_end\": \"" << load_end
      << "\",\n  \"rows\": [";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    out << (i ? ",\n" : "\n") << "    {\"log_n\": " << r.log_n << ", \"convention\": \"" << name(r.convention)
        << "\", \"rows\": " << r.constraints << ", \"variables\": " << r.variables
        << ", \"nonzeros\": " << r.nonzeros << ", \"synthetic_circuit_s\": " << r.synthetic_s
        << ", \"setup_cached\": " << (r.setup_cached ? "true" : "false")
        << ", \"setup_s\": {\"total\": " << r.setup.total_s << ", \"lagrange\": " << r.setup.lagrange_s
        << ", \"accumulate\": " << r.setup.accumulate_s << ", \"scalars\": " << r.setup.scalars_s
        << ", \"g1\": " << r.setup.g1_s << ", \"g2\": " << r.setup.g2_s
        << "}, \"prove_median_s\": {\"total\": " << r.median(&ProveTimings::total_s);
    const char* keys[] = {"synthesis", "h", "msm_a", "msm_b1", "msm_b2", "msm_l", "msm_h", "assembly"};
    for (std::size_t k = 0; k < std::size(kShares); ++k)
      out << ", \"" << keys[k] << "\": " << r.median(kShares[k].second);
    out << "}, \"prove_runs_s\": [";
    for (std::size_t k = 0; k < r.proves.size(); ++k) out << (k ? ", " : "") << r.proves[k].total_s;
    out << "], \"verified\": " << (r.verified ? "true" : "false") << "}";
  }
  out << "\n  ]\n}\n";
}

/// The options; none after printing --help. Throws OptionError for anything unusable.
std::optional<Options> parse_options(int argc, char** argv) {
  Options options;
  OptionParser cli(
      "bench_groth16", "usage: bench_groth16 [options]",
      "Groth16 on the CPU: setup and prove times per synthetic circuit size, every proof verified.");
  cli.integer("--min-log", "K", "smallest domain, 2^K rows (default 12)", options.min_log,
              Bounds<unsigned>{2, 28});
  cli.integer("--max-log", "K", "largest domain, 2^K rows (default 18)", options.max_log,
              Bounds<unsigned>{2, 28});
  cli.integer("--runs", "N", "timed proofs per size (default 3)", options.runs, Bounds<unsigned>{1, 1000});
  cli.choice_list(
      "--conventions", "LIST", "H conventions, generator7 and/or snarkjs (default generator7)",
      options.conventions,
      Choices<HConvention>{{"generator7", HConvention::generator7}, {"snarkjs", HConvention::snarkjs}});
  cli.integer("--threads", "N", "threads (default 0: TBB's default)", options.threads, thread_bounds(0));
  cli.text("--cache-dir", "DIR", "cache the keys in DIR (native format)", options.cache_dir);
  cli.text("--json", "FILE", "write the rows as JSON too", options.json_path);
  cli.integer("--seed", "S", "circuit, witness and trapdoor seed (default 1)", options.seed,
              Bounds<std::uint64_t>{0, ~std::uint64_t{0}});
  cli.epilog("Exit codes: 0 every proof verified, 1 one did not, 2 bad options.");
  if (!cli.parse(argc, argv)) return std::nullopt;
  if (options.min_log > options.max_log) throw OptionError("need --min-log <= --max-log");
  if (!options.json_path.empty()) check_output_file_option("--json", options.json_path);
  return options;
}

/// The keys of one size and convention: made from the seed's trapdoor, or loaded from --cache-dir.
KeyPair keys_for(const Options& options, const SyntheticOptions& synthetic, const SyntheticCircuit& circuit,
                 Row& row) {
  SetupOptions setup{.convention = row.convention, .timings = &row.setup};
  if (options.cache_dir.empty())
    return setup_from_trapdoor(circuit.cs, trapdoor_from_seed(options.seed), setup);
  bool loaded = false;
  KeyPair keys = load_or_setup(circuit.cs,
                               KeyCacheRequest{.directory = options.cache_dir,
                                               .circuit_name = synthetic_circuit_name(synthetic),
                                               .trapdoor_seed = options.seed},
                               setup, &loaded);
  row.setup_cached = loaded;
  return keys;
}

/// Setup (or cache load), one untimed proof, then options.runs timed proofs, each verified.
Row measure(const Options& options, const SyntheticOptions& synthetic, const SyntheticCircuit& circuit,
            HConvention convention, double synthetic_s) {
  Row row;
  row.log_n = synthetic.log_size;
  row.convention = convention;
  row.constraints = circuit.cs.num_constraints();
  row.variables = circuit.cs.num_variables;
  row.nonzeros = circuit.cs.nonzeros();
  row.synthetic_s = synthetic_s;
  const KeyPair keys = keys_for(options, synthetic, circuit, row);
  const PreparedVerifyingKey pvk = prepare(keys.vk);
  row.verified = true;
  ProveTimings warm;
  prove(keys.pk, circuit.cs, circuit.witness, {}, &warm);  // first use: NTT twiddles, page faults
  for (unsigned run = 0; run < options.runs; ++run) {
    ProveTimings timings;
    const Proof proof = prove(keys.pk, circuit.cs, circuit.witness, {}, &timings);
    row.proves.push_back(timings);
    row.verified = row.verified && verify(pvk, public_inputs(circuit.witness, circuit.cs.num_public), proof);
  }
  return row;
}

int run(const Options& options) {
  std::optional<tbb::global_control> limit;
  if (options.threads > 0) limit.emplace(tbb::global_control::max_allowed_parallelism, options.threads);
  const int threads = static_cast<int>(
      std::min<std::size_t>(static_cast<std::size_t>(tbb::this_task_arena::max_concurrency()),
                            tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism)));
  const std::string load_start = loadavg();
  std::printf(
      "bench_groth16: %d threads, load average %s, prove times are medians of %u runs (every proof "
      "verified)\n",
      threads, load_start.c_str(), options.runs);
  print_header();

  std::vector<Row> rows;
  for (unsigned log = options.min_log; log <= options.max_log; ++log) {
    const SyntheticOptions synthetic{
        .log_size = log, .num_public = 1, .seed = options.seed, .witness_seed = options.seed};
    const auto start = std::chrono::steady_clock::now();
    const SyntheticCircuit circuit = make_synthetic_circuit(synthetic);
    const double synthetic_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    for (const HConvention convention : options.conventions) {
      rows.push_back(measure(options, synthetic, circuit, convention, synthetic_s));
      print_row(rows.back());
    }
  }
  const std::string load_end = loadavg();
  std::printf("load average at the end: %s\n", load_end.c_str());
  if (!options.json_path.empty()) write_json(options.json_path, rows, options, threads, load_start, load_end);
  const bool all_verified = std::all_of(rows.begin(), rows.end(), [](const Row& r) { return r.verified; });
  return all_verified ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  return run_with_options(
      "bench_groth16", [&] { return parse_options(argc, argv); }, run);
}
