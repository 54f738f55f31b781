// The NTT's networks on AVX-512 IFMA lanes (detail/ntt_ifma.hpp): ntt.cpp's level structure with eight
// butterflies an instruction.
//
// Mapping levels to lanes. A level pass of R levels splits into groups of 2^R elements at stride q (ntt.cpp);
// groups g .. g + 7 of one block are adjacent in memory (element offsets g .. g + 7 at every stride step) and
// share their twiddles, so while q >= 8 the eight lanes are eight consecutive groups: row t of the lanes is
// eight consecutive elements, loaded as four 64-byte words and transposed into 52-bit limbs, and every
// twiddle is a broadcast. That covers all levels but the last three, whose half-spans 4, 2 and 1 lie within a
// row. Those run on tiles of 64 elements transposed the other way: lane i holds the eight elements 8 i .. 8 i
// + 7 of the tile, row t element 8 i + t, so the butterflies pair rows again and each lane has its own
// twiddles (lane i's block at level k − 3 + d is (8·tile + i)·2^d + lb: runs of 2^d consecutive table
// entries, loaded with the same transposition).
//
// Memory. As in ntt.cpp, the levels above the cache blocks go kTopRadixLog per pass, and each cache block of
// 2^kBlockLog elements runs the rest while resident, kInnerRadixLog levels per pass and then its tiles.
// Values stay below 2p between butterflies (twiddles and scales below p, so every product stays below 2p for
// both fields) and are reduced below p where they are stored.
#include <proofline/cpu/detail/ntt_ifma.hpp>

#include <algorithm>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <proofline/cpu/detail/ifma_lanes.hpp>
#include <proofline/util/error.hpp>

namespace proofline::cpu::detail {

#if defined(__x86_64__)

namespace {

constexpr unsigned kBlockLog = 13;      // 2^13 Fr = 256 KiB: a cache block stays in L2
constexpr unsigned kTopRadixLog = 4;    // levels per pass over memory above the cache blocks
constexpr unsigned kInnerRadixLog = 3;  // levels per pass inside a cache block, above the tiles
constexpr unsigned kTileLog = 6;        // 64 elements: eight lanes of eight
constexpr std::size_t kTaskElements = std::size_t{1} << 12;  // elements per TBB task in streaming passes

constexpr int kWords = 4;  // 64-bit words per element
constexpr int kLimbs = 5;  // 52-bit limbs per element in the lanes
using Field = ifma::Lanes<kWords, kLimbs>;
using V = ifma::Vec<kLimbs>;

// ---- moving elements between memory and the lanes ------------------------------------------------------

/// 64-bit index vector from its lanes 0 .. 7.
PL_IFMA_INLINE __m512i indices(long long l0, long long l1, long long l2, long long l3, long long l4,
                               long long l5, long long l6, long long l7) {
  return _mm512_set_epi64(l7, l6, l5, l4, l3, l2, l1, l0);
}

/// Eight consecutive elements (32 words at `at`): lane e gets element e.
PL_IFMA_INLINE V load_row(const std::uint64_t* at) {
  // Each 64-byte word holds two elements; gather word q of four elements, then of eight.
  const __m512i even = indices(0, 4, 8, 12, 1, 5, 9, 13), odd = indices(2, 6, 10, 14, 3, 7, 11, 15);
  const __m512i z0 = _mm512_loadu_si512(at), z1 = _mm512_loadu_si512(at + 8);
  const __m512i z2 = _mm512_loadu_si512(at + 16), z3 = _mm512_loadu_si512(at + 24);
  const __m512i a = _mm512_permutex2var_epi64(z0, even, z1), b = _mm512_permutex2var_epi64(z0, odd, z1);
  const __m512i c = _mm512_permutex2var_epi64(z2, even, z3), d = _mm512_permutex2var_epi64(z2, odd, z3);
  const __m512i w[kWords] = {_mm512_shuffle_i64x2(a, c, 0x44), _mm512_shuffle_i64x2(a, c, 0xEE),
                             _mm512_shuffle_i64x2(b, d, 0x44), _mm512_shuffle_i64x2(b, d, 0xEE)};
  return ifma::from_words<kWords, kLimbs>(w);
}

/// The inverse of load_row, for values below 2^256.
PL_IFMA_INLINE void store_row(std::uint64_t* at, const V& x) {
  __m512i w[kWords];
  ifma::to_word_vectors<kWords, kLimbs>(x, w);
  const __m512i even = indices(0, 4, 8, 12, 1, 5, 9, 13), odd = indices(2, 6, 10, 14, 3, 7, 11, 15);
  const __m512i a = _mm512_shuffle_i64x2(w[0], w[1], 0x44), c = _mm512_shuffle_i64x2(w[0], w[1], 0xEE);
  const __m512i b = _mm512_shuffle_i64x2(w[2], w[3], 0x44), d = _mm512_shuffle_i64x2(w[2], w[3], 0xEE);
  _mm512_storeu_si512(at, _mm512_permutex2var_epi64(a, even, b));
  _mm512_storeu_si512(at + 8, _mm512_permutex2var_epi64(a, odd, b));
  _mm512_storeu_si512(at + 16, _mm512_permutex2var_epi64(c, even, d));
  _mm512_storeu_si512(at + 24, _mm512_permutex2var_epi64(c, odd, d));
}

/// One element in every lane.
PL_IFMA_INLINE V broadcast(const std::uint64_t* element) {
  V out;
  for (int j = 0; j < kLimbs; ++j)
    out.v[j] =
        _mm512_set1_epi64(static_cast<long long>(ifma::limb52(element, kWords, static_cast<std::size_t>(j))));
  return out;
}

/// Rows r[0 .. 7] as columns: r[t] lane i <- r[i] lane t.
PL_IFMA_INLINE void transpose8(__m512i* r) {
  __m512i t[8], u[8];
  for (int k = 0; k < 4; ++k) {
    t[2 * k] = _mm512_unpacklo_epi64(r[2 * k], r[2 * k + 1]);      // columns 0, 2, 4, 6 of rows 2k, 2k + 1
    t[2 * k + 1] = _mm512_unpackhi_epi64(r[2 * k], r[2 * k + 1]);  // columns 1, 3, 5, 7
  }
  const __m512i low = indices(0, 1, 8, 9, 4, 5, 12, 13), high = indices(2, 3, 10, 11, 6, 7, 14, 15);
  for (int k = 0; k < 2; ++k) {
    // Four rows 4k .. 4k + 3: u[4k] columns 0 and 4, u[4k + 1] 2 and 6, u[4k + 2] 1 and 5, u[4k + 3] 3 and 7.
    u[4 * k] = _mm512_permutex2var_epi64(t[4 * k], low, t[4 * k + 2]);
    u[4 * k + 1] = _mm512_permutex2var_epi64(t[4 * k], high, t[4 * k + 2]);
    u[4 * k + 2] = _mm512_permutex2var_epi64(t[4 * k + 1], low, t[4 * k + 3]);
    u[4 * k + 3] = _mm512_permutex2var_epi64(t[4 * k + 1], high, t[4 * k + 3]);
  }
  constexpr int from[4] = {0, 2, 1, 3};  // u index of columns (c, c + 4), c = 0 .. 3
  for (int col = 0; col < 4; ++col) {
    r[col] = _mm512_shuffle_i64x2(u[from[col]], u[4 + from[col]], 0x44);
    r[col + 4] = _mm512_shuffle_i64x2(u[from[col]], u[4 + from[col]], 0xEE);
  }
}

/// 8 runs of `Run` elements (8 Run elements at `at`, Run even), one run a lane: x[t] lane i gets element
/// Run i + t. With Run = 8, a tile.
template <int Run>
PL_IFMA_INLINE void load_runs(const std::uint64_t* at, V* x) {
  for (int k = 0; k < Run / 2; ++k) {
    // Lane i of words[..] holds elements Run i + 2k and Run i + 2k + 1: one 64-byte word of each lane's run.
    __m512i words[8];
    for (int i = 0; i < 8; ++i) words[i] = _mm512_loadu_si512(at + kWords * Run * i + 8 * k);
    transpose8(words);
    x[2 * k] = ifma::from_words<kWords, kLimbs>(words);
    x[2 * k + 1] = ifma::from_words<kWords, kLimbs>(words + 4);
  }
}

/// The inverse of load_runs<8>, for values below 2^256.
PL_IFMA_INLINE void store_tile(std::uint64_t* at, const V* x) {
  for (int k = 0; k < 4; ++k) {
    __m512i words[8];
    ifma::to_word_vectors<kWords, kLimbs>(x[2 * k], words);
    ifma::to_word_vectors<kWords, kLimbs>(x[2 * k + 1], words + 4);
    transpose8(words);
    for (int i = 0; i < 8; ++i) _mm512_storeu_si512(at + kWords * 8 * i + 8 * k, words[i]);
  }
}

// ---- butterflies -----------------------------------------------------------------------------------------

PL_IFMA_INLINE V reduced(const Field& f, const V& x) {
  return ifma::subtract_if_not_below(x, f.p);
}

/// R levels on the rows x[0 .. 2^R), as ntt.cpp's butterfly_group: w[(1 << d) − 1 + lb] is the twiddle of
/// local block lb at local level d, and `unit` skips the products of the first local block (twiddle 1).
template <IfmaNetwork kind, unsigned R>
PL_IFMA_INLINE void butterflies(const Field& f, V* x, const V* w, bool unit) {
  constexpr unsigned S = 1u << R;
  if constexpr (kind == IfmaNetwork::ct) {
    for (unsigned d = 0; d < R; ++d) {
      const unsigned h = S >> (d + 1);
      for (unsigned lb = 0; lb < (1u << d); ++lb) {
        const V& z = w[(1u << d) - 1 + lb];
        const bool one = unit && lb == 0;
        for (unsigned u = 2 * h * lb; u < 2 * h * lb + h; ++u) {
          const V y = one ? x[u + h] : ifma::mul(f, x[u + h], z);
          x[u + h] = ifma::sub(f, x[u], y);
          x[u] = ifma::add(f, x[u], y);
        }
      }
    }
  } else {
    for (unsigned d = R; d-- > 0;) {
      const unsigned h = S >> (d + 1);
      for (unsigned lb = 0; lb < (1u << d); ++lb) {
        const V& z = w[(1u << d) - 1 + lb];
        const bool one = unit && lb == 0;
        for (unsigned u = 2 * h * lb; u < 2 * h * lb + h; ++u) {
          const V diff = ifma::sub(f, x[u], x[u + h]);
          x[u] = ifma::add(f, x[u], x[u + h]);
          x[u + h] = one ? diff : ifma::mul(f, diff, z);
        }
      }
    }
  }
}

/// Levels [level, level + R) for groups [g_begin, g_end) of that pass (multiples of 8, q = span >> R >= 8),
/// eight consecutive groups at a time.
template <IfmaNetwork kind, unsigned R>
PL_IFMA_TARGET void row_groups(const Field& f, std::uint64_t* values, unsigned log_n, unsigned level,
                               const std::uint64_t* twiddles, std::size_t g_begin, std::size_t g_end,
                               const std::uint64_t* scale) {
  constexpr unsigned S = 1u << R;
  const unsigned log_q = log_n - level - R;
  const std::size_t q = std::size_t{1} << log_q;
  const V factor = scale != nullptr ? broadcast(scale) : V{};
  V w[S - 1];
  for (std::size_t g = g_begin; g < g_end;) {
    const std::size_t block = g >> log_q;
    const std::size_t block_end = std::min(g_end, (block + 1) << log_q);
    for (unsigned d = 0; d < R; ++d) {
      for (std::size_t lb = 0; lb < (std::size_t{1} << d); ++lb)
        w[(1u << d) - 1 + lb] = broadcast(twiddles + kWords * ((block << d) + lb));
    }
    std::uint64_t* block_base = values + kWords * (block << (log_n - level));
    for (; g < block_end; g += 8) {
      std::uint64_t* base = block_base + kWords * (g & (q - 1));
      V x[S];
      for (unsigned t = 0; t < S; ++t) x[t] = load_row(base + kWords * t * q);
      if (scale != nullptr) {
        for (unsigned t = 0; t < S; ++t) x[t] = ifma::mul(f, x[t], factor);
      }
      butterflies<kind, R>(f, x, w, block == 0);
      for (unsigned t = 0; t < S; ++t) store_row(base + kWords * t * q, reduced(f, x[t]));
    }
  }
}

template <IfmaNetwork kind>
void row_pass(const Field& f, std::uint64_t* values, unsigned log_n, unsigned level, unsigned radix_log,
              const std::uint64_t* twiddles, std::size_t g_begin, std::size_t g_end,
              const std::uint64_t* scale) {
  switch (radix_log) {
    case 1:
      return row_groups<kind, 1>(f, values, log_n, level, twiddles, g_begin, g_end, scale);
    case 2:
      return row_groups<kind, 2>(f, values, log_n, level, twiddles, g_begin, g_end, scale);
    case 3:
      return row_groups<kind, 3>(f, values, log_n, level, twiddles, g_begin, g_end, scale);
    case 4:
      return row_groups<kind, 4>(f, values, log_n, level, twiddles, g_begin, g_end, scale);
    default:
      throw Error(Errc::internal, "IFMA NTT: unsupported radix");
  }
}

/// The last three levels of tiles [t_begin, t_end).
template <IfmaNetwork kind>
PL_IFMA_TARGET void tiles(const Field& f, std::uint64_t* values, const std::uint64_t* twiddles,
                          std::size_t t_begin, std::size_t t_end, const std::uint64_t* scale) {
  const V factor = scale != nullptr ? broadcast(scale) : V{};
  for (std::size_t tile = t_begin; tile < t_end; ++tile) {
    std::uint64_t* base = values + (kWords << kTileLog) * tile;
    V x[8];
    load_runs<8>(base, x);
    if (scale != nullptr) {
      for (V& v : x) v = ifma::mul(f, v, factor);
    }
    // Lane i's block at local level d is (8 tile + i)·2^d + lb: runs of 2^d consecutive twiddles.
    V w[7];
    w[0] = load_row(twiddles + kWords * 8 * tile);
    load_runs<2>(twiddles + kWords * 16 * tile, w + 1);
    load_runs<4>(twiddles + kWords * 32 * tile, w + 3);
    butterflies<kind, 3>(f, x, w, false);
    for (V& v : x) v = reduced(f, v);
    store_tile(base, x);
  }
}

unsigned top_level_count(unsigned log_n) {
  if (log_n > kBlockLog) return log_n - kBlockLog;
  return log_n >= 10 ? 3 : 0;
}

/// One pass of levels [level, level + radix_log) over the whole array, parallel over runs of eight groups.
template <IfmaNetwork kind>
void parallel_row_pass(const Field& f, std::uint64_t* values, unsigned log_n, unsigned level,
                       unsigned radix_log, const std::uint64_t* twiddles, const std::uint64_t* scale) {
  const std::size_t runs = std::size_t{1} << (log_n - radix_log - 3);
  const std::size_t grain = std::max<std::size_t>(1, kTaskElements >> (radix_log + 3));
  tbb::parallel_for(
      tbb::blocked_range<std::size_t>(0, runs, grain), [&](const tbb::blocked_range<std::size_t>& r) {
        row_pass<kind>(f, values, log_n, level, radix_log, twiddles, 8 * r.begin(), 8 * r.end(), scale);
      });
}

/// Levels top .. log_n − 1 of one cache block: passes of rows down to level log_n − 3, then the tiles (CT);
/// the same passes in the opposite order (GS).
template <IfmaNetwork kind>
void cache_block(const Field& f, std::uint64_t* values, unsigned log_n, unsigned top, std::size_t block,
                 const std::uint64_t* twiddles, const std::uint64_t* scale) {
  const std::size_t block_elements = std::size_t{1} << (log_n - top);
  const std::size_t tile_count = block_elements >> kTileLog;
  const unsigned tail = log_n - 3;
  if constexpr (kind == IfmaNetwork::ct) {
    for (unsigned level = top; level < tail;) {
      const unsigned radix_log = std::min(kInnerRadixLog, tail - level);
      const std::size_t groups = block_elements >> radix_log;
      row_pass<kind>(f, values, log_n, level, radix_log, twiddles, block * groups, (block + 1) * groups,
                     scale);
      scale = nullptr;
      level += radix_log;
    }
    tiles<kind>(f, values, twiddles, block * tile_count, (block + 1) * tile_count, scale);
  } else {
    tiles<kind>(f, values, twiddles, block * tile_count, (block + 1) * tile_count, scale);
    for (unsigned end = tail; end > top;) {
      const unsigned radix_log = std::min(kInnerRadixLog, end - top);
      const unsigned level = end - radix_log;
      const std::size_t groups = block_elements >> radix_log;
      row_pass<kind>(f, values, log_n, level, radix_log, twiddles, block * groups, (block + 1) * groups,
                     nullptr);
      end = level;
    }
  }
}

template <IfmaNetwork kind>
void network(const Field& f, std::uint64_t* values, unsigned log_n, const std::uint64_t* twiddles,
             const std::uint64_t* scale) {
  const unsigned top = top_level_count(log_n);
  if constexpr (kind == IfmaNetwork::ct) {
    for (unsigned level = 0; level < top;) {
      const unsigned radix_log = std::min(kTopRadixLog, top - level);
      parallel_row_pass<kind>(f, values, log_n, level, radix_log, twiddles, scale);
      scale = nullptr;
      level += radix_log;
    }
  }
  tbb::parallel_for(std::size_t{0}, std::size_t{1} << top, [&](std::size_t block) {
    cache_block<kind>(f, values, log_n, top, block, twiddles, scale);
  });
  if constexpr (kind == IfmaNetwork::gs) {
    for (unsigned end = top; end > 0;) {
      const unsigned radix_log = std::min(kTopRadixLog, end);
      parallel_row_pass<kind>(f, values, log_n, end - radix_log, radix_log, twiddles, nullptr);
      end -= radix_log;
    }
  }
}

PL_IFMA_TARGET void scale_rows(const std::uint64_t* modulus, std::uint64_t* values, std::size_t count,
                               const std::uint64_t* factor, const std::uint64_t* table) {
  const Field f(modulus);
  const V by = broadcast(factor);
  for (std::size_t i = 0; i < count; i += 8) {
    const V m = ifma::mul(f, load_row(table + kWords * i), by);
    store_row(values + kWords * i, reduced(f, ifma::mul(f, load_row(values + kWords * i), m)));
  }
}

PL_IFMA_TARGET void mul_sub_rows(const std::uint64_t* modulus, std::uint64_t* a, const std::uint64_t* b,
                                 const std::uint64_t* c, std::size_t count) {
  const Field f(modulus);
  for (std::size_t i = 0; i < count; i += 8) {
    const V product = ifma::mul(f, load_row(a + kWords * i), load_row(b + kWords * i));
    store_row(a + kWords * i, reduced(f, ifma::sub(f, product, load_row(c + kWords * i))));
  }
}

}  // namespace

PL_IFMA_TARGET void ifma_ntt_network(IfmaNetwork network_kind, const std::uint64_t* modulus,
                                     std::uint64_t* values, unsigned log_n, const std::uint64_t* twiddles,
                                     const std::uint64_t* scale) {
  if (log_n < kIfmaNttMinLog) throw Error(Errc::internal, "IFMA NTT: size below one tile");
  const Field f(modulus);
  if (network_kind == IfmaNetwork::ct)
    network<IfmaNetwork::ct>(f, values, log_n, twiddles, scale);
  else
    network<IfmaNetwork::gs>(f, values, log_n, twiddles, scale);
}

void ifma_scale_by_table(const std::uint64_t* modulus, std::uint64_t* values, std::size_t count,
                         const std::uint64_t* factor, const std::uint64_t* table) {
  scale_rows(modulus, values, count, factor, table);
}

void ifma_mul_sub(const std::uint64_t* modulus, std::uint64_t* a, const std::uint64_t* b,
                  const std::uint64_t* c, std::size_t count) {
  mul_sub_rows(modulus, a, b, c, count);
}

#else  // not x86-64: ifma_enabled() is false, so nothing calls these

void ifma_ntt_network(IfmaNetwork, const std::uint64_t*, std::uint64_t*, unsigned, const std::uint64_t*,
                      const std::uint64_t*) {
  throw Error(Errc::internal, "IFMA NTT: not an x86-64 build");
}
void ifma_scale_by_table(const std::uint64_t*, std::uint64_t*, std::size_t, const std::uint64_t*,
                         const std::uint64_t*) {
  throw Error(Errc::internal, "IFMA NTT: not an x86-64 build");
}

void ifma_mul_sub(const std::uint64_t*, std::uint64_t*, const std::uint64_t*, const std::uint64_t*,
                  std::size_t) {
  throw Error(Errc::internal, "IFMA NTT: not an x86-64 build");
}

#endif

}  // namespace proofline::cpu::detail
