// Internal: the two bucket sets of the CPU MSM. One task (window, chunk of points) owns one set: reset, add
// every nonzero digit's point, reduce to Σ_b (b + 1)·B_b. Sets are reused across tasks of a thread.
//
// XyzzBuckets: XYZZ buckets, one mixed addition (8M + 2S) per point.
// AffineBuckets: affine buckets; additions are queued and a batch shares one inversion (Montgomery's trick):
//   3M for the shared inversion, 1M for the slope, 1S + 1M for the result, about 6M per addition. A point for
//   a bucket already queued in the open batch waits for a later batch; once a batch's worth waits, further
//   ones go to the bucket's XYZZ twin instead (a plain mixed addition), so a skewed digit distribution costs
//   no more than XYZZ buckets. P + P is queued as a doubling (slope 3x² / 2y) and P + (−P) empties the bucket
//   at once, so no denominator in a batch is ever zero. Where the CPU has AVX-512 IFMA, a batch without
//   doublings runs eight additions at a time (ifma_batch.hpp).
//   The reduction Σ_b (b + 1)·B_b runs in batches too: the buckets are cut into S segments of L, whose
//   running sums R_s and weighted sums T_s advance one bucket a step, all segments in one batch of affine
//   additions; Σ_b (b + 1)·B_b = Σ_s T_s + L·Σ_s s·R_s then takes about 3S XYZZ additions. A scalar
//   reduction costs two XYZZ additions per bucket, several times a batched affine one.
// batch_affine_sum: the plain sum of many points (the Groth16 split's ±1 scalars) by the same batched affine
//   additions, pairwise level by level.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include <proofline/arith/curve.hpp>
#include <proofline/cpu/detail/ifma_batch.hpp>

namespace proofline::cpu::detail {

/// Prefetches the cache lines of one object for writing.
template <class T>
inline void prefetch_for_write(const T& object) {
  const char* begin = reinterpret_cast<const char*>(&object);
  for (std::size_t offset = 0; offset < sizeof(T); offset += 64) __builtin_prefetch(begin + offset, 1, 3);
  __builtin_prefetch(begin + sizeof(T) - 1, 1, 3);
}

template <class Curve>
class XyzzBuckets {
 public:
  using Affine = AffinePoint<Curve>;
  using Xyzz = XyzzPoint<Curve>;

  void reset(std::size_t count) { buckets_.assign(count, Xyzz::infinity()); }

  void prefetch(std::uint32_t bucket) const { prefetch_for_write(buckets_[bucket]); }

  void add(std::uint32_t bucket, const Affine& point, bool negate) {
    buckets_[bucket] = buckets_[bucket].add_mixed(point, negate);
  }

  /// Σ_b (b + 1)·B_b over the first `used` buckets (the rest are empty), by running sums from the top.
  Xyzz reduce(std::size_t used) const {
    Xyzz running = Xyzz::infinity(), total = Xyzz::infinity();
    for (std::size_t b = used; b-- > 0;) {
      running = running + buckets_[b];
      total = total + running;
    }
    return total;
  }

 private:
  std::vector<Xyzz> buckets_;
};

/// A field's base field for the IFMA lanes: Fp2's Base, or the field itself.
template <class F, bool Extension>
struct IfmaBase {
  using type = F;
};
template <class F>
struct IfmaBase<F, true> {
  using type = typename F::Base;
};

/// Buckets from which AffineBuckets reduces in segments: below, the running sums' two XYZZ additions per
/// bucket cost less than the segments' inversions.
constexpr std::size_t kSegmentedReductionFrom = 256;

/// The segments of a reduction of `used` buckets (AffineBuckets::reduce_segmented): a power of two near
/// 4·sqrt(used), which balances its L = used / S inversions against its 3S XYZZ additions.
inline std::size_t affine_reduction_segments(std::size_t used) {
  return std::min<std::size_t>(
      std::bit_floor(static_cast<std::size_t>(4 * std::sqrt(static_cast<double>(used)))), used);
}

template <class Curve>
class AffineBuckets {
 public:
  using Affine = AffinePoint<Curve>;
  using Xyzz = XyzzPoint<Curve>;
  using Field = typename Curve::Field;

  /// `count` empty buckets, `batch` additions per shared inversion (at least 1).
  void reset(std::size_t count, std::size_t batch) {
    if (capacity_ < count) {
      // Left uninitialised: a bucket is read only once its state says it was written, so pages of buckets a
      // call never reaches (most of the XYZZ twins) are never touched.
      buckets_ = std::make_unique_for_overwrite<Affine[]>(count);
      spill_ = std::make_unique_for_overwrite<Xyzz[]>(count);
      capacity_ = count;
    }
    state_.assign(count, kEmpty);
    spill_used_.assign(count, 0);
    queue_.resize(batch);
    prefix_.resize(batch);
    batch_ = batch;
    max_deferred_ = batch - 1;
    deferred_.clear();
    deferred_.reserve(max_deferred_);
    queued_ = 0;
    stamp_ = kFirstStamp;
  }

  void prefetch(std::uint32_t bucket) const {
    __builtin_prefetch(&state_[bucket], 1, 3);
    prefetch_for_write(buckets_[bucket]);
  }

  void add(std::uint32_t bucket, const Affine& point, bool negate) {
    if (point.is_infinity()) return;
    const Affine signed_point{point.x, ::proofline::detail::conditional_negate(point.y, negate)};
    if (state_[bucket] == stamp_) {  // already queued in this batch: wait for the next one
      if (deferred_.size() < max_deferred_)
        deferred_.push_back(Deferred{signed_point, bucket});
      else
        spill(bucket, signed_point);
      return;
    }
    place(bucket, signed_point);
  }

  /// Whether slot `bucket` holds a point, and that point (valid once no batch is open).
  bool holds(std::uint32_t bucket) const { return state_[bucket] != kEmpty; }
  const Affine& bucket(std::uint32_t bucket) const { return buckets_[bucket]; }

  /// Completes the open batch and the points waiting for one, then Σ_b (b + 1)·B_b over the first `used`
  /// buckets.
  Xyzz reduce(std::size_t used) {
    flush_all();
    merge_spills(used);
    return used < kSegmentedReductionFrom ? reduce_running(used) : reduce_segmented(used);
  }

 private:
  // Bucket states: empty, full, or full and queued in the batch whose stamp it holds.
  static constexpr std::uint32_t kEmpty = 0, kFull = 1, kFirstStamp = 2;

  struct Queued {
    Affine point;  // the point to add, already negated when its digit said so
    std::uint32_t bucket;
    bool doubling;  // point equals the bucket: slope 3x² / 2y
  };
  struct Deferred {
    Affine point;  // already negated
    std::uint32_t bucket;
  };

  /// Adds a signed point to a bucket that is not queued in the open batch.
  void place(std::uint32_t bucket, const Affine& point) {
    std::uint32_t& state = state_[bucket];
    if (state == kEmpty) {
      buckets_[bucket] = point;
      state = kFull;
      return;
    }
    const Affine& current = buckets_[bucket];
    if (current.x == point.x) {
      // Same x: P + P (a doubling) or P + (−P) = O. A 2-torsion point (y = 0, not in G1 or G2) doubles to O.
      if (current.y == point.y && !point.y.is_zero()) {
        enqueue(bucket, point, true);
      } else {
        state = kEmpty;
      }
      return;
    }
    enqueue(bucket, point, false);
  }

  void flush_all() {
    while (queued_ != 0) flush(true);  // a flush may queue the points that waited for it
  }

  /// Σ_b (b + 1)·B_b by running sums from the top: two XYZZ additions per bucket.
  Xyzz reduce_running(std::size_t used) const {
    Xyzz running = Xyzz::infinity(), total = Xyzz::infinity();
    for (std::size_t b = used; b-- > 0;) {
      if (state_[b] != kEmpty) running = running.add_mixed(buckets_[b]);
      total = total + running;
    }
    return total;
  }

  /// Σ_b (b + 1)·B_b with the buckets cut into S segments of L (both powers of two): segment s holds buckets
  /// sL .. sL + L − 1, its running sum R_s and its weighted sum T_s = Σ_j (j + 1)·B_(sL + j) advance one
  /// bucket per step, every segment's two additions in one batch (slots R_s = s, T_s = S + s of `sums_`).
  /// Then Σ_b (b + 1)·B_b = Σ_s T_s + L·Σ_s s·R_s.
  Xyzz reduce_segmented(std::size_t used) {
    const std::size_t segments = affine_reduction_segments(used);
    const std::size_t length = std::bit_ceil((used + segments - 1) / segments);
    if (!sums_) sums_ = std::make_unique<AffineBuckets>();
    AffineBuckets& sums = *sums_;
    sums.reset(2 * segments, 2 * segments);
    const auto advance_weighted = [&] {  // T_s += R_s for every segment
      for (std::size_t s = 0; s < segments; ++s) {
        const auto r = static_cast<std::uint32_t>(s);
        if (sums.holds(r)) sums.add(static_cast<std::uint32_t>(segments + s), sums.bucket(r), false);
      }
    };
    for (std::size_t j = length; j-- > 0;) {
      advance_weighted();  // T_s takes R_s before this step's bucket: Σ over steps gives the weights j + 1
      for (std::size_t s = 0; s < segments; ++s) {
        const std::size_t b = s * length + j;
        if (b < used && state_[b] != kEmpty) sums.add(static_cast<std::uint32_t>(s), buckets_[b], false);
      }
      sums.flush_all();
    }
    advance_weighted();
    sums.flush_all();

    Xyzz weighted = Xyzz::infinity(), running = Xyzz::infinity(), total = Xyzz::infinity();
    for (std::size_t s = segments; s-- > 0;) {
      const auto r = static_cast<std::uint32_t>(s), t = static_cast<std::uint32_t>(segments + s);
      if (sums.holds(t)) total = total.add_mixed(sums.bucket(t));
      if (s == 0) break;
      if (sums.holds(r)) running = running.add_mixed(sums.bucket(r));
      weighted = weighted + running;  // Σ_s s·R_s
    }
    for (std::size_t k = length; k > 1 && !weighted.is_infinity(); k /= 2) weighted = weighted.dbl();
    return total + weighted;
  }

  /// Adds every XYZZ twin into its affine bucket: the twins in affine form with one shared inversion, then
  /// one batch (each bucket at most once).
  void merge_spills(std::size_t used) {
    spilled_.clear();
    for (std::size_t b = 0; b < used; ++b)
      if (spill_used_[b]) {
        spill_used_[b] = 0;
        if (!spill_[b].is_infinity()) spilled_.push_back(static_cast<std::uint32_t>(b));
      }
    if (spilled_.empty()) return;
    // 1/ZZ = ZZZ/(ZZ·ZZZ) and 1/ZZZ = ZZ/(ZZ·ZZZ): one inverse per twin, all of them from one inversion.
    prefix_.resize(std::max(prefix_.size(), spilled_.size()));
    Field product = Field::one();
    for (std::size_t i = 0; i < spilled_.size(); ++i) {
      prefix_[i] = product;
      const Xyzz& twin = spill_[spilled_[i]];
      product *= twin.zz * twin.zzz;
    }
    Field inverse = product.inverse();
    for (std::size_t i = spilled_.size(); i-- > 0;) {
      const Xyzz& twin = spill_[spilled_[i]];
      const Field zz_zzz = twin.zz * twin.zzz;
      const Field shared = inverse * prefix_[i];
      inverse *= zz_zzz;
      spill_[spilled_[i]] =
          Xyzz{twin.x * (shared * twin.zzz), twin.y * (shared * twin.zz), Field::one(), Field::one()};
    }
    for (const std::uint32_t b : spilled_) place(b, Affine{spill_[b].x, spill_[b].y});
    flush_all();
  }

  void spill(std::uint32_t bucket, const Affine& point) {
    if (spill_used_[bucket]) {
      spill_[bucket] = spill_[bucket].add_mixed(point);
    } else {
      spill_[bucket] = point.to_xyzz();
      spill_used_[bucket] = 1;
    }
  }

  void enqueue(std::uint32_t bucket, const Affine& point, bool doubling) {
    queue_[queued_] = Queued{point, bucket, doubling};
    state_[bucket] = stamp_;
    if (++queued_ == batch_) flush();
  }

  /// x2 − x1 for an addition, 2y for a doubling: never zero (see add).
  Field denominator(const Queued& entry) const {
    const Affine& current = buckets_[entry.bucket];
    return entry.doubling ? current.y.doubled() : entry.point.x - current.x;
  }

  /// Runs the open batch, then offers the points that waited for it to the next one. A waiting point whose
  /// bucket is queued again (by another waiting point) waits once more; in the last flushes of a task
  /// (`last`) it goes to the XYZZ twin instead, so that points piled on one bucket cost one batch each only
  /// while new points keep the batches full. Fewer points wait than a batch holds, so the retries never fill
  /// the next batch and flush again from inside this one.
  void flush(bool last = false) {
    if (queued_ == 0) return;
    if (!flush_with_ifma()) flush_scalar();
    queued_ = 0;
    if (++stamp_ == 0) {  // wrapped (after 2^32 batches): forget the old stamps
      for (std::uint32_t& state : state_) state = state == kEmpty ? kEmpty : kFull;
      stamp_ = kFirstStamp;
    }
    retry_.swap(deferred_);
    for (const Deferred& waiting : retry_) {
      if (state_[waiting.bucket] != stamp_)
        place(waiting.bucket, waiting.point);
      else if (last)
        spill(waiting.bucket, waiting.point);
      else
        deferred_.push_back(waiting);
    }
    retry_.clear();
  }

  /// The IFMA lanes' view of Field: a base field of 4 or 6 limbs (G1) or Fp2 over one (G2).
  struct IfmaView {
    static constexpr std::size_t degree = [] {
      if constexpr (requires {
                      Field::N;
                      Field::modulus;
                    })
        return Field::N == 4 || Field::N == 6 ? 1 : 0;
      else if constexpr (requires {
                           Field::Base::N;
                           Field::Base::modulus;
                         })
        return Field::Base::N == 4 || Field::Base::N == 6 ? 2 : 0;
      else
        return 0;
    }();
    using Base = typename IfmaBase<Field, degree == 2>::type;
    /// Component k of x (Base& or const Base&, as x is).
    template <class X>
    static auto& part(X& x, std::size_t k) {
      if constexpr (degree == 2)
        return k == 0 ? x.c0 : x.c1;
      else
        return x;
    }
  };

  /// Inverts eight elements in place with one inversion (Montgomery's trick).
  static void invert_eight(std::uint64_t* values) {
    if constexpr (IfmaView::degree != 0) {
      constexpr std::size_t n = IfmaView::Base::N, d = IfmaView::degree;
      Field elements[8], prefix[8];
      for (std::size_t k = 0; k < 8; ++k)
        for (std::size_t c = 0; c < d; ++c)
          for (std::size_t q = 0; q < n; ++q)
            IfmaView::part(elements[k], c).limb[q] = values[(k * d + c) * n + q];
      Field product = Field::one();
      for (std::size_t k = 0; k < 8; ++k) {
        prefix[k] = product;
        product *= elements[k];
      }
      Field inverse = product.inverse();
      for (std::size_t k = 8; k-- > 0;) {
        const Field element_inverse = inverse * prefix[k];
        inverse *= elements[k];
        for (std::size_t c = 0; c < d; ++c)
          for (std::size_t q = 0; q < n; ++q)
            values[(k * d + c) * n + q] = IfmaView::part(element_inverse, c).limb[q];
      }
    }
  }

  /// The batch eight additions at a time with AVX-512 IFMA where the CPU has it; false (nothing done) for
  /// other fields, CPUs, or a batch with a doubling in it.
  bool flush_with_ifma() {
    if constexpr (IfmaView::degree == 0) {
      return false;
    } else {
      if (!ifma_enabled()) return false;
      for (std::size_t i = 0; i < queued_; ++i)
        if (queue_[i].doubling) return false;
      constexpr std::size_t d = IfmaView::degree;
      BatchPoints points;
      points.degree = d;
      for (std::size_t xy = 0; xy < 2; ++xy)
        for (std::size_t c = 0; c < d; ++c) {
          auto& buckets = lanes_.bucket[xy][c];
          auto& queued = lanes_.point[xy][c];
          buckets.resize(queued_);
          queued.resize(queued_);
          for (std::size_t i = 0; i < queued_; ++i) {
            Affine& bucket = buckets_[queue_[i].bucket];
            const Affine& point = queue_[i].point;
            buckets[i] = IfmaView::part(xy == 0 ? bucket.x : bucket.y, c).limb;
            queued[i] = IfmaView::part(xy == 0 ? point.x : point.y, c).limb;
          }
          points.bucket[xy][c] = buckets.data();
          points.point[xy][c] = queued.data();
        }
      lanes_.scratch.resize(ifma_scratch_words(queued_, IfmaView::Base::N, d));
      static const IfmaModulus modulus = [] {
        IfmaModulus m;
        m.limbs64 = IfmaView::Base::N;
        for (std::size_t q = 0; q < IfmaView::Base::N; ++q) m.p[q] = IfmaView::Base::modulus.limb[q];
        return m;
      }();
      ifma_add_batch(modulus, points, queued_, &invert_eight, lanes_.scratch.data());
      return true;
    }
  }

  void flush_scalar() {
    Field product = Field::one();
    for (std::size_t i = 0; i < queued_; ++i) {
      prefix_[i] = product;
      product *= denominator(queue_[i]);
    }
    Field inverse = product.inverse();
    for (std::size_t i = queued_; i-- > 0;) {
      const Queued& entry = queue_[i];
      const Field d = denominator(entry);
      const Field d_inv = inverse * prefix_[i];
      inverse *= d;
      Affine& current = buckets_[entry.bucket];
      Field numerator;
      if (entry.doubling) {
        const Field x2 = current.x.squared();
        numerator = x2.doubled() + x2;
      } else {
        numerator = entry.point.y - current.y;
      }
      const Field lambda = numerator * d_inv;
      const Field x3 = lambda.squared() - current.x - entry.point.x;
      current.y = lambda * (current.x - x3) - current.y;
      current.x = x3;
    }
  }

  /// The IFMA flush's pointer lists and scratch, kept between batches.
  struct IfmaLanes {
    std::vector<std::uint64_t*> bucket[2][2];  // [x or y][component]
    std::vector<const std::uint64_t*> point[2][2];
    std::vector<std::uint64_t> scratch;
  };

  std::unique_ptr<Affine[]> buckets_;  // valid where state_ is not kEmpty
  std::size_t capacity_ = 0;
  std::vector<std::uint32_t> state_;
  std::unique_ptr<Xyzz[]> spill_;  // valid where spill_used_ is set
  std::vector<std::uint8_t> spill_used_;
  std::vector<Queued> queue_;
  std::vector<Field> prefix_;  // prefix_[i] = product of the denominators before entry i
  std::size_t batch_ = 1, queued_ = 0;
  std::uint32_t stamp_ = kFirstStamp;
  std::vector<Deferred> deferred_, retry_;  // points waiting for the next batch
  std::size_t max_deferred_ = 0;
  std::vector<std::uint32_t> spilled_;   // merge_spills' buckets
  std::unique_ptr<AffineBuckets> sums_;  // reduce_segmented's R_s and T_s
  IfmaLanes lanes_;
};

/// Σ points by pairwise affine additions, every level's additions sharing one inversion. Pairs P + P double,
/// pairs P + (−P) and infinity drop out; an odd point out and the last few points join an XYZZ sum. Leaves
/// `points` in an unspecified state.
template <class Curve>
XyzzPoint<Curve> batch_affine_sum(std::vector<AffinePoint<Curve>>& points) {
  using Affine = AffinePoint<Curve>;
  using Field = typename Curve::Field;
  enum class Pair { add, dbl, first, second, none };
  const auto classify = [](const Affine& a, const Affine& b) {
    if (a.is_infinity()) return b.is_infinity() ? Pair::none : Pair::second;
    if (b.is_infinity()) return Pair::first;
    if (a.x != b.x) return Pair::add;
    return a.y == b.y && !a.y.is_zero() ? Pair::dbl : Pair::none;
  };
  constexpr std::size_t kLeaf = 16;  // below this, an inversion costs more than it saves
  XyzzPoint<Curve> total = XyzzPoint<Curve>::infinity();
  std::vector<Affine> next;
  std::vector<Field> prefix;
  while (points.size() > kLeaf) {
    if (points.size() % 2) {
      total = total.add_mixed(points.back());
      points.pop_back();
    }
    const std::size_t pairs = points.size() / 2;
    prefix.resize(pairs);
    next.resize(pairs);
    Field product = Field::one();
    for (std::size_t i = 0; i < pairs; ++i) {
      const Affine &a = points[2 * i], &b = points[2 * i + 1];
      prefix[i] = product;
      const Pair kind = classify(a, b);
      if (kind == Pair::add) product *= b.x - a.x;
      if (kind == Pair::dbl) product *= a.y.doubled();
    }
    Field inverse = product.inverse();
    for (std::size_t i = pairs; i-- > 0;) {
      const Affine &a = points[2 * i], &b = points[2 * i + 1];
      const Pair kind = classify(a, b);
      if (kind != Pair::add && kind != Pair::dbl) {
        next[i] = kind == Pair::first ? a : kind == Pair::second ? b : Affine::infinity();
        continue;
      }
      Field numerator, d;
      if (kind == Pair::add) {
        d = b.x - a.x;
        numerator = b.y - a.y;
      } else {
        d = a.y.doubled();
        const Field x2 = a.x.squared();
        numerator = x2.doubled() + x2;
      }
      const Field lambda = numerator * (inverse * prefix[i]);
      inverse *= d;
      const Field x3 = lambda.squared() - a.x - b.x;
      next[i] = Affine{x3, lambda * (a.x - x3) - a.y};
    }
    points.clear();
    for (const Affine& p : next) {
      if (!p.is_infinity()) points.push_back(p);
    }
  }
  for (const Affine& p : points) total = total.add_mixed(p);
  return total;
}

}  // namespace proofline::cpu::detail
