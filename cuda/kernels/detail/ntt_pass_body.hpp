// Internal: the work of one NTT pass block and one bit-reversal block, phase by phase, as host+device
// functions templated on the scalar field F (either curve's Fr: four 64-bit limbs). The kernels
// (cuda/kernels/detail/ntt_pass.cuh) run each phase per thread with __syncthreads() between phases;
// run_pass_on_host / run_bitrev_on_host below run the same phases over all threads of all blocks in turn, so
// the CPU tests check the kernels' index arithmetic, tiling and twiddles bit for bit without a GPU (only the
// device multiplication itself differs, and tests/gpu checks that one on the device).
//
// Shared memory holds a tile as two planes of 16-byte chunks (limbs 0-1 and 2-3 of each element), the second
// plane 4 chunks further so a chunk's two halves never share a bank group. Slots are swizzled:
// phys(e) = e ^ fold(e >> 5), fold XOR-ing the 5-bit groups, so tile-index bit p toggles bank bit p mod 5.
// Every phase picks its lanes' tile-index bits with distinct residues mod 5 (lane bit i on residue i), which
// makes each group of 8 lanes hit 8 different bank groups with its 128-bit accesses: no bank conflicts.
#pragma once

#include <cstdint>
#include <cstring>

#include <proofline/cuda/kernels/detail/ntt_args.hpp>

namespace proofline::cuda::detail {

#if defined(__CUDACC__)
using Chunk = ulonglong2;  // 16 bytes, 16-byte aligned: one 128-bit access
#else
struct alignas(16) Chunk {
  unsigned long long x, y;
};
#endif

/// Read-only table entry (twiddles, coset powers): through the non-coherent cache on the device.
template <class F>
PL_HD_INLINE F load_table(const F* p) {
  static_assert(sizeof(F) == 32 && F::N == 4, "the NTT moves elements as two 16-byte halves");
#if defined(__CUDA_ARCH__)
  const ulonglong2 a = __ldg(reinterpret_cast<const ulonglong2*>(p));
  const ulonglong2 b = __ldg(reinterpret_cast<const ulonglong2*>(p) + 1);
  F out;
  out.limb[0] = a.x;
  out.limb[1] = a.y;
  out.limb[2] = b.x;
  out.limb[3] = b.y;
  return out;
#else
  return *p;
#endif
}

/// Vector data in global memory (written by earlier launches: not through the read-only path).
template <class F>
PL_HD_INLINE F load_global(const F* p) {
  const Chunk* q = reinterpret_cast<const Chunk*>(p);
  const Chunk a = q[0], b = q[1];
  F out;
  out.limb[0] = a.x;
  out.limb[1] = a.y;
  out.limb[2] = b.x;
  out.limb[3] = b.y;
  return out;
}

template <class F>
PL_HD_INLINE void store_global(F* p, const F& x) {
  Chunk* q = reinterpret_cast<Chunk*>(p);
  Chunk a, b;
  a.x = x.limb[0];
  a.y = x.limb[1];
  b.x = x.limb[2];
  b.y = x.limb[3];
  q[0] = a;
  q[1] = b;
}

PL_HD_INLINE std::uint32_t bit_reverse(std::uint32_t x, unsigned bits) {
  if (bits == 0) return 0;
#if defined(__CUDA_ARCH__)
  return __brev(x) >> (32 - bits);
#else
  std::uint32_t r = 0;
  for (unsigned i = 0; i < bits; ++i) r |= ((x >> i) & 1u) << (bits - 1 - i);
  return r;
#endif
}

/// The shared-memory slot of tile element e (a bijection on [0, 2^tile_bits), linear over GF(2)).
PL_HD_INLINE std::uint32_t swizzle(std::uint32_t e) {
  const std::uint32_t x = e >> 5;
  return e ^ ((x ^ (x >> 5) ^ (x >> 10)) & 31u);
}

template <class F>
PL_HD_INLINE F smem_load(const Chunk* sm, std::uint32_t plane1, std::uint32_t slot) {
  const Chunk a = sm[slot], b = sm[plane1 + slot];
  F out;
  out.limb[0] = a.x;
  out.limb[1] = a.y;
  out.limb[2] = b.x;
  out.limb[3] = b.y;
  return out;
}

template <class F>
PL_HD_INLINE void smem_store(Chunk* sm, std::uint32_t plane1, std::uint32_t slot, const F& x) {
  Chunk a, b;
  a.x = x.limb[0];
  a.y = x.limb[1];
  b.x = x.limb[2];
  b.y = x.limb[3];
  sm[slot] = a;
  sm[plane1 + slot] = b;
}

/// Chunk offset of the second plane for a tile of 2^tile_bits elements.
PL_HD_INLINE std::uint32_t plane1_offset(unsigned tile_bits) {
  return (1u << tile_bits) + 4u;
}

/// Shared memory of one pass block, in bytes.
PL_HD_INLINE std::uint32_t pass_smem_bytes(unsigned tile_bits) {
  return (2u * (1u << tile_bits) + 4u) * static_cast<std::uint32_t>(sizeof(Chunk));
}

// ---- tile geometry
// ------------------------------------------------------------------------------------------

/// Where a block's tile lies in its vector.
struct Tile {
  std::uint64_t base = 0;  ///< position of tile element 0
  std::uint32_t lo0 = 0;   ///< column of tile element 0 (lo_bits > 0)
};

template <class F>
PL_HD_INLINE Tile tile_of(const PassArgs<F>& a, std::uint32_t block) {
  Tile tile;
  if (a.lo_bits > 0) {
    // Columns are the low bits: a tile is C adjacent columns of one segment of N' = 2^(lo_bits + k).
    const unsigned chunk_log = a.lo_bits - a.log_c;
    const std::uint64_t segment = block >> chunk_log;
    tile.lo0 = (block & ((1u << chunk_log) - 1u)) << a.log_c;
    tile.base = (segment << (a.lo_bits + a.k)) + tile.lo0;
  } else {
    tile.base = static_cast<std::uint64_t>(block) << a.tile_bits;  // C whole groups, contiguous
  }
  return tile;
}

/// Tile index e: (group index s, column c) as e = s·C + c when lo_bits > 0, else e = c·K + s.
template <class F>
PL_HD_INLINE std::uint32_t group_index(const PassArgs<F>& a, std::uint32_t e) {
  return a.lo_bits > 0 ? e >> a.log_c : e & ((1u << a.k) - 1u);
}

template <class F>
PL_HD_INLINE std::uint64_t position(const PassArgs<F>& a, const Tile& tile, std::uint32_t e) {
  if (a.lo_bits > 0)
    return tile.base + (static_cast<std::uint64_t>(e >> a.log_c) << a.lo_bits) + (e & ((1u << a.log_c) - 1u));
  return tile.base + e;
}

// ---- per-element factors
// ------------------------------------------------------------------------------------

/// Up to two table entries an element is multiplied by (a phase has either the diagonal or a scale, never
/// both, so every phase needs at most two multiplications plus the pointwise one: one code path for all).
template <class F>
struct Factors {
  F first, second;
  bool use_first = false, use_second = false;
};

/// w_N'^(lo·bitrev_k(s)) for N' = 2^(lo_bits + k) as hi · lo entries of the root power tables (a factor
/// that is 1 is left out).
template <class F>
PL_HD_INLINE Factors<F> root_power_factors(const F* root_hi, const F* root_lo, unsigned lo_bits, unsigned k,
                                           std::uint32_t s, std::uint32_t lo) {
  Factors<F> f;
  const std::uint32_t exponent = (lo * bit_reverse(s, k)) << (kRootLogOrder - lo_bits - k);
  const std::uint32_t hi = exponent >> kPowerLoBits, low = exponent & ((1u << kPowerLoBits) - 1u);
  if (hi != 0) {
    f.first = load_table(root_hi + hi);
    f.use_first = true;
  }
  if (low != 0) {
    f.second = load_table(root_lo + low);
    f.use_second = true;
  }
  return f;
}

/// Entry (s << lo_bits) + lo of a full diagonal table: w_N'^(lo·bitrev_k(s)), N' = 2^(lo_bits + k).
template <class F>
PL_HD_INLINE F diagonal_entry(const F* root_hi, const F* root_lo, unsigned lo_bits, unsigned k,
                              std::uint32_t index) {
  const Factors<F> f =
      root_power_factors(root_hi, root_lo, lo_bits, k, index >> lo_bits, index & ((1u << lo_bits) - 1u));
  if (f.use_first && f.use_second) return f.first * f.second;
  if (f.use_first) return f.first;
  return f.use_second ? f.second : F::one();
}

/// D(s, lo) = w_N'^(lo·bitrev_k(s)), N' = 2^(lo_bits + k): a full-table entry or hi · lo of the root tables.
template <class F>
PL_HD_INLINE Factors<F> diagonal_factors(const PassArgs<F>& a, const Tile& tile, std::uint32_t e) {
  const std::uint32_t s = e >> a.log_c;
  const std::uint32_t lo = tile.lo0 + (e & ((1u << a.log_c) - 1u));
  if (a.d_full != nullptr) {
    // A full table may hold the inverse's 1/n too, so it is read even where the root power is 1.
    Factors<F> f;
    f.first = load_table(a.d_full + ((static_cast<std::uint64_t>(s) << a.lo_bits) + lo));
    f.use_first = true;
    return f;
  }
  return root_power_factors(a.root_hi, a.root_lo, a.lo_bits, a.k, s, lo);
}

template <class F>
PL_HD_INLINE Factors<F> scale_factors(const Scale<F>& scale, int v, unsigned log_n, std::uint64_t pos) {
  Factors<F> f;
  f.use_first = true;
  if (scale.kind == ScaleKind::constant || scale.hi[v] == nullptr) {
    f.first = scale.constant[v];
    return f;
  }
  if (scale.kind == ScaleKind::table) {
    f.first = load_table(scale.hi[v] + pos);
    return f;
  }
  const std::uint32_t j =
      scale.reversed ? bit_reverse(static_cast<std::uint32_t>(pos), log_n) : static_cast<std::uint32_t>(pos);
  f.first = load_table(scale.hi[v] + (j >> kPowerLoBits));
  f.second = load_table(scale.lo + (j & ((1u << kPowerLoBits) - 1u)));
  f.use_second = true;
  return f;
}

/// Entry pos of a full table of powers for data in bit-reversed order: hi[j >> 14] · lo[j & 0x3fff] with
/// j = bitrev_(log_n)(pos), the product a ScaleKind::powers scale would make there.
template <class F>
PL_HD_INLINE F reversed_power_entry(const F* hi, const F* lo, unsigned log_n, std::uint32_t pos) {
  Scale<F> powers;
  powers.kind = ScaleKind::powers;
  powers.reversed = true;
  powers.hi[0] = hi;
  powers.lo = lo;
  const Factors<F> f = scale_factors(powers, 0, log_n, pos);
  return f.first * f.second;
}

/// The H step's pointwise operation on the transformed value x at position pos (PassArgs::pw_op).
template <class F>
PL_HD_INLINE F fused_pointwise(const PassArgs<F>& a, std::uint64_t pos, const F& x) {
  switch (a.pw_op) {
    case Pointwise::ab_minus_value:
      return load_global(a.pw_a + pos) * load_global(a.pw_b + pos) - x;
    case Pointwise::value_times_b:
      return x * load_global(a.pw_b + pos);
    case Pointwise::value_minus_b:
      return x - load_global(a.pw_b + pos);
    case Pointwise::none:
      break;
  }
  return x;
}

// ---- phases of a pass block
// ---------------------------------------------------------------------------------

/// Whether a pass multiplies at its input (DIT diagonal, first pass's scale) or output (DIF diagonal, last
/// pass's scale, fused pointwise): each is one extra phase over the tile in shared memory.
template <class F>
PL_HD_INLINE bool has_input_phase(const PassArgs<F>& a) {
  return (!a.dif && a.lo_bits > 0) || a.in_scale.kind != ScaleKind::none;
}
template <class F>
PL_HD_INLINE bool has_output_phase(const PassArgs<F>& a) {
  return (a.dif && a.lo_bits > 0) || a.out_scale.kind != ScaleKind::none || a.pw_op != Pointwise::none;
}

/// Input side (input = true: DIT diagonal, in_scale) or output side (DIF diagonal, out_scale, pointwise) of
/// a pass, element by element. The input side reads its elements from global memory and leaves them in the
/// tile (the pass then copies nothing in); the output side takes them from the tile and writes them to
/// global memory (to pw_out with the fused pointwise; the pass then copies nothing out). Faster on the H200
/// than a separate copy phase and barrier (perf/NOTES-gpu-ntt.md).
template <bool Dif, class F>
PL_HD_INLINE void elementwise_phase(const PassArgs<F>& a, const Tile& tile, int v, bool input, Chunk* sm,
                                    std::uint32_t t) {
  const unsigned threads = 1u << (a.tile_bits - kRegBits);
  const std::uint32_t plane1 = plane1_offset(a.tile_bits);
  const bool diagonal = a.lo_bits > 0 && (input != Dif);
  const Scale<F>& scale = input ? a.in_scale : a.out_scale;
  const bool pointwise = !input && a.pw_op != Pointwise::none;
#if defined(__CUDA_ARCH__)
#pragma unroll 2
#endif
  for (unsigned i = 0; i < kRegs; ++i) {
    const std::uint32_t e = t + threads * i;
    const std::uint32_t slot = swizzle(e);
    const std::uint64_t pos = position(a, tile, e);
    Factors<F> f;
    if (diagonal)
      f = diagonal_factors(a, tile, e);
    else if (scale.kind != ScaleKind::none)
      f = scale_factors(scale, v, a.log_n, pos);
    F x = input ? load_global(a.data[v] + pos) : smem_load<F>(sm, plane1, slot);
    if (f.use_first) x = x * f.first;
    if (f.use_second) x = x * f.second;
    if (pointwise) x = fused_pointwise(a, pos, x);
    if (input)
      smem_store(sm, plane1, slot, x);
    else
      store_global((pointwise ? a.pw_out : a.data[v]) + pos, x);
  }
}

/// One round: load kRegs elements, up to kRegBits radix-2 stages, store them back to the same slots.
template <bool Dif, class F>
PL_HD_INLINE void round_phase(const PassArgs<F>& a, const RoundPlan& rp, Chunk* sm, std::uint32_t t) {
  const std::uint32_t plane1 = plane1_offset(a.tile_bits);
  std::uint32_t e_base = 0;
  for (unsigned m = 0; m < rp.thread_bits; ++m) e_base |= ((t >> m) & 1u) << rp.thread_pos[m];
  const std::uint32_t slot_base = swizzle(e_base);
  const std::uint32_t s_base = group_index(a, e_base);
  constexpr int half = kRegs / 2;
  F x[kRegs];
  PL_UNROLL for (int o = 0; o < kRegs; ++o) x[o] = smem_load<F>(sm, plane1, slot_base ^ rp.phys_off[o]);

  // Unrolled: the rotation below is a renaming of registers, not moves.
  PL_UNROLL for (int stage = 0; stage < kRegBits; ++stage) {
    if (stage < rp.stages) {
      const unsigned log_h = rp.log_h[stage];
      const std::uint32_t h_mask = (1u << log_h) - 1u;
      PL_UNROLL for (int j = 0; j < half; ++j) {
        // w_2h^(s mod h) = w_2^28^((s mod h) << (27 − log_h)): an entry of the high table.
        const std::uint32_t idx = (s_base | rp.s_add[stage][j]) & h_mask;
        if constexpr (Dif) {
          F d = x[j] - x[j + half];
          x[j] = x[j] + x[j + half];
          if (idx != 0) d = d * load_table(a.root_hi + (idx << (13 - log_h)));
          x[j + half] = d;
        } else {
          F y = x[j + half];
          if (idx != 0) y = y * load_table(a.root_hi + (idx << (13 - log_h)));
          x[j + half] = x[j] - y;
          x[j] = x[j] + y;
        }
      }
    }
    // Rotate the register bits (swap bits 0 and 1): the next stage pairs what was bit 0. After two rotations
    // every register holds its own element again.
    const F r1 = x[1];
    x[1] = x[2];
    x[2] = r1;
  }
  PL_UNROLL for (int o = 0; o < kRegs; ++o) smem_store(sm, plane1, slot_base ^ rp.phys_off[o], x[o]);
}

// ---- bit reversal
// -------------------------------------------------------------------------------------------

/// Shared memory of one bit-reversal block (two 32 x 32 tiles of two planes each), in bytes.
PL_HD_INLINE std::uint32_t bitrev_smem_bytes() {
  return 4u * plane1_offset(2 * kBitrevTileLog) * static_cast<std::uint32_t>(sizeof(Chunk));
}

/// Position i = (a << (L − 5)) | (m << 5) | b maps to (rev5(b) << (L − 5)) | (rev(m) << 5) | rev5(a): the
/// block of m (and of rev(m), if different) loads both 32 x 32 tiles, then writes each into the other's
/// place. Blocks with m > rev(m) have nothing to do.
PL_HD_INLINE bool bitrev_block_active(unsigned log_n, std::uint32_t m) {
  return m <= bit_reverse(m, log_n - 2 * kBitrevTileLog);
}

PL_HD_INLINE std::uint64_t bitrev_position(unsigned log_n, std::uint32_t m, std::uint32_t a,
                                           std::uint32_t b) {
  return (static_cast<std::uint64_t>(a) << (log_n - kBitrevTileLog)) |
         (static_cast<std::uint64_t>(m) << kBitrevTileLog) | b;
}

/// Slot of tile element (a, b): conflict-free both when lanes run over b and when they run over rev5(a).
PL_HD_INLINE std::uint32_t bitrev_slot(std::uint32_t a, std::uint32_t b) {
  return (a << kBitrevTileLog) | (b ^ bit_reverse(a, kBitrevTileLog));
}

inline constexpr unsigned kBitrevThreads = 256;

/// Loads tile m (and rev(m)) into shared memory; thread t handles 4 elements of each.
template <class F>
PL_HD_INLINE void bitrev_load_phase(F* data, unsigned log_n, std::uint32_t m, Chunk* sm, std::uint32_t t) {
  const std::uint32_t plane1 = plane1_offset(2 * kBitrevTileLog);
  const std::uint32_t mr = bit_reverse(m, log_n - 2 * kBitrevTileLog);
  for (int side = 0; side < (mr == m ? 1 : 2); ++side) {
    Chunk* buffer = sm + side * 2 * plane1;
    const std::uint32_t mm = side == 0 ? m : mr;
    PL_UNROLL for (unsigned i = 0; i < 4; ++i) {
      const std::uint32_t q = t + kBitrevThreads * i, ra = q >> kBitrevTileLog, rb = q & 31u;
      smem_store(buffer, plane1, bitrev_slot(ra, rb), load_global(data + bitrev_position(log_n, mm, ra, rb)));
    }
  }
}

/// Writes tile m's elements to their reversed places in tile rev(m), and tile rev(m)'s into tile m.
template <class F>
PL_HD_INLINE void bitrev_store_phase(F* data, unsigned log_n, std::uint32_t m, const Chunk* sm,
                                     std::uint32_t t) {
  const std::uint32_t plane1 = plane1_offset(2 * kBitrevTileLog);
  const std::uint32_t mr = bit_reverse(m, log_n - 2 * kBitrevTileLog);
  for (int side = 0; side < (mr == m ? 1 : 2); ++side) {
    const Chunk* buffer = sm + side * 2 * plane1;  // source tile: m for side 0, rev(m) for side 1
    const std::uint32_t target = side == 0 ? mr : m;
    PL_UNROLL for (unsigned i = 0; i < 4; ++i) {
      // Destination element (a', b') of the target tile holds source element (rev5(b'), rev5(a')).
      const std::uint32_t q = t + kBitrevThreads * i, da = q >> kBitrevTileLog, db = q & 31u;
      const std::uint32_t sa = bit_reverse(db, kBitrevTileLog), sb = bit_reverse(da, kBitrevTileLog);
      store_global(data + bitrev_position(log_n, target, da, db),
                   smem_load<F>(buffer, plane1, bitrev_slot(sa, sb)));
    }
  }
}

// ---- the same blocks on the host
// ----------------------------------------------------------------------------

#if !defined(__CUDA_ARCH__)
/// Runs one pass launch over all its blocks, phase by phase, exactly as the kernel does (for tests).
template <bool Dif, class F>
inline void run_pass_on_host(const PassArgs<F>& a) {
  const std::uint32_t tile_size = 1u << a.tile_bits, threads = tile_size >> kRegBits;
  const std::uint32_t blocks = static_cast<std::uint32_t>((std::uint64_t{1} << a.log_n) >> a.tile_bits);
  const std::uint32_t plane1 = plane1_offset(a.tile_bits);
  const bool in_ops = has_input_phase(a);
  const bool out_ops = has_output_phase(a);
  Chunk* sm = new Chunk[pass_smem_bytes(a.tile_bits) / sizeof(Chunk)];
  for (int v = 0; v < a.batch; ++v) {
    for (std::uint32_t block = 0; block < blocks; ++block) {
      const Tile tile = tile_of(a, block);
      if (in_ops) {
        for (std::uint32_t t = 0; t < threads; ++t) elementwise_phase<Dif>(a, tile, v, true, sm, t);
      } else {
        for (std::uint32_t t = 0; t < threads; ++t) {
          for (unsigned i = 0; i < 2 * kRegs; ++i) {
            const std::uint32_t chunk = t + threads * i, e = chunk >> 1, half = chunk & 1u;
            std::memcpy(&sm[(half ? plane1 : 0u) + swizzle(e)],
                        reinterpret_cast<const char*>(a.data[v] + position(a, tile, e)) + 16 * half, 16);
          }
        }
      }
      for (int r = 0; r < a.rounds; ++r)
        for (std::uint32_t t = 0; t < threads; ++t) round_phase<Dif>(a, a.round[r], sm, t);
      if (out_ops) {
        for (std::uint32_t t = 0; t < threads; ++t) elementwise_phase<Dif>(a, tile, v, false, sm, t);
      } else {
        for (std::uint32_t t = 0; t < threads; ++t) {
          for (unsigned i = 0; i < 2 * kRegs; ++i) {
            const std::uint32_t chunk = t + threads * i, e = chunk >> 1, half = chunk & 1u;
            std::memcpy(reinterpret_cast<char*>(a.data[v] + position(a, tile, e)) + 16 * half,
                        &sm[(half ? plane1 : 0u) + swizzle(e)], 16);
          }
        }
      }
    }
  }
  delete[] sm;
}

template <class F>
inline void run_bitrev_on_host(const BitrevArgs<F>& a) {
  const std::uint32_t blocks = 1u << (a.log_n - 2 * kBitrevTileLog);
  Chunk* sm = new Chunk[bitrev_smem_bytes() / sizeof(Chunk)];
  for (int v = 0; v < a.batch; ++v) {
    for (std::uint32_t m = 0; m < blocks; ++m) {
      if (!bitrev_block_active(a.log_n, m)) continue;
      for (std::uint32_t t = 0; t < kBitrevThreads; ++t) bitrev_load_phase(a.data[v], a.log_n, m, sm, t);
      for (std::uint32_t t = 0; t < kBitrevThreads; ++t) bitrev_store_phase(a.data[v], a.log_n, m, sm, t);
    }
  }
  delete[] sm;
}
#endif

}  // namespace proofline::cuda::detail
