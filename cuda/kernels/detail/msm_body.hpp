// Internal: the per-thread work of the GPU MSM (Pippenger with signed windows), written once for the CUDA
// kernels (cuda/kernels/msm_sort.cu, cuda/kernels/detail/msm_tail.cuh) and for the host emulation that the
// CPU tests run. Every body takes its thread coordinates explicitly; the kernels pass blockIdx/threadIdx, the
// tests loop.
//
// The phases, for n points P_i and scalars s_i in a field of b-bit modulus r (255 bits for BLS12-381, 254 for
// BN254), window width c, W = ceil(b / c) windows, digit magnitudes 1..B with B = 2^(c-1), and K = B + 1
// bucket slots per window (slot 0 stays empty, so a slot's index is its weight):
//  1. (Groth16 split only) classify: s = 0 is dropped, |s| = 1 (after the abs trick below) goes to the
//     list of "ones" that a batch addition sums, everything else to the list of "rest" indices.
//  2. digits: s becomes canonical; if s > (r-1)/2 it is replaced by r - s and the point negated (the abs
//     trick: s < 2^(b-1) afterwards). Booth recoding gives W signed digits in [-B, B] with no carries between
//     windows. Each nonzero digit counts one entry in its bucket (w, |d|).
//  3. an exclusive scan of the counts gives every bucket's range [starts[k], starts[k+1]) in one array of
//     entries; scatter writes each entry (point index | sign << 31) into its bucket's range (counting sort).
//     At large n it runs in passes over ranges of digit magnitudes, window by window within a pass, so that
//     the positions written at a time lie in a small part of the entry array, which the L2 cache holds until
//     their 32-byte sectors are whole (random 4-byte writes over the whole array leave partial sectors for
//     the memory to merge).
//  4. accumulate: thread t adds the entries [t L, t L + L) into XYZZ sums with mixed additions, so every
//     thread does the same work however skewed the buckets are. A bucket wholly inside the chunk is written
//     to its slot; one that starts in the chunk and runs past it leaves a "head" partial sum, and the chunk's
//     first bucket, when it started earlier, a "continuation" partial.
//  5. fixup: the thread that holds a bucket's head adds the continuations of the following threads (few, for
//     ordinary buckets); buckets spread over many threads (hot buckets) are listed and summed by a whole
//     block each.
//  6. reduce: per window, sum_k k·S_k by running sums over segments of m slots, level by level: a level turns
//     (X_j weighted by j, S_j plain) with Q = sum S_j + M sum j X_j into per-segment (A_g = sum X_j,
//     S'_g = sum S_j + M sum (j - g m) X_j), which keeps Q with M' = M m, until few values a window are
//     left; the tail then sums, per bit b of the index, the X_j with that bit set (Y_b), and the S_j, as
//     parallel block sums, and one thread per window takes Q = sum S_j + M sum_b 2^b Y_b by Horner.
//  7. combine: Horner over the windows (c doublings between them), plus the ones' sum, as a Jacobian point.
//
// Precomputed windows (fixed bases, MsmCommonArgs::precomputed): the points come as a table of W blocks of
// n points, block w holding 2^(c w)·P_i (block 0 the points themselves). Window w's digit of scalar i then
// selects point w n + i, and every window adds into one shared set of K bucket slots: the reduction runs
// once instead of W times and the combination needs no doublings, which makes wider windows (fewer of
// them, so fewer bucket additions) pay.
#pragma once

#include <cstdint>

#include <proofline/arith/bigint.hpp>
#include <proofline/arith/config.hpp>
#include <proofline/arith/curve.hpp>

namespace proofline::cuda::detail {

/// Bits of the scalar field's modulus: r < 2^255 for BLS12-381, r < 2^254 for BN254.
template <class F>
inline constexpr int kMsmScalarBits = static_cast<int>(F::modulus_bits);
inline constexpr std::uint32_t kSignBit = 0x80000000u;
inline constexpr std::uint32_t kIndexMask = 0x7fffffffu;
inline constexpr std::uint32_t kNoBucket = 0xffffffffu;
/// A bucket spread over more chunks than this is summed by a whole block (the hot fixup).
inline constexpr std::uint32_t kSerialFixupChunks = 16;

/// Windows needed for c-bit signed digits of scalars below r < 2^b (b = scalar_bits): after the abs trick
/// they are below 2^(b-1), so W c >= b keeps bit W c - 1 zero and the top window's Booth digit needs no carry
/// out.
PL_HD_INLINE constexpr int msm_windows(int window_bits, int scalar_bits) {
  return (scalar_bits + window_bits - 1) / window_bits;
}

/// Device-side counters of one MSM (zeroed at the start of each call).
struct MsmCounters {
  std::uint32_t rest = 0;  ///< scalars that go through Pippenger (split mode)
  std::uint32_t ones = 0;  ///< scalars that are +-1 (split mode)
  std::uint32_t hot = 0;   ///< buckets for the hot fixup
  std::uint32_t padding = 0;
};

/// Sizes and device pointers of one MSM call that do not depend on the group (the scalar, digit and sort
/// phases, compiled once per scalar field F). Plain data, passed to kernels by value.
template <class F>
struct MsmCommonArgs {
  std::uint32_t n = 0;                 ///< points and scalars
  int window_bits = 0;                 ///< c
  int windows = 0;                     ///< W
  std::uint32_t slots_per_window = 0;  ///< K = 2^(c-1) + 1
  std::uint32_t chunk = 0;             ///< L: entries per accumulate thread
  std::uint32_t chunk_threads = 0;     ///< ceil(W n / L): accumulate threads launched (capacity)
  bool montgomery = true;              ///< scalars in Montgomery form (else canonical integers < r)
  bool split = false;                  ///< Groth16 split of 0 / +-1 / rest
  bool precomputed = false;            ///< points are the table of W blocks of n; one shared bucket set
  int scatter_passes_log = 0;          ///< log2 of the scatter's passes over magnitude ranges (< c)

  const F* scalars = nullptr;

  MsmCounters* counters = nullptr;
  std::uint32_t* rest_index = nullptr;  ///< [n] split mode: scalar indices that go through Pippenger
  std::uint32_t* ones_entry = nullptr;  ///< [n] split mode: index | sign << 31 of the scalars that are +-1
  std::uint32_t* counts = nullptr;      ///< [W K + 1] entries per bucket (the last one stays zero)
  std::uint32_t* starts = nullptr;      ///< [W K + 1] exclusive scan of counts: starts[W K] = entries
  std::uint32_t* cursor = nullptr;      ///< [W K] scatter positions
  std::uint32_t* digits = nullptr;      ///< [W n] per window and item: |d| | sign << 31, 0 for no entry
  std::uint32_t* entries = nullptr;     ///< [W n] sorted by bucket: point index | sign << 31
  std::uint32_t* head_bucket =
      nullptr;                        ///< [chunk_threads] bucket of the thread's head partial, or kNoBucket
  std::uint32_t* hot_list = nullptr;  ///< [chunk_threads] threads whose head bucket is hot

  /// Items that go through the digit and scatter phases: n, or (split) the count that classify left.
  PL_HD_INLINE std::uint32_t item_count() const { return split ? counters->rest : n; }
  /// Windows with their own bucket set: W, or one when the windows share it (precomputed).
  PL_HD_INLINE std::uint32_t bucket_windows() const {
    return precomputed ? 1u : static_cast<std::uint32_t>(windows);
  }
  PL_HD_INLINE std::uint32_t bucket_slots() const { return bucket_windows() * slots_per_window; }
  /// The bucket slot of digit magnitude m (1..B) in window w.
  PL_HD_INLINE std::uint32_t bucket_of_digit(int w, std::uint32_t magnitude) const {
    return (precomputed ? 0u : static_cast<std::uint32_t>(w) * slots_per_window) + magnitude;
  }
  /// The point that window w of scalar `index` adds: the scalar's own, or its 2^(c w) multiple's in the
  /// table.
  PL_HD_INLINE std::uint32_t point_of_digit(int w, std::uint32_t index) const {
    return precomputed ? static_cast<std::uint32_t>(w) * n + index : index;
  }
};

/// The group-dependent part: the points, bucket sums and partial sums.
template <class Curve>
struct MsmArgs : MsmCommonArgs<typename Curve::Scalar> {
  const AffinePoint<Curve>* points = nullptr;
  XyzzPoint<Curve>* buckets = nullptr;  ///< [W K] bucket sums (valid where counts[k] != 0)
  XyzzPoint<Curve>* head = nullptr;     ///< [chunk_threads]
  XyzzPoint<Curve>* cont = nullptr;     ///< [chunk_threads]
};

// ---- scalars -------------------------------------------------------------------------------------------

/// The canonical integer of a scalar and whether the abs trick negated it (then the result is r - s <
/// 2^(b-1)).
struct AbsScalar {
  BigInt<4> value;
  bool negate = false;
};

template <class F>
PL_HD_INLINE AbsScalar abs_scalar(const F& scalar, bool montgomery) {
  static_assert(F::N == 4, "the digit code reads scalars of four 64-bit limbs");
  AbsScalar out;
  out.value = montgomery ? scalar.canonical() : scalar.montgomery();
  constexpr BigInt<4> r = F::modulus;
  constexpr BigInt<4> half = [] {
    BigInt<4> h = F::modulus;
    h.shift_right_1();  // (r - 1) / 2, r odd
    return h;
  }();
  if (half < out.value) {
    BigInt<4> negated = r;
    negated.sub_in_place(out.value);
    out.value = negated;
    out.negate = true;
  }
  return out;
}

/// Booth digit of window w: bits [w c - 1, w c + c - 1] of the scalar (bit -1 is 0) give
/// d = window + (bit w c - 1) - 2^c (top bit of the window), in [-2^(c-1), 2^(c-1)]; sum_w 2^(w c) d_w = s
/// when bit W c - 1 of s is 0.
PL_HD_INLINE int booth_digit(const BigInt<4>& value, int window, int window_bits) {
  const std::uint32_t bits = window == 0 ? value.bits(0, window_bits) << 1
                                         : value.bits(static_cast<std::size_t>(window * window_bits - 1),
                                                      static_cast<std::size_t>(window_bits + 1));
  return static_cast<int>((bits + 1) >> 1) - static_cast<int>((bits >> window_bits) << window_bits);
}

enum class ScalarClass : std::uint8_t { zero, one, rest };

/// Split mode: what happens to scalar i; for +-1 the entry (index | sign) goes to the ones list.
template <class F>
PL_HD_INLINE ScalarClass classify_scalar(const F& scalar, bool montgomery, std::uint32_t index,
                                         std::uint32_t& ones_entry) {
  const AbsScalar s = abs_scalar(scalar, montgomery);
  if (s.value.is_zero()) return ScalarClass::zero;
  if (s.value == BigInt<4>::from_u64(1)) {
    ones_entry = index | (s.negate ? kSignBit : 0u);
    return ScalarClass::one;
  }
  return ScalarClass::rest;
}

// ---- full additions and doublings ------------------------------------------------------------------------

// Outside the accumulate and ones loops the full XYZZ addition and the doubling are rare, so on the device
// they are out-of-line functions: one copy per kernel file instead of one inlined per call site (code size,
// compile time and register pressure; the call costs little next to 14 multiplications). The hot loops keep
// the inlined mixed addition.
#if defined(__CUDACC__)
template <class Curve>
__device__ __noinline__ void device_point_add(XyzzPoint<Curve>* out, const XyzzPoint<Curve>* p,
                                              const XyzzPoint<Curve>* q) {
  *out = *p + *q;
}
template <class Curve>
__device__ __noinline__ void device_point_dbl(XyzzPoint<Curve>* out, const XyzzPoint<Curve>* p) {
  *out = p->dbl();
}
#endif

template <class Curve>
PL_HD_INLINE XyzzPoint<Curve> point_add(const XyzzPoint<Curve>& p, const XyzzPoint<Curve>& q) {
#if defined(__CUDA_ARCH__)
  XyzzPoint<Curve> out;
  device_point_add(&out, &p, &q);
  return out;
#else
  return p + q;
#endif
}

template <class Curve>
PL_HD_INLINE XyzzPoint<Curve> point_dbl(const XyzzPoint<Curve>& p) {
#if defined(__CUDA_ARCH__)
  XyzzPoint<Curve> out;
  device_point_dbl(&out, &p);
  return out;
#else
  return p.dbl();
#endif
}

// ---- bucket additions ------------------------------------------------------------------------------------

/// acc += (negate ? -q : q): madd-2008-s as in XyzzPoint::add_mixed, with the rare cases as branches instead
/// of whole-point selects (the accumulate loop's instructions are the MSM's cost). An infinity q adds
/// nothing, an empty acc (a bucket's first point, or after P + (-P)) becomes q, P == Q doubles, P == -Q
/// empties acc.
template <class Curve>
PL_HD_INLINE void bucket_add(XyzzPoint<Curve>& acc, const AffinePoint<Curve>& q, bool negate) {
  using Field = typename Curve::Field;
  if (q.is_infinity()) return;
  const Field qy = proofline::detail::conditional_negate(q.y, negate);
  if (acc.zz.is_zero()) {
    constexpr Field one = Field::one();
    acc = XyzzPoint<Curve>{q.x, qy, one, one};
    return;
  }
  const Field u2 = q.x * acc.zz;
  const Field s2 = qy * acc.zzz;
  const Field p = u2 - acc.x;
  const Field r = s2 - acc.y;
  if (p.is_zero()) {
    acc = r.is_zero() ? XyzzPoint<Curve>::dbl_affine(AffinePoint<Curve>{q.x, qy})
                      : XyzzPoint<Curve>::infinity();
    return;
  }
  const Field pp = p.squared();
  const Field ppp = p * pp;
  const Field q_term = acc.x * pp;
  const Field x3 = r.squared() - ppp - q_term.doubled();
  acc.y = proofline::detail::product_difference(r, q_term - x3, acc.y, ppp);  // one reduction, not two
  acc.x = x3;
  acc.zz = acc.zz * pp;
  acc.zzz = acc.zzz * ppp;
}

// ---- atomics (the host emulation runs sequentially) -----------------------------------------------------

PL_HD_INLINE std::uint32_t fetch_add(std::uint32_t* target, std::uint32_t value) {
#if defined(__CUDA_ARCH__)
  return atomicAdd(target, value);
#else
  const std::uint32_t old = *target;
  *target = old + value;
  return old;
#endif
}

// ---- digits, counting sort -------------------------------------------------------------------------------

/// Item j (< item_count): its W digits and their bucket counts.
template <class F>
PL_HD_INLINE void digits_body(const MsmCommonArgs<F>& a, std::uint32_t j) {
  const std::uint32_t index = a.split ? a.rest_index[j] : j;
  const AbsScalar s = abs_scalar(a.scalars[index], a.montgomery);
  for (int w = 0; w < a.windows; ++w) {
    const int d = booth_digit(s.value, w, a.window_bits);
    const std::uint32_t magnitude = static_cast<std::uint32_t>(d < 0 ? -d : d);
    const bool negative = (d < 0) != s.negate;
    std::uint32_t code = 0;
    if (magnitude != 0) {
      code = magnitude | (negative ? kSignBit : 0u);
      fetch_add(&a.counts[a.bucket_of_digit(w, magnitude)], 1u);
    }
    a.digits[static_cast<std::size_t>(w) * a.n + j] = code;
  }
}

/// Item j of window w in scatter pass `pass`: if its digit's magnitude falls in the pass's range, its entry
/// goes to the next free position of its bucket.
template <class F>
PL_HD_INLINE void scatter_body(const MsmCommonArgs<F>& a, std::uint32_t j, int w, std::uint32_t pass) {
  const std::uint32_t code = a.digits[static_cast<std::size_t>(w) * a.n + j];
  const int range_bits = a.window_bits - 1 - a.scatter_passes_log;  // magnitudes 1..2^(c-1), 2^log ranges
  if (code == 0 || ((code & kIndexMask) - 1) >> range_bits != pass) return;
  const std::uint32_t bucket = a.bucket_of_digit(w, code & kIndexMask);
  const std::uint32_t position = fetch_add(&a.cursor[bucket], 1u);
  const std::uint32_t index = a.split ? a.rest_index[j] : j;
  a.entries[position] = a.point_of_digit(w, index) | (code & kSignBit);
}

// ---- accumulation ----------------------------------------------------------------------------------------

/// The bucket whose range holds entry position p: the largest k with starts[k] <= p (a nonempty bucket, since
/// starts[k + 1] > p). starts has `slots` + 1 entries, nondecreasing.
PL_HD_INLINE std::uint32_t bucket_of(const std::uint32_t* starts, std::uint32_t slots,
                                     std::uint32_t position) {
  std::uint32_t lo = 0, hi = slots;  // invariant: starts[lo] <= position < starts[hi]
  while (hi - lo > 1) {
    const std::uint32_t mid = lo + (hi - lo) / 2;
    if (starts[mid] <= position) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo;
}

/// Accumulate thread t: entries [t L, min(t L + L, total)), summed in `acc` (a local, or the thread's slot in
/// shared memory where the kernel keeps the sums there).
template <class Curve>
PL_HD_INLINE void accumulate_body(const MsmArgs<Curve>& a, std::uint32_t t, XyzzPoint<Curve>& acc) {
  using Xyzz = XyzzPoint<Curve>;
  const std::uint32_t slots = a.bucket_slots();
  const std::uint32_t total = a.starts[slots];
  const std::uint64_t lo64 = static_cast<std::uint64_t>(t) * a.chunk;
  std::uint32_t head_bucket = kNoBucket;
  if (lo64 < total) {
    const std::uint32_t lo = static_cast<std::uint32_t>(lo64);
    const std::uint32_t hi = total - lo < a.chunk ? total : lo + a.chunk;
    std::uint32_t bucket = bucket_of(a.starts, slots, lo);
    std::uint32_t begin = a.starts[bucket], end = a.starts[bucket + 1];
    acc = Xyzz::infinity();
    for (std::uint32_t p = lo;; ++p) {
      if (p == end || p == hi) {
        // The bucket [begin, end) ends here or the chunk does: its sum so far goes where it belongs.
        if (begin < lo) {
          a.cont[t] = acc;
        } else if (end <= hi) {
          a.buckets[bucket] = acc;
        } else {
          a.head[t] = acc;
          head_bucket = bucket;
        }
        if (p == hi) break;
        bucket = a.starts[bucket + 2] > p ? bucket + 1 : bucket_of(a.starts, slots, p);
        begin = a.starts[bucket];
        end = a.starts[bucket + 1];
        acc = Xyzz::infinity();
      }
      const std::uint32_t entry = a.entries[p];
      bucket_add(acc, a.points[entry & kIndexMask], (entry & kSignBit) != 0);
    }
  }
  a.head_bucket[t] = head_bucket;
}

template <class Curve>
PL_HD_INLINE void accumulate_body(const MsmArgs<Curve>& a, std::uint32_t t) {
  XyzzPoint<Curve> acc;
  accumulate_body(a, t, acc);
}

/// The last accumulate thread whose chunk holds a position of bucket k (k nonempty).
template <class F>
PL_HD_INLINE std::uint32_t last_chunk_of(const MsmCommonArgs<F>& a, std::uint32_t bucket) {
  return (a.starts[bucket + 1] - 1) / a.chunk;
}

/// Fixup thread t: if t holds a head partial, add the following threads' continuations (or list the bucket
/// as hot when they are many).
template <class Curve>
PL_HD_INLINE void fixup_body(const MsmArgs<Curve>& a, std::uint32_t t) {
  const std::uint32_t bucket = a.head_bucket[t];
  if (bucket == kNoBucket) return;
  const std::uint32_t last = last_chunk_of(a, bucket);
  if (last - t > kSerialFixupChunks) {
    a.hot_list[fetch_add(&a.counters->hot, 1u)] = t;
    return;
  }
  XyzzPoint<Curve> acc = a.head[t];
  for (std::uint32_t u = t + 1; u <= last; ++u) acc = point_add(acc, a.cont[u]);
  a.buckets[bucket] = acc;
}

/// Hot bucket h, lane `lane` of `lanes`: the lane's strided share of the continuations (lane 0 also takes the
/// head). The block then sums the lanes and stores the bucket (see store_hot).
template <class Curve>
PL_HD_INLINE XyzzPoint<Curve> hot_lane_sum(const MsmArgs<Curve>& a, std::uint32_t h, std::uint32_t lane,
                                           std::uint32_t lanes) {
  const std::uint32_t t = a.hot_list[h];
  const std::uint32_t last = last_chunk_of(a, a.head_bucket[t]);
  XyzzPoint<Curve> acc = lane == 0 ? a.head[t] : XyzzPoint<Curve>::infinity();
  for (std::uint32_t u = t + 1 + lane; u <= last; u += lanes) acc = point_add(acc, a.cont[u]);
  return acc;
}
template <class Curve>
PL_HD_INLINE void store_hot(const MsmArgs<Curve>& a, std::uint32_t h, const XyzzPoint<Curve>& sum) {
  a.buckets[a.head_bucket[a.hot_list[h]]] = sum;
}

// ---- the Groth16 ones ------------------------------------------------------------------------------------

/// Thread `thread` of `threads`: its strided share of the +-1 entries, summed in `acc` (a local, or the
/// thread's slot in shared memory where the kernel keeps the sums there).
template <class Curve>
PL_HD_INLINE void ones_thread_sum(const MsmArgs<Curve>& a, std::uint32_t thread, std::uint32_t threads,
                                  XyzzPoint<Curve>& acc) {
  acc = XyzzPoint<Curve>::infinity();
  const std::uint32_t count = a.counters->ones;
  for (std::uint32_t j = thread; j < count; j += threads) {
    const std::uint32_t entry = a.ones_entry[j];
    bucket_add(acc, a.points[entry & kIndexMask], (entry & kSignBit) != 0);
  }
}

template <class Curve>
PL_HD_INLINE XyzzPoint<Curve> ones_thread_sum(const MsmArgs<Curve>& a, std::uint32_t thread,
                                              std::uint32_t threads) {
  XyzzPoint<Curve> acc;
  ones_thread_sum(a, thread, threads, acc);
  return acc;
}

// ---- bucket reduction ------------------------------------------------------------------------------------

/// One level of the weighted reduction for window w, segment g: inputs x (weighted by index within the
/// window) and s (plain; null at the first level), `in_per_window` values per window, `x_present` (first
/// level: the bucket counts; an empty bucket reads as infinity) and the scale M = 2^log_scale; outputs a[g] =
/// sum x_j and s'[g] = sum s_j + M sum (j - g m) x_j over j in [g m, g m + m).
struct ReduceLevel {
  std::uint32_t in_per_window = 0;
  std::uint32_t out_per_window = 0;
  std::uint32_t segment = 0;  ///< m
  int log_scale = 0;          ///< log2 M
};

template <class Curve, bool with_plain>
PL_HD_INLINE void reduce_body(const ReduceLevel& level, const XyzzPoint<Curve>* x,
                              const std::uint32_t* x_present, const XyzzPoint<Curve>* s,
                              XyzzPoint<Curve>* a_out, XyzzPoint<Curve>* s_out, std::uint32_t w,
                              std::uint32_t g) {
  using Xyzz = XyzzPoint<Curve>;
  const std::size_t base = static_cast<std::size_t>(w) * level.in_per_window;
  const std::uint32_t lo = g * level.segment;
  const std::uint32_t hi =
      level.in_per_window - lo < level.segment ? level.in_per_window : lo + level.segment;
  Xyzz sum = Xyzz::infinity(), weighted = Xyzz::infinity(), plain = Xyzz::infinity();
  for (std::uint32_t j = hi; j-- > lo;) {
    weighted = point_add(weighted, sum);  // before adding x_j: x_j gets weight j - lo
    if (x_present == nullptr || x_present[base + j] != 0) sum = point_add(sum, x[base + j]);
    if constexpr (with_plain) plain = point_add(plain, s[base + j]);
  }
  for (int i = 0; i < level.log_scale; ++i) weighted = point_dbl(weighted);
  const std::size_t out = static_cast<std::size_t>(w) * level.out_per_window + g;
  a_out[out] = sum;
  s_out[out] = with_plain ? point_add(plain, weighted) : weighted;
}

/// The reduction's tail, once few values are left a window: the same Q = sum s_j + M sum_j j x_j over j <
/// in_per_window, but sum_j j x_j = sum_b 2^b Y_b with Y_b the sum of the x_j whose index has bit b set. The
/// Y_b and the plain sum are independent block-wide sums (rows 0..bits-1 and row `bits`), and one thread per
/// window finishes with Horner: a serial depth of about log2(in / lanes) + log2(lanes) + 2 bits + log2 M
/// additions and doublings, where a chain of levels runs 3 m additions (plus the scale's doublings) per
/// level.
struct ReduceTail {
  std::uint32_t in_per_window = 0;
  int bits = 0;       ///< weights j < 2^bits
  int log_scale = 0;  ///< log2 M
  PL_HD_INLINE std::uint32_t rows() const { return static_cast<std::uint32_t>(bits) + 1; }
};

/// Lane `lane` of `lanes`: its strided share of row `row` of window w (Y_row, or the plain sum for row ==
/// bits; s may be null: no plain values, before any level ran). x_present as for a level.
template <class Curve>
PL_HD_INLINE XyzzPoint<Curve> tail_lane_sum(const ReduceTail& tail, const XyzzPoint<Curve>* x,
                                            const std::uint32_t* x_present, const XyzzPoint<Curve>* s,
                                            std::uint32_t w, std::uint32_t row, std::uint32_t lane,
                                            std::uint32_t lanes) {
  using Xyzz = XyzzPoint<Curve>;
  const std::size_t base = static_cast<std::size_t>(w) * tail.in_per_window;
  Xyzz acc = Xyzz::infinity();
  if (row == static_cast<std::uint32_t>(tail.bits)) {
    if (s != nullptr)
      for (std::uint32_t j = lane; j < tail.in_per_window; j += lanes) acc = point_add(acc, s[base + j]);
    return acc;
  }
  // The k-th index with bit `row` set: k's bits below `row`, then the set bit, then k's higher bits.
  const std::uint32_t low = (std::uint32_t{1} << row) - 1;
  for (std::uint32_t k = lane;; k += lanes) {
    const std::uint32_t j = ((k & ~low) << 1) | (std::uint32_t{1} << row) | (k & low);
    if (j >= tail.in_per_window) break;
    if (x_present == nullptr || x_present[base + j] != 0) acc = point_add(acc, x[base + j]);
  }
  return acc;
}

/// Window w's value from its rows (Y_0..Y_{bits-1}, plain): plain + M sum_b 2^b Y_b.
template <class Curve>
PL_HD_INLINE XyzzPoint<Curve> tail_finish(const ReduceTail& tail, const XyzzPoint<Curve>* rows) {
  XyzzPoint<Curve> acc = tail.bits > 0 ? rows[tail.bits - 1] : XyzzPoint<Curve>::infinity();
  for (int b = tail.bits - 2; b >= 0; --b) acc = point_add(point_dbl(acc), rows[b]);
  for (int i = 0; i < tail.log_scale; ++i) acc = point_dbl(acc);
  return point_add(acc, rows[tail.bits]);
}

/// Horner over the window values (one per window, window 0 first) plus the ones' sum (or null). One thread
/// does (W - 1) c doublings in a row, so they are Jacobian (dbl-2009-l, 2M + 5S) rather than XYZZ (6M + 3S).
template <class Curve>
PL_HD_INLINE JacobianPoint<Curve> combine_windows(const XyzzPoint<Curve>* window_values, int windows,
                                                  int window_bits, const XyzzPoint<Curve>* ones) {
  JacobianPoint<Curve> acc = window_values[windows - 1].to_jacobian();
  for (int w = windows - 2; w >= 0; --w) {
    for (int i = 0; i < window_bits; ++i) acc = acc.dbl();
    acc = acc + window_values[w].to_jacobian();
  }
  if (ones != nullptr) acc = acc + ones->to_jacobian();
  return acc;
}

}  // namespace proofline::cuda::detail
