// Internal: k rounds of {−1, 0, 1} combinations summed at once, the engine of the batched subgroup check
// (batch_subgroup.hpp argues the soundness; this file only computes the sums, exactly).
//
// Round j's sum is S_j = Σ_i t_{j,i}·P_i. A point's k coefficients form a pattern, read as the balanced
// base-3 number v_i = Σ_j t_{j,i}·3^j in [−M, M], M = (3^k − 1)/2. Every point is added (negated when v_i <
// 0) into the bucket |v_i|, so B_v = Σ_{v_i = v} P_i − Σ_{v_i = −v} P_i: one addition per point for all k
// rounds, instead of one per point per nonzero coefficient. Then S_j = Σ_{v ≥ 1} trit_j(v)·B_v (a pattern and
// its negation have opposite trits, which is why they can share a bucket with a sign).
//
// Buckets: the points are counting-sorted by bucket and summed in tasks of a few thousand points, pairwise
// level by level, every addition of a level sharing one inversion (batched affine additions, about 6M each).
// Sorting first means no two additions of a level touch one bucket, so nothing needs the XYZZ fallback of the
// MSM's random-access buckets, and tasks write disjoint buckets (no per-thread copies to merge).
//
// From buckets to rounds, one trit at a time: with v = t + 3u (t the lowest trit, u the rest),
//   S_0 = Σ_{u ≥ 0} (B_{3u+1} − B_{3u−1})   and   C_u = B_{3u−1} + B_{3u} + B_{3u+1}  (u ≥ 1)
// are the lowest round's sum and the buckets of the k − 1 higher trits (patterns with u = 0 have no higher
// nonzero trit). About 4/3 additions per bucket at the first trit, 3^k in all for the k rounds, batched
// affine additions too (the same segment sums as the buckets'; S in short chunks, whose few sums are added in
// XYZZ coordinates), so the reduction stays small beside the bucket additions up to about 3^k ≈ n.
//
// Exactness: P + P is a doubling and P + (−P) drops out, the group law's exceptional cases, so every sum is
// the integer combination itself; r·P = O is never used. No point has order 2 on either curve (odd orders),
// so no doubling has a zero denominator.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <proofline/arith/curve.hpp>

namespace proofline::groth16::detail {

/// (3^k − 1)/2, the buckets of k-trit patterns: k ≤ 19 keeps 3^k below 2^31.
constexpr std::uint32_t ternary_bucket_count(unsigned k) {
  std::uint32_t power = 1;
  for (unsigned j = 0; j < k; ++j) power *= 3;
  return (power - 1) / 2;
}

namespace ternary {

inline constexpr std::uint32_t kNegate = std::uint32_t{1} << 31;

/// The points' entries (index, bit 31 set for a negative pattern) grouped by bucket: bucket b's entries are
/// entries[offsets[b]] up to entries[offsets[b + 1]]. Zero patterns and points at infinity add nothing and
/// are left out.
struct SortedEntries {
  std::vector<std::uint32_t> entries;
  std::vector<std::size_t> offsets;
};

template <class Affine>
SortedEntries sort_by_bucket(std::span<const Affine> points, std::span<const std::int32_t> patterns,
                             std::uint32_t buckets) {
  SortedEntries s;
  s.offsets.assign(std::size_t{buckets} + 2, 0);
  for (std::size_t i = 0; i < points.size(); ++i)
    if (patterns[i] != 0 && !points[i].is_infinity()) ++s.offsets[std::abs(patterns[i]) + 1];
  for (std::size_t b = 1; b < s.offsets.size(); ++b) s.offsets[b] += s.offsets[b - 1];
  s.entries.resize(s.offsets.back());
  std::vector<std::size_t> next(s.offsets.begin(), s.offsets.end() - 1);
  for (std::size_t i = 0; i < points.size(); ++i) {
    const std::int32_t v = patterns[i];
    if (v == 0 || points[i].is_infinity()) continue;
    s.entries[next[std::abs(v)]++] = static_cast<std::uint32_t>(i) | (v < 0 ? kNegate : 0);
  }
  return s;
}

/// Bucket ranges [first, last) of about `task_points` entries each (a bucket is never split).
inline std::vector<std::uint32_t> task_bounds(const SortedEntries& s, std::size_t task_points) {
  const auto buckets = static_cast<std::uint32_t>(s.offsets.size() - 1);
  std::vector<std::uint32_t> bounds{0};
  for (std::uint32_t b = 1; b < buckets; ++b)
    if (s.offsets[b] - s.offsets[bounds.back()] >= task_points) bounds.push_back(b);
  bounds.push_back(buckets);
  return bounds;
}

/// One task's points with their buckets, in bucket order, and the scratch of its levels.
template <class Curve>
struct Segments {
  using Affine = AffinePoint<Curve>;
  std::vector<Affine> points, next;
  std::vector<std::uint32_t> buckets, next_buckets;
  std::vector<typename Curve::Field> prefix;
  std::vector<std::uint32_t> firsts;  // the first index of each pair of the level

  void clear() {
    points.clear();
    buckets.clear();
  }
  /// Appends p to segment `id` (a segment's points must be appended together); infinity adds nothing.
  void push(std::uint32_t id, const Affine& p) {
    if (p.is_infinity()) return;
    points.push_back(p);
    buckets.push_back(id);
  }
};

/// One level: neighbours of one bucket are added in pairs, all the level's additions sharing one inversion
/// (Montgomery's trick). False when no two points shared a bucket: each bucket is then down to its sum.
template <class Curve>
bool pair_level(Segments<Curve>& s) {
  using Affine = AffinePoint<Curve>;
  using Field = typename Curve::Field;
  const std::size_t n = s.points.size();
  s.firsts.clear();
  s.prefix.clear();
  Field product = Field::one();
  for (std::size_t i = 0; i + 1 < n; ++i) {
    if (s.buckets[i] != s.buckets[i + 1]) continue;
    const Affine &a = s.points[i], &b = s.points[i + 1];
    s.firsts.push_back(static_cast<std::uint32_t>(i));
    s.prefix.push_back(product);
    if (a.x != b.x) {
      product *= b.x - a.x;
    } else if (a.y == b.y && !a.y.is_zero()) {
      product *= a.y.doubled();
    }
    ++i;  // b is taken
  }
  if (s.firsts.empty()) return false;
  Field inverse = product.inverse();
  // Backwards: the pair's result replaces its first point, its second becomes infinity (dropped below).
  for (std::size_t j = s.firsts.size(); j-- > 0;) {
    Affine &a = s.points[s.firsts[j]], &b = s.points[s.firsts[j] + 1];
    Field numerator, d;
    if (a.x != b.x) {
      d = b.x - a.x;
      numerator = b.y - a.y;
    } else if (a.y == b.y && !a.y.is_zero()) {
      d = a.y.doubled();
      const Field x2 = a.x.squared();
      numerator = x2.doubled() + x2;
    } else {  // P + (−P)
      a = b = Affine::infinity();
      continue;
    }
    const Field lambda = numerator * (inverse * s.prefix[j]);
    inverse *= d;
    const Field x3 = lambda.squared() - a.x - b.x;
    a = Affine{x3, lambda * (a.x - x3) - a.y};
    b = Affine::infinity();
  }
  s.next.clear();
  s.next_buckets.clear();
  for (std::size_t i = 0; i < n; ++i) {
    if (s.points[i].is_infinity()) continue;
    s.next.push_back(s.points[i]);
    s.next_buckets.push_back(s.buckets[i]);
  }
  s.points.swap(s.next);
  s.buckets.swap(s.next_buckets);
  return true;
}

/// Gathers the buckets [first, last) of one task (negating points of negative patterns), sums each bucket,
/// and writes the sums into `sums` (buckets left empty keep infinity).
template <class Curve>
void sum_task(Segments<Curve>& s, std::span<const AffinePoint<Curve>> points, const SortedEntries& sorted,
              std::uint32_t first, std::uint32_t last, std::span<AffinePoint<Curve>> sums) {
  constexpr std::size_t kAhead = 8;
  s.clear();
  // Sized once: growing by doubling would copy the points again at every step.
  s.points.reserve(sorted.offsets[last] - sorted.offsets[first]);
  s.buckets.reserve(sorted.offsets[last] - sorted.offsets[first]);
  for (std::uint32_t b = first; b < last; ++b) {
    const std::size_t end = sorted.offsets[b + 1];
    for (std::size_t e = sorted.offsets[b]; e < end; ++e) {
      if (e + kAhead < sorted.entries.size())
        __builtin_prefetch(&points[sorted.entries[e + kAhead] & ~kNegate]);
      const std::uint32_t entry = sorted.entries[e];
      const AffinePoint<Curve>& p = points[entry & ~kNegate];
      s.push(b, (entry & kNegate) ? -p : p);
    }
  }
  while (pair_level(s)) {
  }
  for (std::size_t i = 0; i < s.points.size(); ++i) sums[s.buckets[i]] = s.points[i];
}

/// B_0 .. B_M (B_0 unused, infinity) for patterns in [−M, M].
template <class Curve>
std::vector<AffinePoint<Curve>> bucket_sums(std::span<const AffinePoint<Curve>> points,
                                            std::span<const std::int32_t> patterns, std::uint32_t buckets,
                                            std::size_t task_points) {
  const SortedEntries sorted = sort_by_bucket(points, patterns, buckets);
  const std::vector<std::uint32_t> bounds = task_bounds(sorted, task_points);
  std::vector<AffinePoint<Curve>> sums(std::size_t{buckets} + 1, AffinePoint<Curve>::infinity());
  tbb::enumerable_thread_specific<Segments<Curve>> scratch;
  tbb::parallel_for(std::size_t{0}, bounds.size() - 1, [&](std::size_t t) {
    sum_task<Curve>(scratch.local(), points, sorted, bounds[t], bounds[t + 1], sums);
  });
  return sums;
}

/// Points of S per segment in reduce_trit: S is one long sum, and summed as one segment it would take
/// log2(2·M') levels, each paying a field inversion for ever fewer additions (at the lowest trits, mostly
/// inversions). In chunks of this many the levels stay as few as the triples' and the chunk sums, a small
/// fraction of the points, are added in XYZZ coordinates.
inline constexpr std::size_t s_chunk_points = 16;

/// The lowest trit's round sum from the buckets b[1..M] of m-trit patterns, and into `parent` the buckets
/// C_1..C_M' of the m − 1 higher trits (see the top of the file; parent[0] is unused). Both are segment sums
/// of the same kind as the buckets': each task sums its parents' triples and its part of S in chunks.
template <class Curve>
XyzzPoint<Curve> reduce_trit(const std::vector<AffinePoint<Curve>>& b,
                             std::vector<AffinePoint<Curve>>& parent, std::size_t task_parents) {
  using Affine = AffinePoint<Curve>;
  const std::size_t parents = (b.size() - 2) / 3;  // M' = (M − 1)/3
  const std::size_t tasks = parents / task_parents + 1;
  parent.assign(parents + 1, Affine::infinity());
  std::vector<XyzzPoint<Curve>> partial(tasks, XyzzPoint<Curve>::infinity());
  tbb::enumerable_thread_specific<Segments<Curve>> scratch;
  tbb::parallel_for(std::size_t{0}, tasks, [&](std::size_t t) {
    Segments<Curve>& s = scratch.local();
    s.clear();
    const std::size_t first = t * (parents + 1) / tasks, last = (t + 1) * (parents + 1) / tasks;
    for (std::size_t u = std::max<std::size_t>(first, 1); u < last; ++u)
      for (std::size_t v = 3 * u - 1; v <= 3 * u + 1; ++v) s.push(static_cast<std::uint32_t>(u), b[v]);
    // S's chunks take the segment ids after the parents' (the ids only need to differ between neighbours).
    std::size_t pushed = 0;
    const auto push_s = [&](const Affine& p) {
      s.push(static_cast<std::uint32_t>(parents + 1 + pushed++ / s_chunk_points), p);
    };
    for (std::size_t u = first; u < last; ++u) {
      push_s(b[3 * u + 1]);
      if (u > 0) push_s(-b[3 * u - 1]);
    }
    while (pair_level(s)) {
    }
    for (std::size_t i = 0; i < s.points.size(); ++i) {
      if (s.buckets[i] <= parents)
        parent[s.buckets[i]] = s.points[i];
      else
        partial[t] += s.points[i];
    }
  });
  XyzzPoint<Curve> sum = XyzzPoint<Curve>::infinity();
  for (const XyzzPoint<Curve>& p : partial) sum = sum + p;
  return sum;
}

}  // namespace ternary

/// S_j = Σ_i trit_j(patterns[i])·points[i] for j < k, where trit_j is the j-th balanced base-3 digit and
/// patterns lie in [−(3^k − 1)/2, (3^k − 1)/2]. task_points: points summed per task (tests make it tiny).
template <class Curve>
std::vector<XyzzPoint<Curve>> ternary_round_sums(std::span<const AffinePoint<Curve>> points,
                                                 std::span<const std::int32_t> patterns, unsigned k,
                                                 std::size_t task_points = 8192) {
  std::vector<XyzzPoint<Curve>> rounds(k);
  if (k == 0) return rounds;
  std::vector<AffinePoint<Curve>> current =
      ternary::bucket_sums<Curve>(points, patterns, ternary_bucket_count(k), task_points);
  std::vector<AffinePoint<Curve>> parent;
  // A parent takes 3 points into its triple and 2 into S.
  const std::size_t task_parents = std::max<std::size_t>(1, task_points / 5);
  for (unsigned j = 0; j < k; ++j) {
    rounds[j] = ternary::reduce_trit<Curve>(current, parent, task_parents);
    current.swap(parent);
  }
  return rounds;
}

}  // namespace proofline::groth16::detail
