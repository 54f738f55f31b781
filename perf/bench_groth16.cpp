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
#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <proofline/groth16/key_cache.hpp>
#include <proofline/groth16/prover.hpp>
#include <proofline/groth16/setup.hpp>
#include <proofline/groth16/synthetic.hpp>
#include <proofline/groth16/verifier.hpp>

namespace {

using namespace proofline;
using namespace proofline::groth16;

struct Options {
  unsigned min_log = 12;
  unsigned max_log = 18;
  unsigned runs = 3;
  int threads = 0;
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
  if (!out) {
    std::fprintf(stderr, "bench_groth16: cannot write %s\n", path.c_str());
    std::exit(1);
  }
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

[[noreturn]] void usage(const std::string& message) {
  std::fprintf(
      stderr,
      "bench_groth16: %s\nusage: bench_groth16 [--min-log K] [--max-log K] [--runs N] "
      "[--conventions generator7,snarkjs] [--threads N] [--cache-dir DIR] [--json FILE] [--seed S]\n",
      message.c_str());
  std::exit(2);
}

unsigned long parse_number(const char* text, const char* option) {
  char* end = nullptr;
  const unsigned long value = std::strtoul(text, &end, 10);
  if (end == text || *end != '\0') usage(std::string(option) + " takes a number");
  return value;
}

Options parse_options(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--help" || arg == "-h") usage("help");
    if (i + 1 >= argc) usage("missing value after " + std::string(arg));
    const char* value = argv[++i];
    if (arg == "--min-log") {
      options.min_log = static_cast<unsigned>(parse_number(value, "--min-log"));
    } else if (arg == "--max-log") {
      options.max_log = static_cast<unsigned>(parse_number(value, "--max-log"));
    } else if (arg == "--runs") {
      options.runs = static_cast<unsigned>(parse_number(value, "--runs"));
    } else if (arg == "--threads") {
      options.threads = static_cast<int>(parse_number(value, "--threads"));
    } else if (arg == "--seed") {
      options.seed = parse_number(value, "--seed");
    } else if (arg == "--cache-dir") {
      options.cache_dir = value;
    } else if (arg == "--json") {
      options.json_path = value;
    } else if (arg == "--conventions") {
      options.conventions.clear();
      std::string_view list = value;
      while (!list.empty()) {
        const std::size_t comma = list.find(',');
        const std::string_view item = list.substr(0, comma);
        if (item == "generator7") {
          options.conventions.push_back(HConvention::generator7);
        } else if (item == "snarkjs") {
          options.conventions.push_back(HConvention::snarkjs);
        } else {
          usage("unknown convention " + std::string(item));
        }
        list = comma == std::string_view::npos ? std::string_view{} : list.substr(comma + 1);
      }
    } else {
      usage("unknown option " + std::string(arg));
    }
  }
  if (options.min_log < 2 || options.max_log > 28 || options.min_log > options.max_log)
    usage("need 2 <= --min-log <= --max-log <= 28");
  if (options.runs < 1) usage("--runs must be at least 1");
  if (options.conventions.empty()) usage("--conventions needs at least one convention");
  return options;
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse_options(argc, argv);
  std::optional<tbb::global_control> limit;
  if (options.threads > 0)
    limit.emplace(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(options.threads));
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
      Row row;
      row.log_n = log;
      row.convention = convention;
      row.constraints = circuit.cs.num_constraints();
      row.variables = circuit.cs.num_variables;
      row.nonzeros = circuit.cs.nonzeros();
      row.synthetic_s = synthetic_s;
      SetupOptions setup{.convention = convention, .timings = &row.setup};
      KeyPair keys;
      if (options.cache_dir.empty()) {
        keys = setup_from_trapdoor(circuit.cs, trapdoor_from_seed(options.seed), setup);
      } else {
        const std::string circuit_name = synthetic_circuit_name(synthetic);
        bool loaded = false;
        keys = load_or_setup(
            circuit.cs,
            KeyCacheRequest{
                .directory = options.cache_dir, .circuit_name = circuit_name, .trapdoor_seed = options.seed},
            setup, &loaded);
        row.setup_cached = loaded;
      }
      const PreparedVerifyingKey pvk = prepare(keys.vk);
      row.verified = true;
      ProveTimings warm;
      prove(keys.pk, circuit.cs, circuit.witness, {}, &warm);  // first use: NTT twiddles, page faults
      for (unsigned run = 0; run < options.runs; ++run) {
        ProveTimings timings;
        const Proof proof = prove(keys.pk, circuit.cs, circuit.witness, {}, &timings);
        row.proves.push_back(timings);
        row.verified =
            row.verified && verify(pvk, public_inputs(circuit.witness, circuit.cs.num_public), proof);
      }
      print_row(row);
      rows.push_back(std::move(row));
    }
  }
  const std::string load_end = loadavg();
  std::printf("load average at the end: %s\n", load_end.c_str());
  if (!options.json_path.empty()) write_json(options.json_path, rows, options, threads, load_start, load_end);
  const bool all_verified = std::all_of(rows.begin(), rows.end(), [](const Row& r) { return r.verified; });
  return all_verified ? 0 : 1;
}
