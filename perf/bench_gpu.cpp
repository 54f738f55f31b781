// GPU benchmarks, one section per area, printed as a table beside the public sppark library's figures
// measured on the same GPU model (the tables below) and the integer-multiply model floors, and optionally
// written as JSON. The MSM rows are bench_gpu_msm's, in the same table layout.
//
//   bench_gpu [--sections probe,ntt,h,bn254] [--sizes 20,22,24,26] [--runs N] [--tile-log 8..10]
//             [--top-diagonals] [--h-coset-tables] [--json FILE]
//
// --top-diagonals: the engine precomputes the top pass's diagonal of every size benchmarked, both conventions
// (NttEngineOptions::top_diagonals: 2^log_n x 64 bytes of VRAM each). --h-coset-tables: H's coset scales as
// full tables (NttEngineOptions::h_coset_tables: 2^log_n x 64 bytes in generator7, x 32 in snarkjs's).
//
// Method: device-resident data filled with pseudo-random field elements (never zeros), CUDA events around
// each call on one stream, 3 warm-up calls, then the median of N calls (default 11, 7 at 2^26). Calls rotate
// over enough buffers that each size touches at least 256 MiB, so the 60 MB L2 does not serve the inputs. NTT
// rows time one in-place transform; H rows one enqueue_h (all launches, a, b, c resident, no transfers). Up
// to 2^22 each row checks one more call against the CPU's ntt or compute_h. The
// bn254 section repeats the NTT and H rows for BN254's Fr (circom's bn128, snarkjs's convention, its own
// engine) beside this run's BLS12-381 rows. Results go to perf/results.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include <cuda_runtime.h>

#include <proofline/arith/bn254/fr.hpp>
#include <proofline/arith/domain.hpp>
#include <proofline/cpu/h_poly.hpp>
#include <proofline/cpu/ntt.hpp>
#include <proofline/cuda/check.hpp>
#include <proofline/cuda/device.hpp>
#include <proofline/cuda/device_buffer.hpp>
#include <proofline/cuda/gpu_ntt.hpp>
#include <proofline/cuda/stream.hpp>
#include <proofline/util/error.hpp>
#include <proofline/util/options.hpp>

#include "bench_gpu_kernels.hpp"
#include "gpu_bench_report.hpp"

namespace {

using namespace proofline;
using bench::Report;
using bench::Row;
using bench::size_index;

struct Options {
  std::vector<std::string> sections = {"probe", "ntt", "h", "bn254"};
  std::vector<unsigned> sizes = {20, 22, 24, 26};
  int runs = 0;  // 0: 11, or 7 at 2^26 and above
  int tile_log = cuda::NttEngineOptions{}.tile_log;
  bool top_diagonals = false;
  bool h_coset_tables = false;
  std::string json_path;
};

// ---- reference figures ----

/// sppark on an H200 (medians), by variant and size 2^20, 2^22, 2^24, 2^26.
double sppark_ntt_ms(NttDirection direction, NttOrder order, bool coset, unsigned log_n) {
  static const double fwd_nr[] = {0.261, 1.046, 4.429, 20.934}, fwd_rn[] = {0.257, 1.035, 4.409, 22.504},
                      fwd_nr_c[] = {0.300, 1.198, 5.020, 23.317}, fwd_rn_c[] = {0.298, 1.190, 5.008, 24.865},
                      inv_nr[] = {0.278, 1.111, 4.684, 21.969}, inv_rn[] = {0.273, 1.098, 4.655, 23.479},
                      inv_nr_c[] = {0.318, 1.265, 5.288, 24.353}, inv_rn_c[] = {0.314, 1.260, 5.250, 25.879},
                      fwd_nn[] = {0.281, 1.122, 4.740, 23.831};
  const int i = size_index(log_n);
  if (i < 0) return 0;
  const bool fwd = direction == NttDirection::forward;
  if (order == NttOrder::NN) return fwd && !coset ? fwd_nn[i] : 0;
  const bool nr = order == NttOrder::NR;
  if (fwd) return (nr ? (coset ? fwd_nr_c : fwd_nr) : (coset ? fwd_rn_c : fwd_rn))[i];
  return (nr ? (coset ? inv_nr_c : inv_nr) : (coset ? inv_rn_c : inv_rn))[i];
}

double sppark_h_ms(unsigned log_n) {
  static const double h[] = {2.070, 8.308, 34.982, 167.334};  // sppark: 7 NTTs + pointwise, generator-7
  const int i = size_index(log_n);
  return i < 0 ? 0 : h[i];
}

/// The model floor: an Fr NTT at 100% of the integer-multiply peak.
double ntt_floor_ms(unsigned log_n) {
  static const double floor[] = {0.20, 0.89, 3.8, 16.4};
  const int i = size_index(log_n);
  return i < 0 ? 0 : floor[i];
}

// ---- timing ----

/// Times `call(buffer_index)` with events: 3 warm-ups, then `runs` timed calls rotating over `buffers`.
std::vector<double> time_calls(cuda::Stream& stream, int runs, int buffers,
                               const std::function<void(int)>& call) {
  cuda::Event start, stop;
  for (int i = 0; i < 3; ++i) call(i % buffers);
  std::vector<double> ms;
  for (int i = 0; i < runs; ++i) {
    start.record(stream);
    call((i + 3) % buffers);
    stop.record(stream);
    stop.synchronize();
    ms.push_back(stop.elapsed_ms_since(start));
  }
  return ms;
}

/// Buffers so that one size's calls touch at least 256 MiB (8 at 2^20, 2 at 2^22, 1 from 2^24).
int rotation(unsigned log_n, int vectors_per_call) {
  const std::size_t bytes = (std::size_t{32} << log_n) * static_cast<std::size_t>(vectors_per_call);
  return static_cast<int>(std::max<std::size_t>(1, (std::size_t{256} << 20) / bytes));
}

int runs_for(const Options& options, unsigned log_n) {
  return options.runs > 0 ? options.runs : (log_n >= 26 ? 7 : 11);
}

// ---- sections ----

struct Context {
  Options options;
  Report report;
  std::unique_ptr<cuda::NttEngine> engine;
  std::unique_ptr<cuda::BasicNttEngine<bn254::Fr>> bn254_engine;
  cuda::Stream stream;
};

void section_probe(Context& ctx) {
  const double rate = bench::fr_mul_per_second();
  // 224 32-bit multiply-adds per Fr multiplication (8 x 16 products, 8 x 12 reduction products).
  std::printf("probe  Fr multiplications: %.2f G/s (%.2f T IMAD/s at 224 per multiplication)\n", rate * 1e-9,
              rate * 224e-12);
  ctx.report.note("fr_mul_per_s", rate);

  // Device-to-device copy bandwidth (bytes read + written), the memory ceiling.
  const std::size_t bytes = std::size_t{1} << 31;
  cuda::DeviceBuffer<unsigned char> src(bytes), dst(bytes);
  PL_CUDA_CHECK(cudaMemsetAsync(src.data(), 1, bytes, ctx.stream));
  const auto ms = time_calls(ctx.stream, 5, 1, [&](int) {
    PL_CUDA_CHECK(cudaMemcpyAsync(dst.data(), src.data(), bytes, cudaMemcpyDeviceToDevice, ctx.stream));
  });
  const double best = *std::min_element(ms.begin(), ms.end());
  std::printf("probe  device copy: %.2f TB/s (read + write)\n", 2.0 * bytes / (best * 1e-3) * 1e-12);
  ctx.report.note("copy_bytes_per_s", 2.0 * bytes / (best * 1e-3));
}

struct NttVariant {
  const char* name;
  NttDirection direction;
  NttOrder order;
  bool coset;
};

constexpr NttVariant kNttVariants[] = {
    {"Fr NTT fwd NR (GS)", NttDirection::forward, NttOrder::NR, false},
    {"Fr NTT fwd RN (CT)", NttDirection::forward, NttOrder::RN, false},
    {"Fr NTT inv NR", NttDirection::inverse, NttOrder::NR, false},
    {"Fr NTT inv RN", NttDirection::inverse, NttOrder::RN, false},
    {"Fr NTT coset fwd NR", NttDirection::forward, NttOrder::NR, true},
    {"Fr NTT coset fwd RN", NttDirection::forward, NttOrder::RN, true},
    {"Fr NTT coset inv NR", NttDirection::inverse, NttOrder::NR, true},
    {"Fr NTT coset inv RN", NttDirection::inverse, NttOrder::RN, true},
    {"Fr NTT fwd NN (GS + bit reversal)", NttDirection::forward, NttOrder::NN, false},
};

/// The NTT and H rows up to this size check one more call against the CPU reference (seconds a row above it;
/// the GPU suite compares the larger sizes).
constexpr unsigned kCheckMaxLog = 22;

template <class F>
std::vector<F> download(const cuda::DeviceBuffer<F>& buffer, std::size_t n) {
  std::vector<F> host(n);
  PL_CUDA_CHECK(cudaMemcpy(host.data(), buffer.data(), n * sizeof(F), cudaMemcpyDeviceToHost));
  return host;
}

/// PASS when one more enqueue_ntt of the device vector (left as the timed calls made it) equals cpu::ntt.
template <class F>
std::string check_ntt(Context& ctx, const cuda::BasicNttEngine<F>& engine, const BasicDomain<F>& domain,
                      const NttVariant& v, cuda::DeviceBuffer<F>& data) {
  std::vector<F> expected = download(data, domain.size());
  engine.enqueue_ntt(data.data(), domain, v.direction, v.order, v.coset, ctx.stream);
  ctx.stream.synchronize();
  cpu::ntt(std::span<F>(expected), domain, v.direction, v.order, v.coset);
  return download(data, domain.size()) == expected ? "PASS" : "FAIL";
}

/// PASS when one enqueue_h of the device vectors a, b, c (left as they are: intermediates of the timed calls)
/// equals cpu::compute_h of the same inputs.
template <class F>
std::string check_h(Context& ctx, const cuda::BasicNttEngine<F>& engine, const BasicDomain<F>& domain,
                    cuda::DeviceBuffer<F>& a, cuda::DeviceBuffer<F>& b, cuda::DeviceBuffer<F>& c) {
  const std::size_t n = domain.size();
  std::vector<F> ha = download(a, n), hb = download(b, n), hc = download(c, n);
  engine.enqueue_h(a.data(), b.data(), c.data(), domain, ctx.stream);
  ctx.stream.synchronize();
  cpu::compute_h(std::span<F>(ha), std::span<F>(hb), std::span<F>(hc), domain);
  return download(a, n) == ha ? "PASS" : "FAIL";
}

/// One row per variant at one size: `prefix` before the variant's name, sppark's figures for BLS12-381 only.
template <class F>
void ntt_rows(Context& ctx, const cuda::BasicNttEngine<F>& engine, const BasicDomain<F>& domain,
              const std::string& section, const std::string& prefix, const std::string& includes) {
  const unsigned log_n = domain.log_size();
  const int buffers = rotation(log_n, 1);
  std::vector<cuda::DeviceBuffer<F>> data;
  for (int i = 0; i < buffers; ++i) {
    data.emplace_back(domain.size());
    bench::fill_random_fr(data.back().data(), domain.size(), 1000 * log_n + i, ctx.stream);
  }
  for (const NttVariant& v : kNttVariants) {
    Row row;
    row.section = section;
    row.name = prefix + v.name;
    row.log_n = log_n;
    row.ms = time_calls(ctx.stream, runs_for(ctx.options, log_n), buffers, [&](int b) {
      engine.enqueue_ntt(data[static_cast<std::size_t>(b)].data(), domain, v.direction, v.order, v.coset,
                         ctx.stream);
    });
    if constexpr (std::is_same_v<F, Fr>)
      row.reference_ms = sppark_ntt_ms(v.direction, v.order, v.coset, log_n);
    row.floor_ms = ntt_floor_ms(log_n);
    row.includes = includes;
    if (log_n <= kCheckMaxLog) row.check = check_ntt(ctx, engine, domain, v, data[0]);
    ctx.report.add(std::move(row));
  }
}

/// One enqueue_h row; returns its median.
template <class F>
double h_row(Context& ctx, const cuda::BasicNttEngine<F>& engine, const BasicDomain<F>& domain,
             const std::string& section, const std::string& name) {
  const unsigned log_n = domain.log_size();
  const int buffers = rotation(log_n, 3);
  std::vector<cuda::DeviceBuffer<F>> data;
  for (int i = 0; i < 3 * buffers; ++i) {
    data.emplace_back(domain.size());
    bench::fill_random_fr(data.back().data(), domain.size(), 5000 * log_n + i, ctx.stream);
  }
  Row row;
  row.section = section;
  const bool g7 = domain.convention() == HConvention::generator7;
  row.name = name;
  row.log_n = log_n;
  row.ms = time_calls(ctx.stream, runs_for(ctx.options, log_n), buffers, [&](int b) {
    const std::size_t k = 3 * static_cast<std::size_t>(b);
    engine.enqueue_h(data[k].data(), data[k + 1].data(), data[k + 2].data(), domain, ctx.stream);
  });
  row.reference_ms = g7 ? sppark_h_ms(log_n) : 0;
  row.floor_ms = ntt_floor_ms(log_n) * 6;
  row.includes = "enqueue_h: all launches, a b c resident, no transfers";
  if (log_n <= kCheckMaxLog) row.check = check_h(ctx, engine, domain, data[0], data[1], data[2]);
  const double median = row.median();
  ctx.report.add(std::move(row));
  return median;
}

void section_ntt(Context& ctx) {
  for (const unsigned log_n : ctx.options.sizes)
    ntt_rows(ctx, *ctx.engine, Domain::make(log_n, HConvention::generator7), "ntt", "",
             "one in-place transform, device-resident, generator7 tables");
}

void section_h(Context& ctx) {
  for (const unsigned log_n : ctx.options.sizes) {
    h_row(ctx, *ctx.engine, Domain::make(log_n, HConvention::generator7), "h",
          "H generator7 (6 NTTs, fused)");
    h_row(ctx, *ctx.engine, Domain::make(log_n, HConvention::snarkjs), "h", "H snarkjs (6 NTTs, fused)");
  }
}

/// BN254's Fr (snarkjs's bn128 convention, the only one its domains have): every NTT variant and H, beside
/// this run's BLS12-381 snarkjs H (note bn254_h_over_bls12_381_h).
void section_bn254(Context& ctx) {
  for (const unsigned log_n : ctx.options.sizes) {
    const auto domain = bn254::Domain::make(log_n, HConvention::snarkjs);
    ntt_rows(ctx, *ctx.bn254_engine, domain, "bn254", "BN254 ",
             "one in-place transform, device-resident, BN254 snarkjs tables");
    const double h = h_row(ctx, *ctx.bn254_engine, domain, "bn254", "BN254 H snarkjs (6 NTTs, fused)");
    if (const Row* bls = ctx.report.find("H snarkjs (6 NTTs, fused)", log_n))
      ctx.report.note("bn254_h_over_bls12_381_h_2^" + std::to_string(log_n), h / bls->median());
  }
}

/// The options; none after printing --help. Throws OptionError for anything unusable.
std::optional<Options> parse(int argc, char** argv) {
  Options o;
  OptionParser cli(
      "bench_gpu", "usage: bench_gpu [options]",
      "GPU NTT and H timings (and a probe of the multiply rate and copy bandwidth) beside sppark and "
      "the model floors.");
  cli.choice_list("--sections", "LIST", "of probe,ntt,h,bn254 (default: all)", o.sections,
                  Choices<std::string>{{"probe", "probe"}, {"ntt", "ntt"}, {"h", "h"}, {"bn254", "bn254"}});
  cli.integer_list("--sizes", "LIST", "log2 sizes (default 20,22,24,26)", o.sizes,
                   Bounds<unsigned>{static_cast<unsigned>(cuda::NttEngine::min_log_n), max_ntt_log_size});
  cli.integer("--runs", "N", "timed calls per row (default 11, 7 at 2^26)", o.runs, Bounds<int>{1, 1000});
  cli.integer("--tile-log", "8..10", "log2 elements per thread block", o.tile_log, Bounds<int>{8, 10});
  cli.flag("--top-diagonals", "precompute the top pass's diagonal of every size (2^log_n x 64 bytes each)",
           o.top_diagonals);
  cli.flag("--h-coset-tables",
           "H reads its coset scales from full tables (2^log_n x 64 bytes in generator7, x 32 in snarkjs's)",
           o.h_coset_tables);
  cli.text("--json", "FILE", "write the rows as JSON too", o.json_path);
  if (!cli.parse(argc, argv)) return std::nullopt;
  return o;
}

/// An engine for every size benchmarked (the full tables asked for, in the conventions F's domains have).
template <class F>
std::unique_ptr<cuda::BasicNttEngine<F>> make_engine(const Options& options) {
  unsigned max_log = 20;
  for (const unsigned s : options.sizes) max_log = std::max(max_log, s);
  cuda::NttEngineOptions engine_options{.max_log_n = static_cast<int>(max_log), .tile_log = options.tile_log};
  for (const unsigned s : options.sizes)
    for (const HConvention convention : {HConvention::generator7, HConvention::snarkjs}) {
      if (!NttField<F>::has_convention(convention)) continue;
      if (options.top_diagonals) engine_options.top_diagonals.push_back({static_cast<int>(s), convention});
      if (options.h_coset_tables) engine_options.h_coset_tables.push_back({static_cast<int>(s), convention});
    }
  return std::make_unique<cuda::BasicNttEngine<F>>(0, engine_options);
}

int run(Options options) {
  const auto devices = cuda::list_devices();
  if (devices.empty()) {
    std::printf("bench_gpu: no CUDA device\n");
    return 0;
  }
  Context ctx;
  ctx.options = std::move(options);
  const std::string device = devices[0].name + ", " + std::to_string(devices[0].multiprocessors) + " SMs";
  ctx.engine = make_engine<Fr>(ctx.options);
  for (const auto& name : ctx.options.sections)
    if (name == "bn254" && !ctx.bn254_engine) ctx.bn254_engine = make_engine<bn254::Fr>(ctx.options);
  std::printf(
      "bench_gpu on %s; tile 2^%d; top diagonals %s; H coset tables %s; NTT tables %.1f MiB; times in ms\n",
      device.c_str(), ctx.options.tile_log, ctx.options.top_diagonals ? "on" : "off",
      ctx.options.h_coset_tables ? "on" : "off", static_cast<double>(ctx.engine->table_bytes()) / (1 << 20));
  ctx.report.note("top_diagonals", ctx.options.top_diagonals ? 1 : 0);
  ctx.report.note("h_coset_tables", ctx.options.h_coset_tables ? 1 : 0);
  const std::pair<const char*, void (*)(Context&)> sections[] = {
      {"probe", section_probe}, {"ntt", section_ntt}, {"h", section_h}, {"bn254", section_bn254}};
  bool header = false;
  for (const auto& name : ctx.options.sections) {
    for (const auto& [key, section] : sections) {
      if (name != key) continue;
      if (!header && name != "probe") {
        Report::header();
        header = true;
      }
      section(ctx);
    }
  }
  if (!ctx.options.json_path.empty()) ctx.report.write_json(ctx.options.json_path, device);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return run_with_options(
      "bench_gpu", [&] { return parse(argc, argv); }, run);
}
