// CPU arithmetic benchmarks: the NTT, the H computation and the G1/G2 MSM at 2^min..2^max, medians over fresh
// random inputs, as a table and optionally JSON. Each section is one function registered in kSections.
//
//   bench_cpu_arith [--min-log K] [--max-log K] [--runs N] [--threads N]
//                   [--sections ntt,h,msm_g1,msm_g2,msm_cmp,inverse] [--json FILE] [--seed S]
#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <proofline/arith/bn254/fp.hpp>
#include <proofline/arith/curve_batch.hpp>
#include <proofline/arith/domain.hpp>
#include <proofline/arith/fp.hpp>
#include <proofline/arith/fr.hpp>
#include <proofline/arith/g1.hpp>
#include <proofline/arith/g2.hpp>
#include <proofline/arith/random.hpp>
#include <proofline/cpu/detail/mulx_field.hpp>
#include <proofline/cpu/h_poly.hpp>
#include <proofline/cpu/msm.hpp>
#include <proofline/cpu/ntt.hpp>
#include <proofline/util/options.hpp>

namespace {

using namespace proofline;

struct Options {
  unsigned min_log = 16;
  unsigned max_log = 20;
  unsigned runs = 5;
  std::size_t threads = 0;  // 0: TBB's default
  std::vector<std::string> sections;
  std::string json_path;
  std::uint64_t seed = std::random_device{}();
};

struct Row {
  std::string section;
  std::string op;
  std::string variant;  // convention, curve, ...
  unsigned log_n = 0;
  std::vector<double> ms;
  std::vector<double> cpu_ms;  // process CPU time (all threads) of each run

  static double median_of(std::vector<double> sorted) {
    std::sort(sorted.begin(), sorted.end());
    const std::size_t m = sorted.size() / 2;
    return sorted.size() % 2 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2;
  }
  double median() const { return median_of(ms); }
  double cpu_median() const { return median_of(cpu_ms); }
  double min() const { return *std::min_element(ms.begin(), ms.end()); }
  double max() const { return *std::max_element(ms.begin(), ms.end()); }
};

class Report {
 public:
  void add(Row row) {
    std::printf("%-8s %-22s %-11s %6u %11.3f %11.3f %11.3f %11.3f %5zu\n", row.section.c_str(),
                row.op.c_str(), row.variant.c_str(), row.log_n, row.median(), row.min(), row.max(),
                row.cpu_median(), row.ms.size());
    std::fflush(stdout);
    rows_.push_back(std::move(row));
  }

  static void print_header(int threads) {
    std::printf(
        "bench_cpu_arith: %d threads, times in ms, median/min/max over fresh inputs;\n"
        "cpu = median process CPU time of a run, all threads (on a shared machine cpu/threads\n"
        "estimates the wall time on an idle one)\n",
        threads);
    std::printf("%-8s %-22s %-11s %6s %11s %11s %11s %11s %5s\n", "section", "op", "variant", "log_n",
                "median", "min", "max", "cpu", "runs");
  }

  void write_json(const std::string& path, int threads, const Options& options) const {
    std::ofstream out(path);
    if (!out) throw std::runtime_error("bench_cpu_arith: cannot write " + path);
    out << "{\n  \"benchmark\": \"bench_cpu_arith\",\n  \"threads\": " << threads
        << ",\n  \"runs\": " << options.runs << ",\n  \"seed\": " << options.seed << ",\n  \"rows\": [";
    for (std::size_t i = 0; i < rows_.size(); ++i) {
      const Row& row = rows_[i];
      out << (i ? ",\n" : "\n") << "    {\"section\": \"" << row.section << "\", \"op\": \"" << row.op
          << "\", \"variant\": \"" << row.variant << "\", \"log_n\": " << row.log_n
          << ", \"median_ms\": " << row.median() << ", \"min_ms\": " << row.min()
          << ", \"max_ms\": " << row.max() << ", \"cpu_median_ms\": " << row.cpu_median()
          << ", \"runs_ms\": [";
      for (std::size_t j = 0; j < row.ms.size(); ++j) out << (j ? ", " : "") << row.ms[j];
      out << "]}";
    }
    out << "\n  ]\n}\n";
  }

 private:
  std::vector<Row> rows_;
};

double process_cpu_ms() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) / 1e6;
}

/// One untimed warm-up (first-use costs: twiddle tables, page faults), then `runs` timed calls of work, each
/// after an untimed prepare that draws fresh inputs.
Row measure(std::string section, std::string op, std::string variant, unsigned log_n, unsigned runs,
            const std::function<void()>& prepare, const std::function<void()>& work) {
  Row row{std::move(section), std::move(op), std::move(variant), log_n, {}, {}};
  prepare();
  work();
  for (unsigned run = 0; run < runs; ++run) {
    prepare();
    const double cpu_start = process_cpu_ms();
    const auto start = std::chrono::steady_clock::now();
    work();
    const auto stop = std::chrono::steady_clock::now();
    row.cpu_ms.push_back(process_cpu_ms() - cpu_start);
    row.ms.push_back(std::chrono::duration<double, std::milli>(stop - start).count());
  }
  return row;
}

/// Fills values with uniform field elements, in parallel (one generator per chunk, seeded from rng).
void fill_random(std::span<Fr> values, std::mt19937_64& rng) {
  constexpr std::size_t chunk = std::size_t{1} << 14;
  const std::uint64_t base_seed = rng();
  tbb::parallel_for(std::size_t{0}, (values.size() + chunk - 1) / chunk, [&](std::size_t c) {
    std::mt19937_64 local(base_seed ^ (0x9e3779b97f4a7c15ULL * (c + 1)));
    const std::size_t end = std::min(values.size(), (c + 1) * chunk);
    for (std::size_t i = c * chunk; i < end; ++i) values[i] = random_field<Fr>(local);
  });
}

const char* convention_name(HConvention convention) {
  return convention == HConvention::generator7 ? "generator7" : "snarkjs";
}

// ---- sections --------------------------------------------------------------------------------------------

void bench_ntt(const Options& options, Report& report, std::mt19937_64& rng) {
  // Both conventions run the same code at the same cost; generator7 stands for both.
  const HConvention convention = HConvention::generator7;
  for (unsigned k = options.min_log; k <= options.max_log; ++k) {
    const Domain domain = Domain::make(k, convention);
    std::vector<Fr> values(domain.size());
    const auto prepare = [&] { fill_random(values, rng); };
    struct Op {
      const char* name;
      std::function<void()> work;
    };
    const Op ops[] = {
        {"forward NR", [&] { cpu::forward_ntt(values, domain, NttOrder::NR); }},
        {"forward NN", [&] { cpu::forward_ntt(values, domain, NttOrder::NN); }},
        {"inverse RN", [&] { cpu::inverse_ntt(values, domain, NttOrder::RN); }},
        {"inverse NN", [&] { cpu::inverse_ntt(values, domain, NttOrder::NN); }},
        {"coset forward RN", [&] { cpu::coset_forward_ntt(values, domain, NttOrder::RN); }},
        {"coset inverse NN", [&] { cpu::coset_inverse_ntt(values, domain, NttOrder::NN); }},
        {"bit reverse", [&] { cpu::bit_reverse_permutation(values); }},
    };
    for (const Op& op : ops)
      report.add(measure("ntt", op.name, convention_name(convention), k, options.runs, prepare, op.work));
  }
}

void bench_h(const Options& options, Report& report, std::mt19937_64& rng) {
  for (unsigned k = options.min_log; k <= options.max_log; ++k) {
    for (const HConvention convention : {HConvention::generator7, HConvention::snarkjs}) {
      const Domain domain = Domain::make(k, convention);
      std::vector<Fr> a(domain.size()), b(domain.size()), c(domain.size());
      const auto prepare = [&] {
        fill_random(a, rng);
        fill_random(b, rng);
        fill_random(c, rng);
      };
      const auto work = [&] { cpu::compute_h(a, b, c, domain); };
      report.add(measure("h", "compute_h", convention_name(convention), k, options.runs, prepare, work));
    }
  }
}

// ---- MSM -------------------------------------------------------------------------------------------------

/// n distinct points fast: T1[i mod m] + T2[i / m] for two tables of m = 2^ceil(k/2) random multiples of the
/// generator, one addition per point and a batch conversion to affine (a scalar multiplication per point
/// would take minutes at 2^20). The points' discrete logs are sums of two random values: nothing the MSM can
/// exploit.
template <class Curve>
std::vector<AffinePoint<Curve>> bench_points(unsigned log_n, std::mt19937_64& rng) {
  using Affine = AffinePoint<Curve>;
  using Jacobian = JacobianPoint<Curve>;
  const std::size_t n = std::size_t{1} << log_n;
  const std::size_t m = std::size_t{1} << ((log_n + 1) / 2);
  std::vector<Fr> logs(2 * m);
  fill_random(logs, rng);
  std::vector<Jacobian> table(2 * m);
  tbb::parallel_for(std::size_t{0}, 2 * m,
                    [&](std::size_t i) { table[i] = Affine::generator().mul(logs[i]); });
  std::vector<Affine> table_affine(2 * m);
  batch_to_affine(std::span<const Jacobian>(table), std::span<Affine>(table_affine));
  std::vector<Jacobian> sums(n);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 4096),
                    [&](const tbb::blocked_range<std::size_t>& r) {
                      for (std::size_t i = r.begin(); i != r.end(); ++i)
                        sums[i] = table_affine[i % m].to_jacobian() + table_affine[m + (i / m) % m];
                    });
  std::vector<Affine> points(n);
  batch_to_affine(std::span<const Jacobian>(sums), std::span<Affine>(points));
  return points;
}

/// Groth16-like witness scalars: 20% zeros, 50% ones, 30% uniform.
void fill_groth16_mix(std::span<Fr> values, std::mt19937_64& rng) {
  constexpr std::size_t chunk = std::size_t{1} << 14;
  const std::uint64_t base_seed = rng();
  tbb::parallel_for(std::size_t{0}, (values.size() + chunk - 1) / chunk, [&](std::size_t c) {
    std::mt19937_64 local(base_seed ^ (0x9e3779b97f4a7c15ULL * (c + 1)));
    const std::size_t end = std::min(values.size(), (c + 1) * chunk);
    for (std::size_t i = c * chunk; i < end; ++i) {
      const auto draw = local() % 10;
      values[i] = draw < 2 ? Fr::zero() : draw < 7 ? Fr::one() : random_field<Fr>(local);
    }
  });
}

struct MsmVariant {
  const char* name;
  bool groth16_mix;
  cpu::MsmOptions options;
};

template <class Curve>
void bench_msm(const char* section, std::span<const MsmVariant> variants, const Options& options,
               Report& report, std::mt19937_64& rng) {
  for (unsigned k = options.min_log; k <= options.max_log; ++k) {
    const std::vector<AffinePoint<Curve>> points = bench_points<Curve>(k, rng);
    std::vector<Fr> scalars(points.size());
    for (const MsmVariant& variant : variants) {
      const auto prepare = [&] {
        if (variant.groth16_mix) {
          fill_groth16_mix(scalars, rng);
        } else {
          fill_random(scalars, rng);
        }
      };
      JacobianPoint<Curve> sink;
      const auto work = [&] { sink = cpu::msm(points, scalars, variant.options); };
      report.add(measure(section, "msm", variant.name, k, options.runs, prepare, work));
      if (sink.is_infinity()) std::printf("(unexpected infinity)\n");
    }
  }
}

/// "uniform": uniform scalars; "mix": the Groth16-like mix of fill_groth16_mix (its fast path on).
void bench_msm_g1(const Options& options, Report& report, std::mt19937_64& rng) {
  static const MsmVariant variants[] = {{"uniform", false, {}}, {"mix", true, {}}};
  bench_msm<G1Params>("msm_g1", variants, options, report, rng);
}

void bench_msm_g2(const Options& options, Report& report, std::mt19937_64& rng) {
  static const MsmVariant variants[] = {{"uniform", false, {}}};
  bench_msm<G2Params>("msm_g2", variants, options, report, rng);
}

/// Section msm_cmp, what the automatic choices buy in G1: XYZZ-only buckets against the plan's pick (batch
/// affine for wide windows), and the Groth16 mix without its fast path.
void bench_msm_compare(const Options& options, Report& report, std::mt19937_64& rng) {
  static const MsmVariant variants[] = {
      {"uni xyzz", false, {.buckets = cpu::MsmBuckets::xyzz}},
      {"mix nosplit", true, {.split_zero_one = false}},
  };
  bench_msm<G1Params>("msm_cmp", variants, options, report, rng);
}

// ---- field inversion -------------------------------------------------------------------------------------

/// 2^12 inversions of random elements on one thread, by the binary GCD the MSM uses and by Fermat's power,
/// for the base fields (where the batch-affine MSM inverts); rows at log_n 12 whatever the size range.
template <class F>
void bench_inverse_of(const char* field, const Options& options, Report& report, std::mt19937_64& rng) {
  using Twin = cpu::detail::MulxField<F>;
  constexpr unsigned log_count = 12;
  std::vector<F> values(std::size_t{1} << log_count);
  Twin sink = Twin::zero();
  const auto prepare = [&] {
    for (F& v : values) v = random_field<F>(rng);
  };
  const auto gcd = [&] {
    for (const F& v : values) sink += Twin::from(v).inverse();
  };
  const auto fermat = [&] {
    for (const F& v : values) sink += Twin::from(v).fermat_inverse();
  };
  report.add(measure("inverse", "2^12 inversions", std::string(field) + " gcd", log_count, options.runs,
                     prepare, gcd));
  report.add(measure("inverse", "2^12 inversions", std::string(field) + " fermat", log_count, options.runs,
                     prepare, fermat));
  if (sink.is_zero()) std::printf("(unexpected zero)\n");
}

void bench_inverse(const Options& options, Report& report, std::mt19937_64& rng) {
  if (!cpu::detail::cpu_has_mulx_adx()) {
    std::printf(
        "inverse: skipped, this CPU lacks BMI2 or ADX (the MSM's fields are the portable ones here)\n");
    return;
  }
  bench_inverse_of<Fp>("bls12-381 fp", options, report, rng);
  bench_inverse_of<bn254::Fp>("bn254 fp", options, report, rng);
}

struct Section {
  const char* name;
  void (*run)(const Options&, Report&, std::mt19937_64&);
};

constexpr Section kSections[] = {
    {"ntt", bench_ntt},
    {"h", bench_h},
    {"msm_g1", bench_msm_g1},
    {"msm_g2", bench_msm_g2},
    {"msm_cmp", bench_msm_compare},
    {"inverse", bench_inverse},
};

// ---- command line ----------------------------------------------------------------------------------------

Choices<std::string> section_choices() {
  Choices<std::string> choices;
  for (const Section& section : kSections) choices.emplace_back(section.name, section.name);
  return choices;
}

/// The options; none after printing --help. Throws OptionError for anything unusable.
std::optional<Options> parse_options(int argc, char** argv) {
  Options options;
  OptionParser cli(
      "bench_cpu_arith", "usage: bench_cpu_arith [options]",
      "CPU arithmetic: NTT, H and G1/G2 MSM times at 2^min..2^max, medians over fresh random inputs.");
  cli.integer("--min-log", "K", "smallest size, 2^K (default 16)", options.min_log,
              Bounds<unsigned>{1, max_ntt_log_size});
  cli.integer("--max-log", "K", "largest size, 2^K (default 20)", options.max_log,
              Bounds<unsigned>{1, max_ntt_log_size});
  cli.integer("--runs", "N", "timed runs per row (default 5)", options.runs, Bounds<unsigned>{1, 1000});
  cli.integer("--threads", "N", "threads (default 0: TBB's default)", options.threads, thread_bounds(0));
  cli.choice_list("--sections", "LIST",
                  "sections to run, of ntt,h,msm_g1,msm_g2,msm_cmp,inverse (default: all)", options.sections,
                  section_choices());
  cli.text("--json", "FILE", "write the rows as JSON too", options.json_path);
  cli.integer("--seed", "S", "input seed (default: random)", options.seed,
              Bounds<std::uint64_t>{0, ~std::uint64_t{0}});
  if (!cli.parse(argc, argv)) return std::nullopt;
  if (options.min_log > options.max_log) throw OptionError("need --min-log <= --max-log");
  return options;
}

int run(const Options& options) {
  std::optional<tbb::global_control> limit;
  if (options.threads > 0) limit.emplace(tbb::global_control::max_allowed_parallelism, options.threads);
  const int threads = static_cast<int>(
      std::min<std::size_t>(static_cast<std::size_t>(tbb::this_task_arena::max_concurrency()),
                            tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism)));
  std::mt19937_64 rng(options.seed);

  Report report;
  Report::print_header(threads);
  for (const Section& section : kSections) {
    if (!options.sections.empty() &&
        std::find(options.sections.begin(), options.sections.end(), section.name) == options.sections.end())
      continue;
    section.run(options, report, rng);
  }
  if (!options.json_path.empty()) report.write_json(options.json_path, threads, options);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return run_with_options(
      "bench_cpu_arith", [&] { return parse_options(argc, argv); }, run);
}
