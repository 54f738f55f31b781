// GPU MSM and fixed-base benchmarks, printed beside the public sppark library's figures measured on the same
// GPU model (the tables below) and the integer-multiply model floors, and optionally written as JSON. Same
// table layout as bench_gpu (which holds the NTT sections).
//
//   bench_gpu_msm [--sections g1,sweep,g2,mix,stream,setup,bn254,table,shared] [--sizes 20,22,24,26]
//   [--runs N] [--stream-buffers 256,1024] [--json FILE] [--seed S]
//
// Method: points resident on the device (P_i = [k_i]·G made on the GPU by the fixed-base kernel, all
// distinct), scalars uniform in Fr and already on the device (Montgomery form), two scalar sets rotated so
// that the L2 does not serve them; CUDA events around one enqueue_msm call on one stream (every kernel, the
// GPU window combination and the copy of the result point to pinned host memory; no transfers of inputs); one
// warm-up, then the median of N calls (11 up to 2^22, 7 at 2^24, 5 at 2^26). The last result of every row is
// checked against the closed form [sum s_i k_i]·G. Ratio rows (G2/G1, mix/uniform, streamed/resident)
// compare rows of this same run. Stream rows keep the points in pinned host memory and include their upload.
// Setup rows time FixedBaseMul::run on host spans (wall clock: the table, the transfers through pinned
// staging and the kernels). The bn254 section repeats the uniform G1 and G2 rows on BN254 (circom's bn128:
// BasicMsmEngine<Bn254>, 254-bit scalars, 4-limb Fp) at every size up to 2^24, beside this run's BLS12-381
// rows. The table section times precomputed windows (MsmOptions::precomputed: a table of 2^(c w) multiples
// per point, built on the GPU and timed apart) against today's kernel on the same points and scalars in the
// same run, for BLS12-381 and BN254 G1 and G2, uniform and (BLS12-381 G1) Groth16-mixed scalars, with the
// table's size. The shared section times a Groth16 job's A, B1 (G1) and B2 (G2) over one scalar set with one
// scalar sort (enqueue_sort, then sorted MSMs) against three whole MSMs. Results go to perf/results.
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <cuda_runtime.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <proofline/arith/curves.hpp>
#include <proofline/cpu/random_vector.hpp>
#include <proofline/cpu/scalar_mul.hpp>
#include <proofline/cuda/check.hpp>
#include <proofline/cuda/device.hpp>
#include <proofline/cuda/device_buffer.hpp>
#include <proofline/cuda/gpu_fixed_base.hpp>
#include <proofline/cuda/gpu_msm.hpp>
#include <proofline/cuda/gpu_msm_stream.hpp>
#include <proofline/cuda/stream.hpp>
#include <proofline/memory/pinning.hpp>
#include <proofline/util/error.hpp>
#include <proofline/util/options.hpp>

#include "gpu_bench_report.hpp"

namespace {

using namespace proofline;
using bench::Report;
using bench::Row;
using bench::size_index;

struct Options {
  std::vector<std::string> sections = {"g1",    "sweep", "g2",    "mix",   "stream",
                                       "setup", "bn254", "table", "shared"};
  std::vector<unsigned> sizes = {20, 22, 24, 26};
  int runs = 0;  // 0: by size
  /// The stream section's staging buffer sizes in MiB (each of two): one set of rows per size.
  std::vector<unsigned> stream_buffers_mib = {256};
  /// The table and shared sections' window widths for precomputed tables: a set of rows per width (0: the
  /// engine's model).
  std::vector<unsigned> table_bits = {0};
  std::string json_path;
  std::uint64_t seed = std::random_device{}();
};

// ---- reference figures ----

/// sppark's G1 MSM on an H200, points resident, scalars on the device, medians.
double sppark_g1_ms(unsigned log_n) {
  static const double ms[] = {21.50, 56.98, 154.86, 572.08};
  const int i = size_index(log_n);
  return i < 0 ? 0 : ms[i];
}

/// The model floor: G1 MSM at the best window and 100% of the integer-multiply peak.
double g1_floor_ms(unsigned log_n) {
  static const double ms[] = {6.5, 24.0, 85.1, 314.0};
  const int i = size_index(log_n);
  return i < 0 ? 0 : ms[i];
}

// ---- inputs ----

/// The MSM engine of a group's curve: BN254's for its G1 and G2, BLS12-381's otherwise.
template <class Curve>
using EngineOf = cuda::BasicMsmEngine<
    std::conditional_t<std::is_same_v<typename Curve::Scalar, bn254::Fr>, Bn254, Bls12_381>>;

template <class Curve>
constexpr bool kIsG1 = std::is_same_v<Curve, G1Params> || std::is_same_v<Curve, bn254::G1Params>;

template <class F = Fr>
std::vector<F> random_scalars(std::uint64_t seed, std::size_t n) {
  return cpu::random_field_vector<F>(seed, n);
}

/// 20% zero, 50% one, 30% uniform.
template <class F = Fr>
std::vector<F> groth16_mix(std::uint64_t seed, std::size_t n) {
  std::vector<F> out = random_scalars<F>(seed, n);
  std::mt19937_64 rng(seed + 1);
  for (auto& s : out) {
    const auto u = rng() % 10;
    if (u < 2) {
      s = F::zero();
    } else if (u < 7) {
      s = F::one();
    }
  }
  return out;
}

template <class F>
F dot(const std::vector<F>& a, const std::vector<F>& b, std::size_t n) {
  return tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, n, std::size_t{1} << 14), F::zero(),
      [&](const tbb::blocked_range<std::size_t>& range, F acc) {
        for (std::size_t i = range.begin(); i < range.end(); ++i) acc += a[i] * b[i];
        return acc;
      },
      [](const F& x, const F& y) { return x + y; });
}

template <class T>
cuda::DeviceBuffer<T> to_device(const std::vector<T>& host) {
  cuda::DeviceBuffer<T> out(host.size());
  PL_CUDA_CHECK(cudaMemcpy(out.data(), host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  return out;
}

/// Device points P_i = [k_i]·G (distinct), made by the GPU fixed-base multiplication; k_i kept for checks.
template <class Curve>
struct Points {
  using Scalar = typename Curve::Scalar;
  std::vector<Scalar> logs;
  cuda::DeviceBuffer<AffinePoint<Curve>> device;

  Points(std::uint64_t seed, std::size_t n) : logs(random_scalars<Scalar>(seed, n)), device(n) {
    const cuda::FixedBaseMul<Curve> table(AffinePoint<Curve>::generator());
    const std::size_t chunk = std::min<std::size_t>(n, std::size_t{1} << 24);
    cuda::DeviceBuffer<Scalar> device_logs(chunk);
    cuda::DeviceBuffer<std::byte> scratch(cuda::FixedBaseMul<Curve>::scratch_bytes(chunk));
    cuda::Stream stream;
    for (std::size_t at = 0; at < n; at += chunk) {
      const std::size_t m = std::min(chunk, n - at);
      PL_CUDA_CHECK(cudaMemcpyAsync(device_logs.data(), logs.data() + at, m * sizeof(Scalar),
                                    cudaMemcpyHostToDevice, stream.get()));
      table.enqueue(device_logs.data(), m, device.data() + at, scratch.data(), stream.get());
      stream.synchronize();
    }
  }
};

// ---- timing ----

int runs_for(const Options& options, unsigned log_n) {
  if (options.runs > 0) return options.runs;
  return log_n >= 26 ? 5 : log_n >= 24 ? 7 : 11;
}

/// One MSM engine and its scratch, timed with events around enqueue calls that rotate over scalar sets.
template <class Curve>
struct MsmTimer {
  using Scalar = typename Curve::Scalar;
  EngineOf<Curve> engine;
  cuda::DeviceBuffer<std::byte> scratch;
  std::unique_ptr<memory::PinningBackend> backend = memory::default_backend();
  memory::PinnedBuffer pinned_buffer = backend->allocate(sizeof(JacobianPoint<Curve>));
  JacobianPoint<Curve>* pinned = static_cast<JacobianPoint<Curve>*>(pinned_buffer.data);

  MsmTimer(std::size_t n, const cuda::MsmOptions& options)
      : engine(kIsG1<Curve> ? cuda::MsmGroup::g1 : cuda::MsmGroup::g2, n, options),
        scratch(engine.scratch_bytes()) {}
  ~MsmTimer() { backend->deallocate(pinned_buffer); }
  MsmTimer(const MsmTimer&) = delete;
  MsmTimer& operator=(const MsmTimer&) = delete;

  void call(const AffinePoint<Curve>* points, const Scalar* scalars, std::size_t n, cudaStream_t stream) {
    if constexpr (kIsG1<Curve>) {
      engine.enqueue_msm_g1(points, scalars, n, pinned, scratch.data(), stream);
    } else {
      engine.enqueue_msm_g2(points, scalars, n, pinned, scratch.data(), stream);
    }
  }

  /// Times runs calls (after one warm-up) over the scalar sets in turn; leaves the last set's result in
  /// *pinned.
  std::vector<double> time(const AffinePoint<Curve>* points, const std::vector<const Scalar*>& sets,
                           std::size_t n, int runs, cuda::Stream& stream) {
    cuda::Event start, stop;
    call(points, sets[0], n, stream.get());
    stream.synchronize();
    std::vector<double> ms;
    for (int i = 0; i < runs; ++i) {
      start.record(stream.get());
      call(points, sets[static_cast<std::size_t>(i + 1) % sets.size()], n, stream.get());
      stop.record(stream.get());
      stop.synchronize();
      ms.push_back(stop.elapsed_ms_since(start));
    }
    return ms;
  }
};

// ---- sections ----

struct Context {
  Options options;
  Report report;
  cuda::Stream stream;
  std::unique_ptr<Points<G1Params>> g1_points;
  std::unique_ptr<Points<G2Params>> g2_points;
  std::unique_ptr<Points<bn254::G1Params>> bn254_g1_points;
  std::unique_ptr<Points<bn254::G2Params>> bn254_g2_points;
  unsigned g1_max_log = 0;
};

Points<G1Params>& g1_points(Context& ctx) {
  if (!ctx.g1_points) {
    unsigned max_log = 24;
    for (unsigned log_n : ctx.options.sizes) max_log = std::max(max_log, log_n);
    const auto begin = std::chrono::steady_clock::now();
    ctx.g1_points = std::make_unique<Points<G1Params>>(ctx.options.seed, std::size_t{1} << max_log);
    ctx.g1_max_log = max_log;
    ctx.report.note("g1_points_generated_log_n", max_log);
    ctx.report.note("g1_points_generation_s",
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count());
  }
  return *ctx.g1_points;
}

/// The largest of --sizes up to 2^24 (the cap of the sections with G2 or BN254 points), or 0.
unsigned largest_size_to_24(const Context& ctx) {
  unsigned max_log = 0;
  for (unsigned log_n : ctx.options.sizes)
    if (log_n <= 24) max_log = std::max(max_log, log_n);
  return max_log;
}

/// A point set of 2^log_n points made at its first use (later sections reuse it).
template <class Curve>
Points<Curve>& points_of(std::unique_ptr<Points<Curve>>& slot, std::uint64_t seed, unsigned log_n) {
  if (!slot) slot = std::make_unique<Points<Curve>>(seed, std::size_t{1} << log_n);
  return *slot;
}

/// Scalar sets (device) for one size: two uniform sets (or Groth16 mixes, BLS12-381 only), kept on the host
/// for the checks.
template <class F = Fr>
struct ScalarSets {
  std::vector<std::vector<F>> host;
  std::vector<cuda::DeviceBuffer<F>> device;
  std::vector<const F*> pointers;

  ScalarSets(std::uint64_t seed, std::size_t n, int count, bool mix = false) {
    for (int k = 0; k < count; ++k) {
      host.push_back(mix ? groth16_mix<F>(seed + static_cast<std::uint64_t>(k), n)
                         : random_scalars<F>(seed + static_cast<std::uint64_t>(k), n));
      device.push_back(to_device(host.back()));
      pointers.push_back(device.back().data());
    }
  }
  /// The set that the last of `runs` timed calls used.
  const std::vector<F>& last(int runs) const { return host[static_cast<std::size_t>(runs) % host.size()]; }
};

template <class Curve, class F>
std::string check(const JacobianPoint<Curve>& result, const std::vector<F>& logs,
                  const std::vector<F>& scalars, std::size_t n) {
  return result == cpu::scalar_mul(AffinePoint<Curve>::generator().to_jacobian(), dot(logs, scalars, n))
             ? "PASS"
             : "FAIL";
}

template <class Curve, class F>
Row msm_row(Context& ctx, const std::string& section, const std::string& name, unsigned log_n,
            const AffinePoint<Curve>* points, const std::vector<F>& logs, const ScalarSets<F>& sets,
            const cuda::MsmOptions& options, int runs) {
  const std::size_t n = std::size_t{1} << log_n;
  MsmTimer<Curve> timer(n, options);
  Row row;
  row.section = section;
  row.name = name + " c=" + std::to_string(timer.engine.window_bits());
  row.log_n = log_n;
  row.ms = timer.time(points, sets.pointers, n, runs, ctx.stream);
  row.includes = "all kernels + window combination on GPU + result D2H; points and scalars resident";
  row.check = check(*timer.pinned, logs, sets.last(runs), n);
  return row;
}

void section_g1(Context& ctx) {
  auto& points = g1_points(ctx);
  for (unsigned log_n : ctx.options.sizes) {
    const std::size_t n = std::size_t{1} << log_n;
    const ScalarSets sets(ctx.options.seed + log_n, n, 2);
    Row row = msm_row<G1Params>(ctx, "g1", "G1 MSM uniform", log_n, points.device.data(), points.logs, sets,
                                {}, runs_for(ctx.options, log_n));
    row.reference_ms = sppark_g1_ms(log_n);
    row.floor_ms = g1_floor_ms(log_n);
    ctx.report.add(std::move(row));
  }
}

/// Window widths around the model's choice, fewer runs (to calibrate the model).
void section_sweep(Context& ctx) {
  auto& points = g1_points(ctx);
  for (unsigned log_n : ctx.options.sizes) {
    const std::size_t n = std::size_t{1} << log_n;
    const ScalarSets sets(ctx.options.seed + 100 + log_n, n, 2);
    const int model = cuda::MsmEngine(cuda::MsmGroup::g1, n).window_bits();
    for (int c : {model - 2, model - 1, model + 1}) {
      if (c < 4 || c > 22) continue;
      cuda::MsmOptions options;
      options.window_bits = c;
      Row row = msm_row<G1Params>(ctx, "sweep", "G1 MSM uniform", log_n, points.device.data(), points.logs,
                                  sets, options, 3);
      row.reference_ms = sppark_g1_ms(log_n);
      row.floor_ms = g1_floor_ms(log_n);
      ctx.report.add(std::move(row));
    }
  }
}

void section_g2(Context& ctx) {
  const unsigned max_log = largest_size_to_24(ctx);
  if (max_log == 0) return;
  points_of(ctx.g2_points, ctx.options.seed + 1, max_log);
  for (unsigned log_n : ctx.options.sizes) {
    if (log_n > 24 || log_n < 20) continue;
    const std::size_t n = std::size_t{1} << log_n;
    const ScalarSets sets(ctx.options.seed + 200 + log_n, n, 2);
    Row row = msm_row<G2Params>(ctx, "g2", "G2 MSM uniform", log_n, ctx.g2_points->device.data(),
                                ctx.g2_points->logs, sets, {}, runs_for(ctx.options, log_n));
    const double g2 = row.median();
    ctx.report.add(std::move(row));
    // The G1 row of this run at the same size, for the ratio (required <= 3.5, stretch 3).
    for (int c = 4; c <= 22; ++c) {
      if (const Row* g1 = ctx.report.find("G1 MSM uniform c=" + std::to_string(c), log_n)) {
        ctx.report.note("g2_over_g1_2^" + std::to_string(log_n), g2 / g1->median());
        break;
      }
    }
  }
}

/// Groth16-like scalars (20% zero, 50% one, 30% uniform) at 2^24: with the split fast path (the window sized
/// for the 30%), and without it, beside the uniform row of this run (required <= 0.5x, stretch 0.35x).
void section_mix(Context& ctx) {
  auto& points = g1_points(ctx);
  for (unsigned log_n : ctx.options.sizes) {
    if (log_n != 24 && log_n != 22) continue;
    const std::size_t n = std::size_t{1} << log_n;
    const ScalarSets sets(ctx.options.seed + 300 + log_n, n, 2, true);
    cuda::MsmOptions split;
    split.split_zero_one = true;
    split.expected_dense = n * 3 / 10;
    Row row = msm_row<G1Params>(ctx, "mix", "G1 MSM 20/50/30 split", log_n, points.device.data(), points.logs,
                                sets, split, runs_for(ctx.options, log_n));
    const double mixed = row.median();
    ctx.report.add(std::move(row));
    ctx.report.add(msm_row<G1Params>(ctx, "mix", "G1 MSM 20/50/30 no split", log_n, points.device.data(),
                                     points.logs, sets, {}, 3));
    for (int c = 4; c <= 22; ++c) {
      if (const Row* uniform = ctx.report.find("G1 MSM uniform c=" + std::to_string(c), log_n)) {
        ctx.report.note("mix_over_uniform_2^" + std::to_string(log_n), mixed / uniform->median());
        break;
      }
    }
  }
}

/// One warm-up call(0), then `runs` samples of `calls` calls enqueued back to back on ctx.stream (call(1),
/// call(2), ...): each sample's time per call (CUDA events).
template <class Call>
std::vector<double> time_calls(Context& ctx, int runs, int calls, const Call& call) {
  cuda::Event start, stop;
  call(0);
  ctx.stream.synchronize();
  std::vector<double> ms;
  int next = 1;
  for (int i = 0; i < runs; ++i) {
    start.record(ctx.stream.get());
    for (int k = 0; k < calls; ++k) call(next++);
    stop.record(ctx.stream.get());
    stop.synchronize();
    ms.push_back(stop.elapsed_ms_since(start) / calls);
  }
  return ms;
}

/// Points streamed from pinned host memory (MsmPointStream, two staging buffers of `buffer_bytes`), uniform
/// and Groth16-mix scalars, beside the resident uniform row of this run: what a key larger than VRAM costs.
void stream_rows(Context& ctx, std::size_t buffer_bytes) {
  auto& points = g1_points(ctx);
  const auto backend = memory::default_backend();
  const std::size_t max_n = std::size_t{1} << ctx.g1_max_log;
  const memory::PinnedBuffer host = backend->allocate(max_n * sizeof(G1Affine));
  auto* host_points = static_cast<G1Affine*>(host.data);
  PL_CUDA_CHECK(
      cudaMemcpy(host_points, points.device.data(), max_n * sizeof(G1Affine), cudaMemcpyDeviceToHost));
  const memory::PinnedBuffer result_buffer = backend->allocate(sizeof(G1Jacobian));
  auto* result = static_cast<G1Jacobian*>(result_buffer.data);
  cuda::MsmPointStream stream(buffer_bytes);
  const std::string buffers = " (2 x " + std::to_string(buffer_bytes >> 20) + " MiB)";
  const std::size_t batch = stream.buffer_bytes() / sizeof(G1Affine);
  for (unsigned log_n : ctx.options.sizes) {
    if (log_n < 22) continue;
    const std::size_t n = std::size_t{1} << log_n;
    for (const bool mix : {false, true}) {
      const ScalarSets sets(ctx.options.seed + 500 + log_n + (mix ? 1 : 0), n, 2, mix);
      cuda::MsmOptions options;
      options.split_zero_one = mix;
      if (mix) options.expected_dense = batch * 3 / 10;
      const cuda::MsmEngine engine(cuda::MsmGroup::g1, std::min(batch, n), options);
      cuda::DeviceBuffer<std::byte> scratch(engine.scratch_bytes());
      const int runs = runs_for(ctx.options, log_n);
      auto call = [&](int set) {
        stream.enqueue_msm_g1(engine, host_points, sets.pointers[static_cast<std::size_t>(set) % 2], n,
                              result, scratch.data(), ctx.stream.get());
      };
      // Each call timed alone, then four back to back as a job's MSMs run (each call's first upload overlaps
      // the previous call's batches).
      const auto stream_row = [&](int calls, const std::string& how, const char* includes) {
        Row row;
        row.ms = time_calls(ctx, runs, calls, call);
        row.section = "stream";
        row.name = std::string(mix ? "G1 MSM 20/50/30 split" : "G1 MSM uniform") + " streamed" + buffers +
                   how + " c=" + std::to_string(engine.window_bits());
        row.log_n = log_n;
        row.includes = includes;
        row.check = check(*result, points.logs, sets.last(calls * runs), n);
        const double median = row.median();
        ctx.report.add(std::move(row));
        return median;
      };
      const double streamed =
          stream_row(1, "",
                     "H2D of every point from pinned memory (two staging buffers) overlapped "
                     "with per-batch Pippenger, batch sums, result D2H; scalars resident");
      const double back_to_back = stream_row(
          4, ", 4 back to back", "per call, of 4 calls enqueued back to back (time / 4); as above");
      if (mix) continue;
      for (int c = 4; c <= 22; ++c) {
        if (const Row* resident = ctx.report.find("G1 MSM uniform c=" + std::to_string(c), log_n)) {
          const std::string key =
              "_2^" + std::to_string(log_n) + "_buffers_" + std::to_string(buffer_bytes >> 20) + "MiB";
          ctx.report.note("streamed_over_resident" + key, streamed / resident->median());
          ctx.report.note("streamed_back_to_back_over_resident" + key, back_to_back / resident->median());
          break;
        }
      }
    }
  }
  backend->deallocate(result_buffer);
  backend->deallocate(host);
}

/// The stream rows for each --stream-buffers size (default 256 MiB, the pipeline's default staging).
void section_stream(Context& ctx) {
  for (unsigned mib : ctx.options.stream_buffers_mib) stream_rows(ctx, std::size_t{mib} << 20);
}

/// Fixed-base batches through the host API (what setup calls): table, pinned staging, transfers, kernels.
void section_setup(Context& ctx) {
  double key_s = 0;
  for (unsigned log_n : {20u, 24u}) {
    const std::size_t n = std::size_t{1} << log_n;
    const std::vector<Fr> scalars = random_scalars(ctx.options.seed + 400 + log_n, n);
    auto time_run = [&](auto tag) {
      using Curve = decltype(tag);
      std::vector<AffinePoint<Curve>> out(n);
      const auto begin = std::chrono::steady_clock::now();
      cuda::FixedBaseMul<Curve>(AffinePoint<Curve>::generator()).run(scalars, out);
      const double ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count();
      std::mt19937_64 rng(ctx.options.seed);
      bool ok = true;
      for (int k = 0; k < 64; ++k) {
        const std::size_t i = rng() % n;
        ok = ok && cpu::scalar_mul(AffinePoint<Curve>::generator().to_jacobian(), scalars[i]) == out[i];
      }
      Row row;
      row.section = "setup";
      row.name = std::string(std::is_same_v<Curve, G1Params> ? "G1" : "G2") + " fixed-base run (host spans)";
      row.log_n = log_n;
      row.ms = {ms};
      row.includes = "table build + H2D/D2H via pinned staging + kernels + host copies (wall clock)";
      row.check = ok ? "PASS" : "FAIL";
      ctx.report.add(std::move(row));
      return ms;
    };
    const double g1_ms = time_run(G1Params{});
    const double g2_ms = time_run(G2Params{});
    // A synthetic key of n constraints: A, B1, L (or C) and H in G1, B2 in G2 (about n points each).
    if (log_n == 24) key_s = (4 * g1_ms + g2_ms) / 1000;
  }
  if (key_s > 0) ctx.report.note("setup_key_2^24_points_estimate_s", key_s);
}

/// This run's BLS12-381 row of `name` (any window) at log_n, or null.
const Row* bls_row(const Context& ctx, const std::string& name, unsigned log_n) {
  for (int c = 4; c <= 22; ++c)
    if (const Row* row = ctx.report.find(name + " c=" + std::to_string(c), log_n)) return row;
  return nullptr;
}

/// BN254 (circom's bn128) G1 and G2 with uniform scalars at every size up to 2^24, beside this run's
/// BLS12-381 rows of the same group and size (notes bn254_over_bls12_381_g1/g2).
void section_bn254(Context& ctx) {
  const unsigned max_log = largest_size_to_24(ctx);
  if (max_log == 0) return;
  points_of(ctx.bn254_g1_points, ctx.options.seed + 10, max_log);
  points_of(ctx.bn254_g2_points, ctx.options.seed + 11, max_log);
  for (unsigned log_n : ctx.options.sizes) {
    if (log_n > 24) continue;
    const std::size_t n = std::size_t{1} << log_n;
    const int runs = runs_for(ctx.options, log_n);
    const ScalarSets<bn254::Fr> sets(ctx.options.seed + 600 + log_n, n, 2);
    Row g1 = msm_row<bn254::G1Params>(ctx, "bn254", "BN254 G1 MSM uniform", log_n,
                                      ctx.bn254_g1_points->device.data(), ctx.bn254_g1_points->logs, sets, {},
                                      runs);
    Row g2 = msm_row<bn254::G2Params>(ctx, "bn254", "BN254 G2 MSM uniform", log_n,
                                      ctx.bn254_g2_points->device.data(), ctx.bn254_g2_points->logs, sets, {},
                                      runs);
    const double g1_ms = g1.median(), g2_ms = g2.median();
    ctx.report.add(std::move(g1));
    ctx.report.add(std::move(g2));
    const std::string size = "_2^" + std::to_string(log_n);
    ctx.report.note("bn254_g2_over_g1" + size, g2_ms / g1_ms);
    if (const Row* bls = bls_row(ctx, "G1 MSM uniform", log_n))
      ctx.report.note("bn254_over_bls12_381_g1" + size, g1_ms / bls->median());
    if (const Row* bls = bls_row(ctx, "G2 MSM uniform", log_n))
      ctx.report.note("bn254_over_bls12_381_g2" + size, g2_ms / bls->median());
  }
}

/// Precomputed windows against today's kernel, same points and scalars, one size and group: the table build
/// (events around enqueue_table), then the plain and the table MSM (uniform; plus the Groth16 mix with the
/// split for BLS12-381 G1), with notes table_over_plain_* and the table's bytes.
template <class Curve>
void table_rows(Context& ctx, const std::string& label, const Points<Curve>& points, unsigned log_n,
                bool with_mix) {
  using Scalar = typename Curve::Scalar;
  const std::size_t n = std::size_t{1} << log_n;
  const int runs = runs_for(ctx.options, log_n);
  const std::string size = "_2^" + std::to_string(log_n);
  for (const bool mix : {false, true}) {
    if (mix && !with_mix) continue;
    const ScalarSets<Scalar> sets(ctx.options.seed + 700 + log_n + (mix ? 1 : 0), n, 2, mix);
    cuda::MsmOptions options;
    if (mix) {
      options.split_zero_one = true;
      options.expected_dense = n * 3 / 10;
    }
    const std::string kind = mix ? " MSM 20/50/30 split" : " MSM uniform";
    Row plain = msm_row<Curve>(ctx, "table", label + kind, log_n, points.device.data(), points.logs, sets,
                               options, runs);
    const double plain_ms = plain.median();
    ctx.report.add(std::move(plain));
    options.precomputed = true;
    for (const unsigned bits : ctx.options.table_bits) {
      options.window_bits = static_cast<int>(bits);
      const EngineOf<Curve> engine(kIsG1<Curve> ? cuda::MsmGroup::g1 : cuda::MsmGroup::g2, n, options);
      const std::string width = " c=" + std::to_string(engine.window_bits());
      cuda::DeviceBuffer<AffinePoint<Curve>> table(engine.table_points(n));
      {
        cuda::DeviceBuffer<std::byte> scratch(engine.table_scratch_bytes(n));
        cuda::Event start, stop;
        start.record(ctx.stream.get());
        if constexpr (kIsG1<Curve>) {
          engine.enqueue_table_g1(points.device.data(), n, table.data(), scratch.data(), ctx.stream.get());
        } else {
          engine.enqueue_table_g2(points.device.data(), n, table.data(), scratch.data(), ctx.stream.get());
        }
        stop.record(ctx.stream.get());
        stop.synchronize();
        Row build;
        build.section = "table";
        build.name = label + " table build" + width + " W=" + std::to_string(engine.windows());
        build.log_n = log_n;
        build.ms = {stop.elapsed_ms_since(start)};
        build.includes = "copy of the points + (W - 1) blocks of c doublings and batch affine conversion";
        build.check = std::string(1, '-');  // not = "-": GCC 12 warns falsely of an overlapping memcpy there
        if (!mix) ctx.report.add(std::move(build));
        ctx.report.note(label + (mix ? "_mix" : "") + "_table_bytes" + width + size,
                        static_cast<double>(engine.table_points(n) * sizeof(AffinePoint<Curve>)));
      }
      Row tabled = msm_row<Curve>(ctx, "table", label + kind + " precomputed", log_n, table.data(),
                                  points.logs, sets, options, runs);
      ctx.report.note(label + (mix ? "_mix" : "") + "_table_over_plain" + width + size,
                      tabled.median() / plain_ms);
      ctx.report.add(std::move(tabled));
    }
  }
}

void section_table(Context& ctx) {
  const unsigned max_log = largest_size_to_24(ctx);
  if (max_log == 0) return;
  auto& g1 = g1_points(ctx);
  points_of(ctx.g2_points, ctx.options.seed + 1, max_log);
  points_of(ctx.bn254_g1_points, ctx.options.seed + 10, max_log);
  points_of(ctx.bn254_g2_points, ctx.options.seed + 11, max_log);
  for (unsigned log_n : ctx.options.sizes) {
    if (log_n > 24) continue;
    table_rows<G1Params>(ctx, "G1", g1, log_n, true);
    table_rows<G2Params>(ctx, "G2", *ctx.g2_points, log_n, false);
    table_rows<bn254::G1Params>(ctx, "BN254 G1", *ctx.bn254_g1_points, log_n, false);
    table_rows<bn254::G2Params>(ctx, "BN254 G2", *ctx.bn254_g2_points, log_n, false);
  }
}

/// A Groth16 job's A, B1 (G1) and B2 (G2) over one set of Groth16-mix scalars: three whole MSMs against one
/// scalar sort and three sorted MSMs (enqueue_sort, enqueue_sorted_msm_*), with plain engines and with
/// precomputed tables, events around the three; notes shared_over_separate_* give the ratio.
void section_shared(Context& ctx) {
  const unsigned max_log = largest_size_to_24(ctx);
  if (max_log < 20) return;
  auto& g1 = g1_points(ctx);
  points_of(ctx.g2_points, ctx.options.seed + 1, max_log);
  const auto backend = memory::default_backend();
  const memory::PinnedBuffer pinned = backend->allocate(2 * sizeof(G1Jacobian) + sizeof(G2Jacobian));
  auto* g1_out = static_cast<G1Jacobian*>(pinned.data);
  auto* g2_out = reinterpret_cast<G2Jacobian*>(g1_out + 2);
  for (unsigned log_n : ctx.options.sizes) {
    if (log_n > 24 || log_n < 20) continue;
    const std::size_t n = std::size_t{1} << log_n;
    const int runs = runs_for(ctx.options, log_n);
    const ScalarSets sets(ctx.options.seed + 800 + log_n, n, 2, true);
    std::vector<std::pair<bool, unsigned>> variants{{false, 0}};  // plain, then a table per width
    for (const unsigned bits : ctx.options.table_bits) variants.emplace_back(true, bits);
    for (const auto& [precomputed, bits] : variants) {
      const cuda::MsmOptions options{.split_zero_one = true,
                                     .expected_dense = n * 3 / 10,
                                     .window_bits = static_cast<int>(bits),
                                     .precomputed = precomputed};
      const cuda::MsmEngine e1(cuda::MsmGroup::g1, n, options), e2(cuda::MsmGroup::g2, n, options);
      cuda::DeviceBuffer<std::byte> scratch(std::max(e1.scratch_bytes(), e2.scratch_bytes()));
      cuda::DeviceBuffer<G1Affine> t1;
      cuda::DeviceBuffer<G2Affine> t2;
      const G1Affine* p1 = g1.device.data();  // the tables instead, when precomputed
      const G2Affine* p2 = ctx.g2_points->device.data();
      if (precomputed) {
        t1 = cuda::DeviceBuffer<G1Affine>(e1.table_points(n));
        t2 = cuda::DeviceBuffer<G2Affine>(e2.table_points(n));
        cuda::DeviceBuffer<std::byte> temp(std::max(e1.table_scratch_bytes(n), e2.table_scratch_bytes(n)));
        e1.enqueue_table_g1(p1, n, t1.data(), temp.data(), ctx.stream.get());
        e2.enqueue_table_g2(p2, n, t2.data(), temp.data(), ctx.stream.get());
        ctx.stream.synchronize();
        p1 = t1.data();
        p2 = t2.data();
      }
      double medians[2] = {};
      for (const bool shared : {false, true}) {
        auto call = [&](int set) {
          const Fr* s = sets.pointers[static_cast<std::size_t>(set) % sets.pointers.size()];
          cudaStream_t st = ctx.stream.get();
          if (shared) {
            e1.enqueue_sort(s, n, scratch.data(), st);
            e1.enqueue_sorted_msm_g1(p1, n, g1_out, scratch.data(), st);
            e1.enqueue_sorted_msm_g1(p1, n, g1_out + 1, scratch.data(), st);
            e2.enqueue_sorted_msm_g2(p2, n, g2_out, scratch.data(), st);
          } else {
            e1.enqueue_msm_g1(p1, s, n, g1_out, scratch.data(), st);
            e1.enqueue_msm_g1(p1, s, n, g1_out + 1, scratch.data(), st);
            e2.enqueue_msm_g2(p2, s, n, g2_out, scratch.data(), st);
          }
        };
        Row row;
        row.ms = time_calls(ctx, runs, 1, call);
        row.section = "shared";
        row.name = std::string("A+B1 (G1) + B2 (G2) 20/50/30, ") + (shared ? "one sort" : "three sorts") +
                   (precomputed ? ", precomputed" : "") + " c=" + std::to_string(e1.window_bits());
        row.log_n = log_n;
        row.includes = "three MSMs' kernels and result copies; points, tables and scalars resident";
        const bool ok = check(g1_out[0], g1.logs, sets.last(runs), n) == "PASS" && g1_out[1] == g1_out[0] &&
                        check(g2_out[0], ctx.g2_points->logs, sets.last(runs), n) == "PASS";
        row.check = ok ? "PASS" : "FAIL";
        medians[shared ? 1 : 0] = row.median();
        ctx.report.add(std::move(row));
      }
      std::string note = "shared_over_separate";
      if (precomputed) note += "_precomputed_c" + std::to_string(e1.window_bits());
      note += "_2^" + std::to_string(log_n);
      ctx.report.note(note, medians[1] / medians[0]);
    }
  }
  backend->deallocate(pinned);
}

/// The options; none after printing --help. Throws OptionError for anything unusable.
std::optional<Options> parse(int argc, char** argv) {
  Options o;
  OptionParser cli(
      "bench_gpu_msm", "usage: bench_gpu_msm [options]",
      "GPU MSM and fixed-base timings beside sppark and the model floors, every result checked.");
  cli.choice_list("--sections", "LIST", "of g1,sweep,g2,mix,stream,setup,bn254,table,shared (default: all)",
                  o.sections,
                  Choices<std::string>{{"g1", "g1"},
                                       {"sweep", "sweep"},
                                       {"g2", "g2"},
                                       {"mix", "mix"},
                                       {"stream", "stream"},
                                       {"setup", "setup"},
                                       {"bn254", "bn254"},
                                       {"table", "table"},
                                       {"shared", "shared"}});
  cli.integer_list("--sizes", "LIST", "log2 sizes (default 20,22,24,26)", o.sizes, Bounds<unsigned>{1, 28});
  cli.integer_list("--stream-buffers", "LIST",
                   "stream section: each staging buffer's size in MiB, a row set per size (default 256)",
                   o.stream_buffers_mib, Bounds<unsigned>{1, 16384});
  cli.integer("--runs", "N", "timed calls per row (default 11 up to 2^22, 7 at 2^24, 5 at 2^26)", o.runs,
              Bounds<int>{1, 1000});
  cli.integer_list(
      "--table-bits", "LIST",
      "table and shared sections: window widths of the precomputed tables, a set of rows each (0: "
      "the engine's model; default 0)",
      o.table_bits, Bounds<unsigned>{0, 22});
  cli.text("--json", "FILE", "write the rows as JSON too", o.json_path);
  cli.integer("--seed", "S", "points and scalars seed (default: random)", o.seed,
              Bounds<std::uint64_t>{0, ~std::uint64_t{0}});
  cli.epilog("Exit codes: 0 every check passed, 1 a check failed, 2 bad options.");
  if (!cli.parse(argc, argv)) return std::nullopt;
  return o;
}

int run(Options options) {
  const auto devices = cuda::list_devices();
  if (devices.empty()) {
    std::printf("bench_gpu_msm: no CUDA device\n");
    return 0;
  }
  Context ctx;
  ctx.options = std::move(options);
  std::printf("bench_gpu_msm on %s (%d SMs), seed %llu\n", devices[0].name.c_str(),
              devices[0].multiprocessors, static_cast<unsigned long long>(ctx.options.seed));
  Report::header();
  const std::pair<const char*, void (*)(Context&)> sections[] = {
      {"g1", section_g1},       {"sweep", section_sweep},   {"g2", section_g2},
      {"mix", section_mix},     {"stream", section_stream}, {"setup", section_setup},
      {"bn254", section_bn254}, {"table", section_table},   {"shared", section_shared}};
  for (const auto& name : ctx.options.sections)
    for (const auto& [key, section] : sections)
      if (name == key) section(ctx);
  if (!ctx.options.json_path.empty()) ctx.report.write_json(ctx.options.json_path, devices[0].name);
  if (ctx.report.failures() > 0) {
    std::printf("bench_gpu_msm: %d closed-form checks FAILED\n", ctx.report.failures());
    return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return run_with_options(
      "bench_gpu_msm", [&] { return parse(argc, argv); }, run);
}
