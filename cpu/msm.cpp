// CPU MSM: scalar preparation (the Groth16 split, canonical form, abs trick), the window tasks, the window
// combination. The bucket sets are in detail/msm_buckets.hpp, the recoding and the plan's rule in
// detail/msm_digits.hpp.
#include <proofline/cpu/msm.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <proofline/cpu/detail/msm_buckets.hpp>
#include <proofline/cpu/detail/msm_digits.hpp>
#include <proofline/cpu/detail/mulx_field.hpp>
#include <proofline/util/error.hpp>

namespace proofline::cpu {

namespace detail {

namespace {

// The cost model, in units of one XYZZ mixed addition (8M + 2S, the per-point cost of XYZZ buckets): CPU time
// per operation of the bucket sets alone on random digits, G1 (G2's batched additions are cheaper still
// relative to its XYZZ ones, so one model errs on the safe side for both).
constexpr double kXyzzAdd = 1.35;       // XYZZ + XYZZ (12M + 2S)
constexpr double kAffineAdd = 0.62;     // one batched affine addition, without the inversion, mulx products
constexpr double kAffineAddIfma = 0.3;  // the same eight at a time on AVX-512 IFMA, with bucket bookkeeping
constexpr double kInversion = 10.0;     // one field inversion by the binary GCD (Fermat's power cost 25)
constexpr double kTaskOverhead = 4.0;   // scheduling, bucket reset
constexpr unsigned kMaxAutoWindowBits = 20;  // 2^19 buckets (about 50 MiB per thread in G1) at most
constexpr unsigned kMaxAutoChunks = 64;

/// Additions per shared inversion: at most a quarter of the K buckets, so that the points waiting for a
/// bucket already in the batch stay few (about 4% of K fill a batch of K/4), and at most 2048 to keep the
/// queue and the lanes' scratch in L2.
std::size_t batch_limit(std::size_t buckets) {
  return std::clamp<std::size_t>(buckets / 4, 1, 2048);
}
std::size_t batch_for(unsigned window_bits) {
  return batch_limit(std::size_t{1} << (window_bits - 1));
}

struct Cost {
  double time;
  bool batch_affine;
};

/// Time of the slowest thread for one (c, k) choice, and the cheaper bucket representation for it.
Cost plan_cost(std::size_t dense, unsigned threads, unsigned c, unsigned k, MsmBuckets buckets) {
  const unsigned windows = msm_windows(c);
  double bucket_count = 0;  // per window, on average over the windows' widths
  for (unsigned w = 0; w < windows; ++w)
    bucket_count += std::ldexp(1.0, static_cast<int>(msm_window(windows, w).width) - 1);
  bucket_count /= windows;
  const double points = std::ceil(static_cast<double>(dense) / k);
  const double rounds = std::ceil(static_cast<double>(windows) * k / threads);

  const double xyzz = points * 1.0 + bucket_count * 2 * kXyzzAdd;
  const double add = ifma_enabled() ? kAffineAddIfma : kAffineAdd;
  const double batch = static_cast<double>(batch_limit(static_cast<std::size_t>(bucket_count)));
  double reduction = bucket_count * (1.0 + kXyzzAdd);  // running sums
  if (bucket_count >= kSegmentedReductionFrom) {
    const double segments =
        static_cast<double>(affine_reduction_segments(static_cast<std::size_t>(bucket_count)));
    reduction = bucket_count * 2 * add + bucket_count / segments * kInversion + 3 * segments * kXyzzAdd;
  }
  const double affine = points * add + std::ceil(points / batch) * kInversion + reduction;
  double task = xyzz;
  bool use_affine = false;
  if (buckets == MsmBuckets::batch_affine || (buckets == MsmBuckets::automatic && affine < xyzz)) {
    task = affine;
    use_affine = true;
  }
  return Cost{rounds * (task + kTaskOverhead), use_affine};
}

}  // namespace

MsmPlan msm_plan(std::size_t dense, unsigned threads, const MsmOptions& options) {
  if (options.window_bits > kMsmMaxWindowBits)
    throw Error(Errc::invalid_argument, "cpu::msm: window_bits " + std::to_string(options.window_bits) +
                                            " is above " + std::to_string(kMsmMaxWindowBits));
  if (options.chunks > (1u << 16))
    throw Error(Errc::invalid_argument,
                "cpu::msm: chunks " + std::to_string(options.chunks) + " is above 2^16");
  threads = std::max(threads, 1u);
  const unsigned c_first = options.window_bits ? options.window_bits : 1;
  const unsigned c_last = options.window_bits ? options.window_bits : kMaxAutoWindowBits;
  const auto max_chunks = static_cast<unsigned>(std::clamp<std::size_t>(dense, 1, kMaxAutoChunks));
  const unsigned k_first = options.chunks ? options.chunks : 1;
  const unsigned k_last = options.chunks ? options.chunks : max_chunks;

  MsmPlan best;
  double best_time = std::numeric_limits<double>::infinity();
  for (unsigned c = c_first; c <= c_last; ++c) {
    for (unsigned k = k_first; k <= k_last; ++k) {
      const Cost cost = plan_cost(dense, threads, c, k, options.buckets);
      if (cost.time < best_time) {
        best_time = cost.time;
        best.window_bits = c;
        best.windows = msm_windows(c);
        best.chunks = k;
        best.batch_affine = cost.batch_affine;
        best.batch = cost.batch_affine ? batch_for(c) : 0;
      }
    }
  }
  return best;
}

namespace {

/// One scalar that goes through the windows: |s| (below 2^254) and its point, negated when bit 31 is set.
struct DenseEntry {
  std::uint64_t scalar[4];
  std::uint32_t point;
};
constexpr std::uint32_t kNegate = std::uint32_t{1} << 31;

template <class Curve>
struct Prepared {
  std::vector<DenseEntry> dense;
  XyzzPoint<Curve> ones = XyzzPoint<Curve>::infinity();  // Σ ±P over the scalars ±1 (split only)
};

// Throughout: the caller's points are AffinePoint<Stored> and stay so in memory; the arithmetic runs on
// Curve, which is Stored or its mulx twin (detail/mulx_field.hpp), and every point is converted by value
// (twin_cast) where it is read.

/// Splits the scalars (when asked) and converts the rest to the digits' input form, in parallel blocks whose
/// results are concatenated in order (so the result is deterministic).
template <class Curve, class Stored>
Prepared<Curve> prepare(std::span<const AffinePoint<Stored>> points,
                        std::span<const typename Curve::Scalar> scalars, bool split) {
  using Xyzz = XyzzPoint<Curve>;
  using Fr = typename Curve::Scalar;
  // Blocks of 2^14: the ±1 sum pays one inversion per level (about 10 per block), a few percent of its work.
  constexpr std::size_t kBlock = 16384;
  const std::size_t n = scalars.size();
  const std::size_t blocks = (n + kBlock - 1) / kBlock;
  std::vector<std::vector<DenseEntry>> block_dense(blocks);
  std::vector<Xyzz> block_ones(blocks, Xyzz::infinity());
  const Fr one = Fr::one(), minus_one = -Fr::one();

  tbb::parallel_for(std::size_t{0}, blocks, [&](std::size_t block) {
    const std::size_t begin = block * kBlock, end = std::min(n, begin + kBlock);
    std::vector<DenseEntry>& out = block_dense[block];
    out.reserve(end - begin);
    std::vector<AffinePoint<Curve>> ones;
    for (std::size_t i = begin; i < end; ++i) {
      const Fr& s = scalars[i];
      if (split) {
        if (s.is_zero() || points[i].is_infinity()) continue;
        if (s == one || s == minus_one) {
          const auto point = twin_cast<AffinePoint<Curve>>(points[i]);
          ones.push_back(s == one ? point : -point);
          continue;
        }
      }
      DenseEntry entry;
      BigInt<4> magnitude;
      const bool negate = msm_abs_scalar<Fr>(s.canonical(), magnitude);
      std::copy_n(magnitude.limb, 4, entry.scalar);
      entry.point = static_cast<std::uint32_t>(i) | (negate ? kNegate : 0);
      out.push_back(entry);
    }
    block_ones[block] = batch_affine_sum(ones);
  });

  Prepared<Curve> result;
  std::vector<std::size_t> offset(blocks + 1, 0);
  for (std::size_t b = 0; b < blocks; ++b) {
    offset[b + 1] = offset[b] + block_dense[b].size();
    result.ones = result.ones + block_ones[b];
  }
  result.dense.resize(offset[blocks]);
  tbb::parallel_for(std::size_t{0}, blocks, [&](std::size_t block) {
    std::copy(block_dense[block].begin(), block_dense[block].end(), result.dense.begin() + offset[block]);
    std::vector<DenseEntry>().swap(block_dense[block]);
  });
  return result;
}

/// Adds the points of entries [begin, end) with their digits of `window` into `buckets`. The bucket of the
/// entry a few places ahead is prefetched: the bucket array outgrows L2 from c = 14 on and the index is
/// random.
template <class Curve, class Stored, class Buckets>
void fill_buckets(Buckets& buckets, std::span<const AffinePoint<Stored>> points, const DenseEntry* entries,
                  std::size_t begin, std::size_t end, MsmWindow window) {
  constexpr std::size_t kAhead = 6;
  for (std::size_t j = begin; j < end; ++j) {
    if (j + kAhead < end) {
      const DenseEntry& ahead = entries[j + kAhead];
      const std::int32_t d = msm_booth_digit(ahead.scalar, window.low, window.width);
      if (d != 0) {
        buckets.prefetch(static_cast<std::uint32_t>(d < 0 ? -d : d) - 1);
        __builtin_prefetch(&points[ahead.point & ~kNegate], 0, 3);
      }
    }
    const DenseEntry& entry = entries[j];
    const std::int32_t d = msm_booth_digit(entry.scalar, window.low, window.width);
    if (d == 0) continue;
    const bool negate = (d < 0) != ((entry.point & kNegate) != 0);
    buckets.add(static_cast<std::uint32_t>(d < 0 ? -d : d) - 1,
                twin_cast<AffinePoint<Curve>>(points[entry.point & ~kNegate]), negate);
  }
}

unsigned current_threads() {
  return static_cast<unsigned>(
      std::min<std::size_t>(static_cast<std::size_t>(tbb::this_task_arena::max_concurrency()),
                            tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism)));
}

/// Σ |s|·(±P) over the dense entries: every (window, chunk) task fills its own buckets and reduces them; the
/// windows' sums are combined Horner-style (as many doublings between windows as the lower one is wide).
template <class Curve, class Stored>
XyzzPoint<Curve> run_windows(std::span<const AffinePoint<Stored>> points,
                             const std::vector<DenseEntry>& dense, const MsmPlan& plan) {
  using Xyzz = XyzzPoint<Curve>;
  const unsigned windows = plan.windows, chunks = plan.chunks;
  const std::size_t m = dense.size();
  std::vector<Xyzz> partial(std::size_t{windows} * chunks, Xyzz::infinity());
  tbb::enumerable_thread_specific<XyzzBuckets<Curve>> xyzz_sets;
  tbb::enumerable_thread_specific<AffineBuckets<Curve>> affine_sets;

  tbb::parallel_for(std::size_t{0}, partial.size(), [&](std::size_t task) {
    // Window-major from the top, chunks of a window side by side.
    const auto w = static_cast<unsigned>(windows - 1 - task / chunks);
    const MsmWindow window = msm_window(windows, w);
    const std::size_t chunk = task % chunks;
    const std::size_t begin = m * chunk / chunks, end = m * (chunk + 1) / chunks;
    const std::size_t used = std::size_t{1} << (window.width - 1);
    if (plan.batch_affine) {
      AffineBuckets<Curve>& buckets = affine_sets.local();
      buckets.reset(used, std::min(plan.batch, batch_limit(used)));
      fill_buckets<Curve, Stored>(buckets, points, dense.data(), begin, end, window);
      partial[std::size_t{w} * chunks + chunk] = buckets.reduce(used);
    } else {
      XyzzBuckets<Curve>& buckets = xyzz_sets.local();
      buckets.reset(used);
      fill_buckets<Curve, Stored>(buckets, points, dense.data(), begin, end, window);
      partial[std::size_t{w} * chunks + chunk] = buckets.reduce(used);
    }
  });

  Xyzz result = Xyzz::infinity();
  for (unsigned w = windows; w-- > 0;) {
    const unsigned width = msm_window(windows, w).width;
    for (unsigned i = 0; i < width && !result.is_infinity(); ++i) result = result.dbl();
    for (unsigned chunk = 0; chunk < chunks; ++chunk)
      result = result + partial[std::size_t{w} * chunks + chunk];
  }
  return result;
}

template <class Curve, class Stored>
JacobianPoint<Curve> msm_impl(std::span<const AffinePoint<Stored>> points,
                              std::span<const typename Curve::Scalar> scalars, const MsmOptions& options) {
  if (points.size() != scalars.size())
    throw Error(Errc::invalid_argument, "cpu::msm: " + std::to_string(points.size()) + " points but " +
                                            std::to_string(scalars.size()) + " scalars");
  if (points.size() >= kNegate)
    throw Error(Errc::invalid_argument,
                "cpu::msm: " + std::to_string(points.size()) + " points, the limit is 2^31 - 1");
  // Validate the options even when there is nothing to multiply.
  MsmPlan plan = msm_plan(points.size(), current_threads(), options);
  Prepared<Curve> prepared = prepare<Curve>(points, scalars, options.split_zero_one);
  XyzzPoint<Curve> result = prepared.ones;
  if (!prepared.dense.empty()) {
    if (prepared.dense.size() != points.size())
      plan = msm_plan(prepared.dense.size(), current_threads(), options);
    result = result + run_windows<Curve>(points, prepared.dense, plan);
  }
  return result.to_jacobian();
}

/// msm_impl on the mulx twins of Curve's fields where they exist, are wanted and the CPU has the instructions
/// (the MSM's only entry to the twins, so a CPU without BMI2 and ADX never runs their products), else on
/// Curve itself.
template <class Curve>
JacobianPoint<Curve> msm_dispatch(std::span<const AffinePoint<Curve>> points,
                                  std::span<const typename Curve::Scalar> scalars,
                                  const MsmOptions& options) {
  if constexpr (has_mulx_twin<typename Curve::Field>()) {
    if (options.host_carry_instructions && msm_uses_carry_instructions())
      return twin_cast<JacobianPoint<Curve>>(msm_impl<MulxCurve<Curve>, Curve>(points, scalars, options));
  }
  return msm_impl<Curve, Curve>(points, scalars, options);
}

}  // namespace

}  // namespace detail

G1Jacobian msm(std::span<const G1Affine> points, std::span<const Fr> scalars, const MsmOptions& options) {
  return detail::msm_dispatch<G1Params>(points, scalars, options);
}

G2Jacobian msm(std::span<const G2Affine> points, std::span<const Fr> scalars, const MsmOptions& options) {
  return detail::msm_dispatch<G2Params>(points, scalars, options);
}

bn254::G1Jacobian msm(std::span<const bn254::G1Affine> points, std::span<const bn254::Fr> scalars,
                      const MsmOptions& options) {
  return detail::msm_dispatch<bn254::G1Params>(points, scalars, options);
}

bn254::G2Jacobian msm(std::span<const bn254::G2Affine> points, std::span<const bn254::Fr> scalars,
                      const MsmOptions& options) {
  return detail::msm_dispatch<bn254::G2Params>(points, scalars, options);
}

}  // namespace proofline::cpu
