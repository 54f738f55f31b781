// The GPU MSM's and fixed-base multiplication's kernel bodies (cuda/kernels/detail/msm_body.hpp,
// fixed_base_body.hpp) run on the host, phase by phase as the kernels run them, against a naive
// double-and-add reference: Booth digits and the abs trick, the counting sort, chunked accumulation with
// head/continuation partials, the serial and hot-bucket fixups, the leveled bucket reduction, the window
// combination, the Groth16 split, and the fixed-base table and batch affine conversion, for BLS12-381 and for
// BN254 (254-bit scalars: one window fewer at some widths), and the precomputed-window mode (its table built
// by the table bodies, every window adding into one bucket set). Small windows and chunks make every path
// (spanning buckets, hot buckets, empty buckets) common. The GPU suite repeats the comparison on the device.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <optional>
#include <random>
#include <vector>

#include <proofline/arith/curves.hpp>
#include <proofline/arith/random.hpp>
#include <proofline/cuda/detail/msm_plan.hpp>
#include <proofline/cuda/device.hpp>
#include <proofline/cuda/gpu_msm.hpp>
#include <proofline/cuda/gpu_msm_stream.hpp>
#include <proofline/cuda/kernels/detail/fixed_base_body.hpp>
#include <proofline/cuda/kernels/detail/msm_body.hpp>
#include <proofline/cuda/kernels/detail/msm_table_body.hpp>
#include <proofline/util/error.hpp>

#include "support/msm_reference.hpp"
#include "support/seed.hpp"

using namespace proofline;
using namespace proofline::cuda::detail;
using namespace proofline::test_support;

namespace {

struct EmulationShape {
  int window_bits = 5;
  std::uint32_t chunk = 8;
  bool split = false;
  bool montgomery = true;
  bool precomputed = false;
  int scatter_passes_log = 2;  ///< (capped at one magnitude per pass)
  /// The reduction's levels run while more values a window are left: the plan's value, or a small one so
  /// that these small windows go through levels before the tail.
  std::uint32_t reduce_tail_values = kReduceTailValues;
};

/// The precomputed-window table as the table kernels build it: block w = 2^(c w)·points, `chunk` points of
/// a block at a time.
template <class Curve>
std::vector<AffinePoint<Curve>> emulate_table(const std::vector<AffinePoint<Curve>>& points, int window_bits,
                                              int windows, std::size_t chunk) {
  const std::size_t n = points.size();
  std::vector<AffinePoint<Curve>> table(n * static_cast<std::size_t>(windows));
  std::copy(points.begin(), points.end(), table.begin());
  std::vector<XyzzPoint<Curve>> temp(chunk);
  for (int w = 1; w < windows; ++w) {
    for (std::size_t lo = 0; lo < n; lo += chunk) {
      const auto count = static_cast<std::uint32_t>(std::min(chunk, n - lo));
      const AffinePoint<Curve>* previous = table.data() + static_cast<std::size_t>(w - 1) * n + lo;
      for (std::uint32_t i = 0; i < count; ++i) table_step_body(previous, temp.data(), window_bits, i);
      AffinePoint<Curve>* block = table.data() + static_cast<std::size_t>(w) * n + lo;
      for (std::uint32_t g = 0; g * kAffineGroup < count; ++g) to_affine_body(temp.data(), block, count, g);
    }
  }
  return table;
}

/// The GPU MSM's phases in kernel order, every body called for every thread coordinate.
template <class Curve>
JacobianPoint<Curve> emulate_msm(const std::vector<AffinePoint<Curve>>& points,
                                 const std::vector<typename Curve::Scalar>& scalars,
                                 const EmulationShape& shape, std::uint32_t* hot_buckets = nullptr) {
  using Xyzz = XyzzPoint<Curve>;
  const auto n = static_cast<std::uint32_t>(points.size());
  MsmArgs<Curve> a;
  a.n = n;
  a.window_bits = shape.window_bits;
  a.windows = msm_windows(shape.window_bits, kMsmScalarBits<typename Curve::Scalar>);
  a.slots_per_window = (std::uint32_t{1} << (shape.window_bits - 1)) + 1;
  a.chunk = shape.chunk;
  const std::uint64_t entries = std::uint64_t{n} * static_cast<std::uint64_t>(a.windows);
  const auto threads = static_cast<std::uint32_t>((entries + a.chunk - 1) / a.chunk);
  a.chunk_threads = threads;
  a.montgomery = shape.montgomery;
  a.split = shape.split;
  a.precomputed = shape.precomputed;
  a.scatter_passes_log = std::min(shape.scatter_passes_log, shape.window_bits - 1);
  const std::uint32_t slots = a.bucket_slots();
  // Chunks of 64 points: several chunks per block (and a short last one) once n exceeds 64.
  const std::vector<AffinePoint<Curve>> table =
      shape.precomputed ? emulate_table(points, a.window_bits, a.windows, 64) : points;

  MsmCounters counters;
  std::vector<std::uint32_t> rest(n), ones(n), counts(slots + 1, 0), starts(slots + 1), cursor(slots);
  std::vector<std::uint32_t> digits(entries, 0xdeadbeefu), sorted(entries, 0xdeadbeefu);
  std::vector<std::uint32_t> head_bucket(threads, 0xdeadbeefu), hot_list(threads);
  std::vector<Xyzz> buckets(slots, Xyzz::generator()), head(threads), cont(threads);  // poisoned buckets
  a.scalars = scalars.data();
  a.points = table.data();
  a.counters = &counters;
  a.rest_index = rest.data();
  a.ones_entry = ones.data();
  a.counts = counts.data();
  a.starts = starts.data();
  a.cursor = cursor.data();
  a.digits = digits.data();
  a.entries = sorted.data();
  a.head_bucket = head_bucket.data();
  a.hot_list = hot_list.data();
  a.buckets = buckets.data();
  a.head = head.data();
  a.cont = cont.data();

  if (a.split) {
    for (std::uint32_t i = 0; i < n; ++i) {
      std::uint32_t entry = 0;
      const ScalarClass cls = classify_scalar(scalars[i], a.montgomery, i, entry);
      if (cls == ScalarClass::rest) rest[counters.rest++] = i;
      if (cls == ScalarClass::one) ones[counters.ones++] = entry;
    }
  }
  for (std::uint32_t j = 0; j < a.item_count(); ++j) digits_body(a, j);
  std::exclusive_scan(counts.begin(), counts.end(), starts.begin(), std::uint32_t{0});
  std::copy(starts.begin(), starts.end() - 1, cursor.begin());
  for (std::uint32_t pass = 0; pass < std::uint32_t{1} << a.scatter_passes_log; ++pass) {
    for (int w = 0; w < a.windows; ++w) {
      for (std::uint32_t j = 0; j < a.item_count(); ++j) scatter_body(a, j, w, pass);
    }
  }
  for (std::uint32_t t = 0; t < threads; ++t) accumulate_body(a, t);
  for (std::uint32_t t = 0; t < threads; ++t) fixup_body(a, t);
  constexpr std::uint32_t lanes = 4;
  for (std::uint32_t h = 0; h < counters.hot; ++h) {
    Xyzz sum = Xyzz::infinity();
    for (std::uint32_t lane = 0; lane < lanes; ++lane) sum = sum + hot_lane_sum(a, h, lane, lanes);
    store_hot(a, h, sum);
  }
  if (hot_buckets != nullptr) *hot_buckets = counters.hot;

  const std::uint32_t windows = a.bucket_windows();
  const ReducePlan plan =
      msm_reduce_plan(a.slots_per_window, static_cast<int>(windows), shape.reduce_tail_values);
  const std::vector<ReduceLevel>& levels = plan.levels;
  const std::size_t widest = levels.empty() ? windows : std::size_t{levels.front().out_per_window} * windows;
  std::vector<Xyzz> reduce[4];
  for (auto& r : reduce)
    r.assign(std::max<std::size_t>(widest, std::size_t{plan.tail.rows()} * windows), Xyzz::generator());
  const Xyzz* x = buckets.data();
  const std::uint32_t* present = counts.data();
  const Xyzz* s = nullptr;
  for (std::size_t l = 0; l < levels.size(); ++l) {
    Xyzz* a_out = reduce[2 * (l % 2)].data();
    Xyzz* s_out = reduce[2 * (l % 2) + 1].data();
    for (std::uint32_t w = 0; w < windows; ++w) {
      for (std::uint32_t g = 0; g < levels[l].out_per_window; ++g) {
        if (s == nullptr) {
          reduce_body<Curve, false>(levels[l], x, present, s, a_out, s_out, w, g);
        } else {
          reduce_body<Curve, true>(levels[l], x, present, s, a_out, s_out, w, g);
        }
      }
    }
    x = a_out;
    s = s_out;
    present = nullptr;
  }
  // The tail's rows with a few lanes each (the kernel's block sum adds its lanes in another order).
  constexpr std::uint32_t tail_lanes = 3;
  Xyzz* rows = reduce[2 * (levels.size() % 2)].data();
  Xyzz* values = reduce[2 * (levels.size() % 2) + 1].data();
  for (std::uint32_t w = 0; w < windows; ++w) {
    for (std::uint32_t row = 0; row < plan.tail.rows(); ++row) {
      Xyzz sum = Xyzz::infinity();
      for (std::uint32_t lane = 0; lane < tail_lanes; ++lane)
        sum = sum + tail_lane_sum(plan.tail, x, present, s, w, row, lane, tail_lanes);
      rows[std::size_t{w} * plan.tail.rows() + row] = sum;
    }
  }
  for (std::uint32_t w = 0; w < windows; ++w)
    values[w] = tail_finish(plan.tail, rows + std::size_t{w} * plan.tail.rows());
  s = values;
  Xyzz ones_total = Xyzz::infinity();
  if (a.split) {
    for (std::uint32_t t = 0; t < 5; ++t) ones_total = ones_total + ones_thread_sum(a, t, 5);
  }
  return combine_windows(s, static_cast<int>(windows), a.window_bits, a.split ? &ones_total : nullptr);
}

template <class Curve>
void check_msm(const std::vector<AffinePoint<Curve>>& points,
               const std::vector<typename Curve::Scalar>& scalars, const EmulationShape& shape) {
  CAPTURE(shape.window_bits);
  CAPTURE(shape.chunk);
  CAPTURE(shape.split);
  CAPTURE(shape.precomputed);
  CAPTURE(shape.scatter_passes_log);
  const JacobianPoint<Curve> expected = naive_msm(points, scalars);
  CHECK(emulate_msm(points, scalars, shape) == expected);
  for (std::uint32_t tail_values : {1u, 2u, 5u}) {
    CAPTURE(tail_values);
    EmulationShape levels_first = shape;
    levels_first.reduce_tail_values = tail_values;
    CHECK(emulate_msm(points, scalars, levels_first) == expected);
  }
}

/// Booth digits of edge and random scalars of F recompose them, within the windows the field's bits allow.
template <class F>
void check_booth_digits(std::mt19937_64& rng) {
  constexpr int bits = kMsmScalarBits<F>;
  for (int c : {2, 5, 8, 13, 16, 20, 22}) {
    CAPTURE(c);
    for (const F& scalar : edge_scalars<F>(rng, 64)) {
      const AbsScalar s = abs_scalar(scalar, true);
      CHECK(s.value.bit_length() <= static_cast<std::size_t>(bits - 1));
      F sum = F::zero(), power = F::one();
      const F radix = F::from_u64(std::uint64_t{1} << c);
      for (int w = 0; w < msm_windows(c, bits); ++w) {
        const int d = booth_digit(s.value, w, c);
        CHECK(d >= -(1 << (c - 1)));
        CHECK(d <= (1 << (c - 1)));
        const F magnitude = F::from_u64(static_cast<std::uint64_t>(d < 0 ? -d : d));
        sum += (d < 0 ? -magnitude : magnitude) * power;
        power *= radix;
      }
      CHECK((s.negate ? -sum : sum) == scalar);
    }
  }
}

}  // namespace

TEST_CASE("gpu_host/msm/booth digits with the abs trick recompose the scalar") {
  const std::uint64_t seed = test_seed();
  CAPTURE(seed);
  std::mt19937_64 rng(seed);
  CHECK(kMsmScalarBits<Fr> == 255);
  CHECK(kMsmScalarBits<bn254::Fr> == 254);
  check_booth_digits<Fr>(rng);
  check_booth_digits<bn254::Fr>(rng);
}

TEST_CASE("gpu_host/msm/emulated G1 MSM equals naive double-and-add on edge scalars and points") {
  const std::uint64_t seed = test_seed();
  CAPTURE(seed);
  std::mt19937_64 rng(seed);
  const std::size_t n = 97;
  std::vector<G1Affine> points = random_points<G1Params>(rng, n);
  points[3] = G1Affine::infinity();
  points[10] = points[11];  // repeated points meet in buckets: the doubling branch
  points[12] = points[11];
  points[20] = -points[21];  // P + (-P) in one bucket
  std::vector<Fr> scalars = edge_scalars(rng, n);
  scalars[10] = scalars[11] = scalars[12];
  scalars[20] = scalars[21];
  for (const EmulationShape& shape :
       {EmulationShape{5, 8, false}, EmulationShape{4, 16, false}, EmulationShape{7, 8, false},
        EmulationShape{5, 8, true}, EmulationShape{2, 32, true}, EmulationShape{9, 128, false},
        // chunks that are no power of two (msm_chunk divides the entries evenly)
        EmulationShape{5, 12, false}, EmulationShape{6, 37, true},
        // the scatter in one pass, and in one pass per magnitude
        EmulationShape{7, 8, false, true, false, 0}, EmulationShape{7, 8, true, true, false, 6}}) {
    check_msm(points, scalars, shape);
  }
  // Canonical scalars: the same integers stored as raw limbs.
  std::vector<Fr> canonical(n);
  for (std::size_t i = 0; i < n; ++i) canonical[i] = Fr::from_montgomery(scalars[i].canonical());
  CHECK(emulate_msm(points, canonical, EmulationShape{5, 8, false, false}) == naive_msm(points, scalars));
  CHECK(emulate_msm(points, canonical, EmulationShape{5, 8, true, false}) == naive_msm(points, scalars));
}

TEST_CASE("gpu_host/msm/hot buckets spread over many chunks are summed by the hot path") {
  const std::uint64_t seed = test_seed();
  CAPTURE(seed);
  std::mt19937_64 rng(seed);
  const std::size_t n = 300;
  std::vector<G1Affine> points = random_points<G1Params>(rng, n);
  std::vector<Fr> scalars(n, Fr::from_u64(3));  // one bucket of window 0 holds every point
  for (std::size_t i = 0; i < n; i += 7) scalars[i] = random_field<Fr>(rng);
  std::uint32_t hot = 0;
  const EmulationShape shape{6, 8, false};
  CHECK(emulate_msm(points, scalars, shape, &hot) == naive_msm(points, scalars));
  CHECK(hot >= 1);
}

TEST_CASE("gpu_host/msm/Groth16 split with zeros ones and minus ones") {
  const std::uint64_t seed = test_seed();
  CAPTURE(seed);
  std::mt19937_64 rng(seed);
  const std::size_t n = 200;
  std::vector<G1Affine> points = random_points<G1Params>(rng, n);
  points[7] = G1Affine::infinity();
  std::vector<Fr> scalars(n);
  for (auto& s : scalars) {
    const auto u = rng() % 10;
    s = u < 2 ? Fr::zero() : u < 7 ? Fr::one() : u < 8 ? -Fr::one() : random_field<Fr>(rng);
  }
  for (const EmulationShape& shape : {EmulationShape{5, 8, true}, EmulationShape{3, 16, true}}) {
    check_msm(points, scalars, shape);
  }
  std::vector<Fr> all_zero(n, Fr::zero());
  check_msm(points, all_zero, EmulationShape{5, 8, true});
  check_msm(points, all_zero, EmulationShape{5, 8, false});
  std::vector<Fr> all_one(n, Fr::one());
  check_msm(points, all_one, EmulationShape{5, 8, true});
}

TEST_CASE("gpu_host/msm/emulated G2 MSM equals naive double-and-add") {
  const std::uint64_t seed = test_seed();
  CAPTURE(seed);
  std::mt19937_64 rng(seed);
  const std::size_t n = 23;
  std::vector<G2Affine> points = random_points<G2Params>(rng, n);
  points[1] = G2Affine::infinity();
  points[5] = points[6];
  std::vector<Fr> scalars = edge_scalars(rng, n);
  scalars[5] = scalars[6];
  check_msm(points, scalars, EmulationShape{4, 8, false});
  check_msm(points, scalars, EmulationShape{4, 8, true});
  std::vector<G2Affine> one_point = {points[0]};
  std::vector<Fr> one_scalar = {-Fr::from_u64(5)};
  check_msm(one_point, one_scalar, EmulationShape{4, 8, false});
}

TEST_CASE("gpu_host/msm/plan levels chain into the tail and regions do not overlap") {
  for (int c = 2; c <= 22; ++c) {
    CAPTURE(c);
    const std::uint32_t slots = (std::uint32_t{1} << (c - 1)) + 1;
    for (std::uint32_t tail_values : {1u, 3u, kReduceTailValues}) {
      CAPTURE(tail_values);
      const ReducePlan plan = msm_reduce_plan(slots, msm_windows(c, kMsmScalarBits<Fr>), tail_values);
      const auto& levels = plan.levels;
      if (!levels.empty()) CHECK(levels.front().in_per_window == slots);
      for (std::size_t l = 1; l < levels.size(); ++l) {
        CHECK(levels[l].in_per_window == levels[l - 1].out_per_window);
        CHECK(levels[l].log_scale == levels[l - 1].log_scale + std::countr_zero(levels[l - 1].segment));
      }
      // The tail takes what the last level left (every slot when none ran), at the scale it reached.
      CHECK(plan.tail.in_per_window == (levels.empty() ? slots : levels.back().out_per_window));
      CHECK(plan.tail.in_per_window <= tail_values);
      if (!levels.empty()) {
        CHECK(levels.back().in_per_window > tail_values);
        CHECK(plan.tail.log_scale == levels.back().log_scale + std::countr_zero(levels.back().segment));
      }
      // Every index below in_per_window has at most `bits` bits, and the top one needs them all.
      const std::uint64_t top_index = plan.tail.in_per_window - 1;
      CHECK(top_index < (std::uint64_t{1} << plan.tail.bits));
      if (plan.tail.bits > 0) CHECK((top_index >> (plan.tail.bits - 1)) == 1u);
    }
  }
  for (std::size_t n : {std::size_t{1}, std::size_t{1000}, std::size_t{1} << 20, std::size_t{1} << 26}) {
    CAPTURE(n);
    const int c = msm_model_window_bits(n, kMsmScalarBits<Fr>);
    CHECK(c >= 4);
    CHECK(c <= 22);
    for (bool split : {false, true}) {
      const MsmLayout l =
          msm_layout(n, c, kMsmScalarBits<Fr>, split, false, sizeof(G2Xyzz), sizeof(G2Jacobian), 528, 1000);
      // Every region's start is aligned and inside the total; the digits share bytes only with the partials.
      for (std::size_t at : {l.counters, l.counts, l.starts, l.cursor, l.entries, l.digits, l.head_bucket,
                             l.head, l.cont, l.hot_list, l.buckets, l.result, l.scan_temp}) {
        CHECK(at % 256 == 0);
        CHECK(at < l.total);
      }
      const std::size_t entries = n * static_cast<std::size_t>(l.windows);
      CHECK(l.entries + entries * 4 <= l.digits);
      CHECK(l.digits + entries * 4 <= l.buckets);
      CHECK(l.cont + std::size_t{l.chunk_threads} * sizeof(G2Xyzz) <= l.buckets);
      CHECK(std::uint64_t{l.chunk_threads} * l.chunk >= entries);
    }
  }
  CHECK(msm_model_window_bits(std::size_t{1} << 24, kMsmScalarBits<Fr>) >= 16);
  // Tables: the widths measured best at 2^20 (17, not the 19 that additions alone favour) and kept at 2^22
  // and 2^24.
  CHECK(msm_model_window_bits(std::size_t{1} << 20, kMsmScalarBits<Fr>, true) == 17);
  CHECK(msm_model_window_bits(std::size_t{1} << 22, kMsmScalarBits<Fr>, true) == 20);
  CHECK(msm_model_window_bits(std::size_t{1} << 24, kMsmScalarBits<Fr>, true) == 22);
  // BN254's 254-bit scalars: ceil(254 / c) windows, one fewer than BLS12-381's where c divides 254 or 255.
  CHECK(msm_layout(1000, 2, kMsmScalarBits<bn254::Fr>, false, false, 128, 96, 0, 0).windows == 127);
  CHECK(msm_layout(1000, 2, kMsmScalarBits<Fr>, false, false, 192, 144, 0, 0).windows == 128);
  // The scatter's passes: each pass's share of one window's entries (a bucket set per window) or of all
  // windows' (one shared set) within its limit, at most one magnitude per pass.
  CHECK(msm_scatter_passes_log(std::size_t{1} << 23, 20, 13, false) == 0);
  CHECK(msm_scatter_passes_log((std::size_t{1} << 23) + 1, 20, 13, false) == 1);
  CHECK(msm_scatter_passes_log(std::size_t{1} << 24, 20, 13, false) == 1);
  CHECK(msm_scatter_passes_log(std::size_t{1} << 24, 22, 12, true) == 3);
  CHECK(msm_scatter_passes_log(std::size_t{5} << 20, 20, 13, true) == 1);
  CHECK(msm_scatter_passes_log(std::size_t{1} << 26, 3, 85, false) == 2);
  CHECK(msm_layout(std::size_t{1} << 24, 22, kMsmScalarBits<Fr>, false, true, 192, 144, 0, 0)
            .scatter_passes_log == 3);
  // Accumulate chunks: the entries over kMsmAccumulateThreads threads, 8 to kMsmMaxChunk entries each, at
  // least kMsmSmallChunk while kMsmSmallThreads threads remain, and half a deep bucket's entries while
  // kMsmDeepBucketThreads remain. Shallow buckets (an entry each here) leave the last rule out.
  const std::size_t shallow = std::size_t{1} << 40;
  CHECK(msm_chunk(1000, shallow) == 8);
  CHECK(msm_chunk(kMsmSmallThreads * 9, shallow) == 9);
  CHECK(msm_chunk(kMsmSmallThreads * 20 + 5, shallow) == 20);
  CHECK(msm_chunk(kMsmSmallThreads * kMsmSmallChunk, shallow) == kMsmSmallChunk);
  CHECK(msm_chunk(kMsmAccumulateThreads * 20, shallow) == kMsmSmallChunk);
  CHECK(msm_chunk(kMsmAccumulateThreads * kMsmSmallChunk + 1, shallow) == kMsmSmallChunk + 1);
  CHECK(msm_chunk(kMsmAccumulateThreads * 100, shallow) == 100);
  CHECK(msm_chunk(kMsmAccumulateThreads * 100 + 1, shallow) == 101);
  CHECK(msm_chunk(std::size_t{1} << 34, shallow) == kMsmMaxChunk);
  // Deep buckets: 20 entries a thread over kMsmDeepBucketThreads (where kMsmSmallThreads leaves 10), as
  // long as a bucket holds 40 entries; half a shallower bucket's; never below 8 or above kMsmSmallChunk.
  CHECK(msm_chunk(kMsmDeepBucketThreads * 20, kMsmDeepBucketThreads * 20 / 80) == 20);
  CHECK(msm_chunk(kMsmDeepBucketThreads * 20, kMsmDeepBucketThreads * 20 / 40) == 20);
  CHECK(msm_chunk(kMsmDeepBucketThreads * 20, kMsmDeepBucketThreads * 20 / 24) == 12);
  CHECK(msm_chunk(kMsmDeepBucketThreads * 20, kMsmDeepBucketThreads * 20 / 10) == 10);
  CHECK(msm_chunk(kMsmDeepBucketThreads * 20, kMsmDeepBucketThreads * 20 / 4) == 10);
  CHECK(msm_chunk(kMsmDeepBucketThreads * 6, 1) == 8);
  CHECK(msm_chunk(kMsmDeepBucketThreads * 100, 1) == kMsmSmallChunk);
  // Planned for the scalars expected to reach the sort (a split engine: half its points), with room for the
  // partials of a call that sends all of them; the scatter's passes follow the expected count too.
  for (const std::size_t n : {std::size_t{1000}, std::size_t{1} << 20, std::size_t{1} << 24}) {
    CAPTURE(n);
    const MsmLayout all = msm_layout(n, 17, kMsmScalarBits<Fr>, true, false, sizeof(G1Xyzz), 144, 528, 0);
    const MsmLayout half =
        msm_layout(n, 17, kMsmScalarBits<Fr>, true, false, sizeof(G1Xyzz), 144, 528, 0, (n + 1) / 2);
    const std::size_t entries = n * static_cast<std::size_t>(all.windows);
    CHECK(half.chunk == msm_chunk((n + 1) / 2 * static_cast<std::size_t>(half.windows),
                                  static_cast<std::size_t>(half.windows) * half.slots_per_window));
    CHECK(half.chunk <= all.chunk);
    CHECK(std::uint64_t{half.chunk_threads} * half.chunk >= entries);
    CHECK(half.cont + std::size_t{half.chunk_threads} * sizeof(G1Xyzz) <= half.buckets);
    CHECK(half.scatter_passes_log == msm_scatter_passes_log((n + 1) / 2, 17, half.windows, false));
  }
}

TEST_CASE("gpu_host/msm/emulated BN254 G1 and G2 MSMs equal naive double-and-add") {
  const std::uint64_t seed = test_seed();
  CAPTURE(seed);
  std::mt19937_64 rng(seed);
  const std::size_t n = 97;
  std::vector<bn254::G1Affine> points = random_points<bn254::G1Params>(rng, n);
  points[3] = bn254::G1Affine::infinity();
  points[10] = points[11];
  points[12] = points[11];
  points[20] = -points[21];
  std::vector<bn254::Fr> scalars = edge_scalars<bn254::Fr>(rng, n);
  scalars[10] = scalars[11] = scalars[12];
  scalars[20] = scalars[21];
  scalars[30] = -bn254::Fr::one();
  for (const EmulationShape& shape : {EmulationShape{5, 8, false}, EmulationShape{2, 32, true},
                                      EmulationShape{7, 8, true}, EmulationShape{9, 128, false}}) {
    check_msm(points, scalars, shape);
  }
  std::vector<bn254::Fr> canonical(n);
  for (std::size_t i = 0; i < n; ++i) canonical[i] = bn254::Fr::from_montgomery(scalars[i].canonical());
  CHECK(emulate_msm(points, canonical, EmulationShape{5, 8, true, false}) == naive_msm(points, scalars));

  const std::size_t m = 19;
  std::vector<bn254::G2Affine> g2_points = random_points<bn254::G2Params>(rng, m);
  g2_points[1] = bn254::G2Affine::infinity();
  g2_points[5] = g2_points[6];
  std::vector<bn254::Fr> g2_scalars = edge_scalars<bn254::Fr>(rng, m);
  g2_scalars[5] = g2_scalars[6];
  check_msm(g2_points, g2_scalars, EmulationShape{4, 8, false});
  check_msm(g2_points, g2_scalars, EmulationShape{4, 8, true});
}

namespace {

/// Precomputed windows: the table holds 2^(c w)·P_i, and MSMs over it equal the naive sum for edge scalars
/// and points (infinity, repeated points, P and -P), with and without the Groth16 split, in Montgomery and
/// canonical form.
template <class Curve>
void check_precomputed(std::mt19937_64& rng, std::size_t n) {
  using Scalar = typename Curve::Scalar;
  CAPTURE(n);
  std::vector<AffinePoint<Curve>> points = random_points<Curve>(rng, n);
  points[1] = AffinePoint<Curve>::infinity();
  points[4] = points[5];
  points[6] = -points[7];
  std::vector<Scalar> scalars = edge_scalars<Scalar>(rng, n);
  scalars[4] = scalars[5];
  scalars[6] = scalars[7];
  scalars[8] = Scalar::one();
  scalars[9] = -Scalar::one();

  const int c = 5;
  const int windows = msm_windows(c, kMsmScalarBits<Scalar>);
  const auto table = emulate_table(points, c, windows, 64);
  for (int w : {0, 1, windows - 1}) {
    CAPTURE(w);
    std::size_t mismatches = 0;
    for (std::size_t i = 0; i < n; ++i) {
      BigInt<4> multiple;  // 2^(c w)
      multiple.limb[(c * w) / 64] = std::uint64_t{1} << ((c * w) % 64);
      mismatches += table[static_cast<std::size_t>(w) * n + i] != points[i].mul(multiple).to_affine();
    }
    CHECK(mismatches == 0);
  }
  for (const EmulationShape& shape :
       {EmulationShape{5, 8, false, true, true}, EmulationShape{5, 8, true, true, true},
        EmulationShape{3, 16, true, true, true}, EmulationShape{8, 128, false, true, true},
        EmulationShape{6, 8, false, true, true, 0}, EmulationShape{6, 8, true, true, true, 5}}) {
    check_msm(points, scalars, shape);
  }
  std::vector<Scalar> canonical(n);
  for (std::size_t i = 0; i < n; ++i) canonical[i] = Scalar::from_montgomery(scalars[i].canonical());
  CHECK(emulate_msm(points, canonical, EmulationShape{4, 8, true, false, true}) ==
        naive_msm(points, scalars));
  // Digit 3 in every 4-bit window (0x33...3, 60 nibbles): one bucket of the shared set holds an entry of
  // every window of every point, the hot path.
  Scalar nibbles = Scalar::zero();
  for (int k = 0; k < 60; ++k) nibbles = nibbles * Scalar::from_u64(16) + Scalar::from_u64(3);
  std::vector<Scalar> threes(n, nibbles);
  std::uint32_t hot = 0;
  CHECK(emulate_msm(points, threes, EmulationShape{4, 4, false, true, true}, &hot) ==
        naive_msm(points, threes));
  CHECK(hot >= 1);
}

}  // namespace

TEST_CASE("gpu_host/msm/precomputed windows: table multiples and MSMs over one shared bucket set") {
  const std::uint64_t seed = test_seed();
  CAPTURE(seed);
  std::mt19937_64 rng(seed);
  check_precomputed<G1Params>(rng, 150);  // three table chunks of 64, the last one short
  check_precomputed<G2Params>(rng, 23);
  check_precomputed<bn254::G1Params>(rng, 97);
  check_precomputed<bn254::G2Params>(rng, 19);

  const MsmLayout l =
      msm_layout(1000, 12, kMsmScalarBits<Fr>, true, true, sizeof(G1Xyzz), sizeof(G1Jacobian), 528, 1000);
  CHECK(l.precomputed);
  CHECK(l.windows == 22);
  // 2^11 + 1 slots, one more than the tail takes: one level of pairs first.
  REQUIRE(l.reduce_plan.levels.size() == 1);
  CHECK(l.reduce_plan.levels.front().in_per_window == (1u << 11) + 1);
  CHECK(l.reduce_plan.tail.in_per_window == (1u << 10) + 1);
  CHECK(l.buckets + ((1u << 11) + 1) * sizeof(G1Xyzz) <= l.total);
  // The table build's chunks: every point at once up to 2^20, whole affine groups beyond.
  CHECK(msm_table_chunk(5000) == 5000);
  CHECK(msm_table_chunk(std::size_t{1} << 24) % kAffineGroup == 0);
  // Sharing one bucket set makes wider windows pay.
  for (std::size_t n : {std::size_t{1} << 16, std::size_t{1} << 20, std::size_t{1} << 24}) {
    CAPTURE(n);
    CHECK(msm_model_window_bits(n, kMsmScalarBits<Fr>, true) >= msm_model_window_bits(n, kMsmScalarBits<Fr>));
  }
}

namespace {

template <class Curve>
void check_fixed_base(std::mt19937_64& rng) {
  using Affine = AffinePoint<Curve>;
  using Scalar = typename Curve::Scalar;
  const Affine base = random_points<Curve>(rng, 1)[0];
  std::vector<XyzzPoint<Curve>> table_xyzz(kFixedBaseTableSize);
  for (int w = 0; w < kFixedBaseWindows; ++w) table_window_body(base, table_xyzz.data(), w);
  std::vector<Affine> table(kFixedBaseTableSize);
  for (std::uint32_t g = 0; g < kFixedBaseTableSize / kAffineGroup; ++g) {
    to_affine_body(table_xyzz.data(), table.data(), kFixedBaseTableSize, g);
  }
  CHECK(table[0] == base);
  CHECK(table[5] == base.mul(BigInt<1>::from_u64(6)).to_affine());
  CHECK(table[3 * kFixedBaseDigits + 99] == base.mul(BigInt<1>::from_u64(100ull << 24)).to_affine());

  std::vector<Scalar> scalars = edge_scalars<Scalar>(rng, 70);
  std::vector<XyzzPoint<Curve>> products(scalars.size());
  for (std::size_t j = 0; j < scalars.size(); ++j) products[j] = fixed_base_body(table.data(), scalars[j]);
  std::vector<Affine> out(scalars.size(), Affine::generator());  // poisoned
  const auto n = static_cast<std::uint32_t>(scalars.size());
  for (std::uint32_t g = 0; g * kAffineGroup < n; ++g) to_affine_body(products.data(), out.data(), n, g);
  std::size_t mismatches = 0;
  for (std::size_t j = 0; j < scalars.size(); ++j) mismatches += out[j] != base.mul(scalars[j]).to_affine();
  CHECK(mismatches == 0);
}

}  // namespace

TEST_CASE("gpu_host/fixed_base/table scalar multiples and batch affine equal host multiplication") {
  const std::uint64_t seed = test_seed();
  CAPTURE(seed);
  std::mt19937_64 rng(seed);
  check_fixed_base<G1Params>(rng);
  check_fixed_base<bn254::G1Params>(rng);
}

TEST_CASE("gpu_host/msm/without a usable GPU, engines are refused with Error before any kernel runs") {
  if (cuda::device_count() > 0) {
    MESSAGE("a CUDA device is present: the refusal path did not run here");
    return;
  }
  // Built without CUDA, a plan is plain arithmetic and only enqueueing is refused; built with CUDA on a
  // machine without a usable device, the engine already asks the device for its SM count and is refused.
  std::optional<cuda::MsmEngine> engine;
  try {
    engine.emplace(cuda::MsmGroup::g1, 1000);
  } catch (const Error& e) {
    CHECK(e.code() == Errc::cuda);
  }
  if (engine) {
    CHECK(engine->scratch_bytes() > 0);
    CHECK_THROWS_AS(engine->enqueue_msm_g1(nullptr, nullptr, 1, nullptr, nullptr, nullptr), Error);
  }
  CHECK_THROWS_AS(cuda::MsmPointStream(std::size_t{1} << 20), Error);
}
