// The full check of a proving key's query points, before and after batching and the cache of checked keys:
// per key, the old per-point check (coordinates, curve, Scott's endomorphism subgroup test on every point),
// the per-point coordinate and curve check alone, the batched subgroup check (detail/batch_subgroup.hpp) and
// its earlier form (41 separate ±1 sums through cpu::msm) for comparison in the same run, the SHA-256 digest
// the cache records, and whole loads (trusted, full with an empty cache, full again with the record), as a
// table and optionally JSON.
//
//   bench_keycheck [--key FILE]... [--setup-log K]... [--shaped-log K]... [--dir DIR] [--runs N]
//                  [--threads N] [--loads-only] [--per-round] [--gpu] [--json FILE]
//
// --key: a native key (.plkey) or a snarkjs .zkey. --setup-log: a synthetic circuit of 2^K constraints and
// its key from the known-trapdoor setup, cached in DIR. --shaped-log: a key with the query sizes of a 2^K
// circuit (2^K variables, one public, snarkjs H) filled with consecutive multiples of the generators, every
// 7th point infinity: the check's cost depends on the sizes, not on the values, and it is made in seconds
// where the setup of 2^20 takes many minutes. --loads-only skips the separate per-point and batched checks
// (reported as 0; the full load includes the batched one); --per-round measures the earlier per-round
// batched check even then. --gpu adds the subgroup check on the GPU (devices::gpu_subgroup_tester: every
// point tested exactly, one thread a point) alone and in a first full load.
#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <proofline/arith/curve_batch.hpp>
#include <proofline/devices/subgroup_tester.hpp>
#include <proofline/groth16/detail/batch_subgroup.hpp>
#include <proofline/groth16/detail/point_checks.hpp>
#include <proofline/groth16/detail/sha256.hpp>
#include <proofline/groth16/key_cache.hpp>
#include <proofline/groth16/key_check.hpp>
#include <proofline/groth16/native_file.hpp>
#include <proofline/groth16/synthetic.hpp>
#include <proofline/groth16/zkey.hpp>
#include <proofline/util/options.hpp>

namespace {

using namespace proofline;
using namespace proofline::groth16;
namespace fs = std::filesystem;

struct Options {
  std::vector<std::string> keys;
  std::vector<unsigned> setup_logs, shaped_logs;
  std::string dir = "/tmp/proofline-keycheck-bench";
  unsigned runs = 3;
  bool separate_checks = true;  // false: only the loads (large keys, where each check takes minutes)
  bool per_round = false;       // the earlier per-round check even without the separate checks
  bool gpu = false;             // the subgroup check on the GPU too
  std::size_t threads = 0;
  std::string json_path;
};

struct Row {
  std::string name;
  std::uint64_t g1_points = 0, g2_points = 0, query_bytes = 0;
  double per_point_full_s = 0, per_point_curve_s = 0, batched_s = 0, per_round_s = 0, hash_s = 0;
  double load_trusted_s = 0, load_full_first_s = 0, load_full_cached_s = 0;
  double gpu_subgroup_s = 0, load_full_gpu_s = 0;  // with --gpu
};

double seconds(const std::function<void()>& f) {
  const auto start = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double median_of(unsigned runs, const std::function<void()>& f) {
  std::vector<double> t;
  for (unsigned i = 0; i < runs; ++i) t.push_back(seconds(f));
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

/// The lowest failing index of a per-point check over a query (the readers' old full check when
/// `subgroup`), or the size.
template <class Affine>
std::uint64_t per_point(const SharedArray<Affine>& q, bool subgroup) {
  const Affine* p = q.data();
  return tbb::parallel_reduce(
      tbb::blocked_range<std::uint64_t>(0, q.size(), 256), q.size(),
      [&](const tbb::blocked_range<std::uint64_t>& r, std::uint64_t found) {
        for (std::uint64_t i = r.begin(); i < r.end() && i < found; ++i)
          if (!groth16::detail::is_valid_coordinates(p[i]) || !p[i].is_on_curve() ||
              (subgroup && !is_in_subgroup(p[i])))
            return i;
        return found;
      },
      [](std::uint64_t a, std::uint64_t b) { return std::min(a, b); });
}

void per_point_all(const ProvingKey& pk, bool subgroup) {
  const bool ok = per_point(pk.a_query, subgroup) == pk.a_query.size() &&
                  per_point(pk.b1_query, subgroup) == pk.b1_query.size() &&
                  per_point(pk.b2_query, subgroup) == pk.b2_query.size() &&
                  per_point(pk.h_query, subgroup) == pk.h_query.size() &&
                  per_point(pk.l_query, subgroup) == pk.l_query.size();
  if (!ok) throw Error(Errc::bad_input, "the key has a bad point");
}

/// The earlier batched check: 41 separate {−1, 0, 1} sums per query through cpu::msm.
void per_round_all(const ProvingKey& pk) {
  const auto check = [](const auto& q) {
    if (!groth16::detail::batch_in_subgroup_per_round(std::span(q.data(), q.size())))
      throw Error(Errc::bad_input, "the key has a point outside the subgroup");
  };
  check(pk.a_query);
  check(pk.b1_query);
  check(pk.b2_query);
  check(pk.h_query);
  check(pk.l_query);
}

template <class Affine>
SharedArray<Affine> multiples(std::uint64_t count) {
  using Jacobian = decltype(Affine::generator().to_jacobian());
  std::vector<Jacobian> jac(count);
  Jacobian acc = Jacobian::infinity();
  for (std::uint64_t i = 0; i < count; ++i)
    jac[i] = i % 7 == 0 ? Jacobian::infinity() : (acc += Affine::generator());
  std::vector<Affine> out(count);
  batch_to_affine(std::span<const Jacobian>(jac), std::span<Affine>(out));
  return SharedArray<Affine>(std::move(out));
}

fs::path shaped_key(const Options& o, unsigned log) {
  const fs::path path = fs::path(o.dir) / ("shaped-2^" + std::to_string(log) + ".plkey");
  if (fs::exists(path)) return path;
  ProvingKey pk;
  pk.convention = HConvention::snarkjs;
  pk.num_variables = std::uint64_t{1} << log;
  pk.num_public = 1;
  pk.log_domain_size = log;
  pk.alpha1 = pk.beta1 = pk.delta1 = G1Affine::generator();
  pk.beta2 = pk.delta2 = G2Affine::generator();
  pk.a_query = multiples<G1Affine>(pk.num_variables);
  pk.b1_query = pk.a_query;
  pk.b2_query = multiples<G2Affine>(pk.num_variables);
  pk.h_query = multiples<G1Affine>(pk.domain_size());
  pk.l_query = multiples<G1Affine>(pk.num_private());
  write_proving_key(path, pk);
  return path;
}

fs::path setup_key(const Options& o, unsigned log) {
  SyntheticOptions so;
  so.log_size = log;
  const SyntheticCircuit circuit = make_synthetic_circuit(so);
  KeyCacheRequest request;
  request.directory = o.dir;
  const std::string name = synthetic_circuit_name(so);
  request.circuit_name = name;
  load_or_setup(circuit.cs, request, SetupOptions{.convention = HConvention::snarkjs});
  return key_cache_path(request, HConvention::snarkjs, log);
}

ProvingKey load_pk(const fs::path& path, bool zkey, PointCheck level, const KeyCheckOptions& check,
                   KeyCheckReport* report = nullptr) {
  if (zkey) {
    ZkeyFile f =
        read_zkey(path, ZkeyOptions{.points = level, .constraint_system = false, .key_check = check});
    if (report) *report = f.key_check;
    return f.pk;
  }
  LoadOptions options;
  options.check_query_subgroups = level == PointCheck::full;
  options.check_query_points = level != PointCheck::trusted;
  options.key_check = check;
  auto f = load_proving_key(path, options);
  if (report) *report = f.value.key_check;
  return f.value.pk;
}

Row measure(const Options& o, const fs::path& path) {
  const bool zkey = path.extension() == ".zkey";
  Row row;
  row.name = path.filename().string();
  const KeyCheckOptions no_cache{.use_cache = false};
  const ProvingKey pk = load_pk(path, zkey, PointCheck::trusted, no_cache);
  row.g1_points = pk.a_query.size() + pk.b1_query.size() + pk.h_query.size() + pk.l_query.size();
  row.g2_points = pk.b2_query.size();
  row.query_bytes = pk.query_bytes();
  if (o.separate_checks) {
    row.per_point_full_s = median_of(o.runs, [&] { per_point_all(pk, true); });
    row.batched_s =
        median_of(o.runs, [&] { check_query_subgroups(pk, Errc::bad_input, row.name, no_cache); });
  }
  if (o.separate_checks || o.per_round) row.per_round_s = median_of(o.runs, [&] { per_round_all(pk); });
  row.per_point_curve_s = median_of(o.runs, [&] { per_point_all(pk, false); });
  row.hash_s = median_of(o.runs, [&] { (void)query_digest(pk); });
  row.load_trusted_s = median_of(o.runs, [&] { load_pk(path, zkey, PointCheck::trusted, no_cache); });
  const fs::path records = fs::path(o.dir) / "checked-keys";
  std::vector<double> first, cached;
  for (unsigned i = 0; i < o.runs; ++i) {
    fs::remove_all(records);
    KeyCheckReport report;
    first.push_back(
        seconds([&] { load_pk(path, zkey, PointCheck::full, {.cache_directory = records}, &report); }));
    if (!report.record_written) throw Error(Errc::io, "no record written");
    cached.push_back(
        seconds([&] { load_pk(path, zkey, PointCheck::full, {.cache_directory = records}, &report); }));
    if (!report.from_cache) throw Error(Errc::io, "the record was not used");
  }
  std::sort(first.begin(), first.end());
  std::sort(cached.begin(), cached.end());
  row.load_full_first_s = first[first.size() / 2];
  row.load_full_cached_s = cached[cached.size() / 2];
  if (o.gpu) {
    const auto tester = devices::gpu_subgroup_tester();
    if (!tester) throw Error(Errc::cuda, "--gpu: no usable GPU");
    const KeyCheckOptions on_gpu{.use_cache = false, .tester = tester};
    row.gpu_subgroup_s =
        median_of(o.runs, [&] { check_query_subgroups(pk, Errc::bad_input, row.name, on_gpu); });
    row.load_full_gpu_s = median_of(o.runs, [&] { load_pk(path, zkey, PointCheck::full, on_gpu); });
  }
  return row;
}

void print(const std::vector<Row>& rows) {
  std::printf("%-44s %8s %7s %8s | %9s %9s %9s %9s %7s | %8s %9s %9s | %8s %9s\n", "key", "G1 pts", "G2 pts",
              "MiB", "perpt full", "perpt crv", "per-round", "batched", "sha256", "load trst", "load full",
              "full cached", "gpu subg", "full gpu");
  for (const Row& r : rows)
    std::printf("%-44s %8llu %7llu %8.1f | %9.3f %9.3f %9.3f %9.3f %7.3f | %8.3f %9.3f %9.3f | %8.3f %9.3f\n",
                r.name.c_str(), static_cast<unsigned long long>(r.g1_points),
                static_cast<unsigned long long>(r.g2_points), static_cast<double>(r.query_bytes) / (1 << 20),
                r.per_point_full_s, r.per_point_curve_s, r.per_round_s, r.batched_s, r.hash_s,
                r.load_trusted_s, r.load_full_first_s, r.load_full_cached_s, r.gpu_subgroup_s,
                r.load_full_gpu_s);
}

void write_json(const std::string& path, const std::vector<Row>& rows, std::size_t threads) {
  std::ofstream out(path);
  out << "{\n  \"threads\": " << threads << ",\n  \"sha256_cpu_extensions\": "
      << (groth16::detail::sha256_uses_cpu_extensions() ? "true" : "false") << ",\n  \"keys\": [\n";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    out << "    {\"key\": \"" << r.name << "\", \"g1_points\": " << r.g1_points
        << ", \"g2_points\": " << r.g2_points << ", \"query_bytes\": " << r.query_bytes
        << ", \"per_point_full_s\": " << r.per_point_full_s
        << ", \"per_point_curve_s\": " << r.per_point_curve_s
        << ", \"per_round_subgroup_s\": " << r.per_round_s << ", \"batched_subgroup_s\": " << r.batched_s
        << ", \"sha256_s\": " << r.hash_s << ", \"load_trusted_s\": " << r.load_trusted_s
        << ", \"load_full_first_s\": " << r.load_full_first_s
        << ", \"load_full_cached_s\": " << r.load_full_cached_s
        << ", \"gpu_subgroup_s\": " << r.gpu_subgroup_s << ", \"load_full_gpu_s\": " << r.load_full_gpu_s
        << "}" << (i + 1 < rows.size() ? "," : "") << "\n";
  }
  out << "  ]\n}\n";
}

}  // namespace

int main(int argc, char** argv) {
  try {
    Options o;
    std::string key, setup_log, shaped_log;
    for (int i = 1; i < argc; ++i) {
      const std::string arg = argv[i];
      const auto value = [&]() -> std::string {
        if (i + 1 >= argc) throw Error(Errc::invalid_argument, arg + " needs a value");
        return argv[++i];
      };
      if (arg == "--key")
        o.keys.push_back(value());
      else if (arg == "--setup-log")
        o.setup_logs.push_back(static_cast<unsigned>(std::stoul(value())));
      else if (arg == "--shaped-log")
        o.shaped_logs.push_back(static_cast<unsigned>(std::stoul(value())));
      else if (arg == "--dir")
        o.dir = value();
      else if (arg == "--loads-only")
        o.separate_checks = false;
      else if (arg == "--per-round")
        o.per_round = true;
      else if (arg == "--gpu")
        o.gpu = true;
      else if (arg == "--runs")
        o.runs = static_cast<unsigned>(std::stoul(value()));
      else if (arg == "--threads")
        o.threads = std::stoul(value());
      else if (arg == "--json")
        o.json_path = value();
      else
        throw Error(Errc::invalid_argument, "unknown option " + arg);
    }
    if (o.runs == 0) throw Error(Errc::invalid_argument, "--runs must be at least 1");
    std::optional<tbb::global_control> limit;
    if (o.threads > 0) limit.emplace(tbb::global_control::max_allowed_parallelism, o.threads);
    const std::size_t threads =
        tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism);
    fs::create_directories(o.dir);
    std::vector<fs::path> paths(o.keys.begin(), o.keys.end());
    for (unsigned log : o.setup_logs) paths.push_back(setup_key(o, log));
    for (unsigned log : o.shaped_logs) paths.push_back(shaped_key(o, log));
    std::vector<Row> rows;
    for (const fs::path& path : paths) {
      rows.push_back(measure(o, path));
      print({rows.back()});
      std::fflush(stdout);
    }
    std::printf("\n%zu threads, %u runs (medians), SHA extensions %s\n", threads, o.runs,
                groth16::detail::sha256_uses_cpu_extensions() ? "on" : "off");
    print(rows);
    if (!o.json_path.empty()) write_json(o.json_path, rows, threads);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_keycheck: %s\n", e.what());
    return 1;
  }
  return 0;
}
