// Internal: the host entry points of the MSM kernels (defined in cuda/kernels/msm_*.cu, built only with
// CUDA), one overload per curve and group. Plain C++ declarations, so that gpu_msm.cpp stays a host compiler
// file.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>

#include <proofline/arith/curves.hpp>
#include <proofline/cuda/detail/msm_plan.hpp>

struct CUstream_st;

namespace proofline::cuda::detail {

/// CUB's temporary storage for the scan of `items` bucket counts.
std::size_t msm_scan_temp_bytes(std::size_t items);

/// starts = the exclusive scan of the `items` counts (CUB; `scan_temp` has msm_scan_temp_bytes(items) bytes).
void launch_msm_scan(std::uint32_t* counts, std::uint32_t* starts, std::size_t items, void* scan_temp,
                     std::size_t scan_temp_bytes, CUstream_st* stream);

/// Classify (split mode), digits, scan and scatter: fills a.counts, a.starts, a.entries (and a.rest_index,
/// a.ones_entry, a.counters). `scan_temp` has msm_scan_temp_bytes(W K + 1) bytes.
void launch_msm_sort(const MsmCommonArgs<Fr>& a, void* scan_temp, std::size_t scan_temp_bytes,
                     CUstream_st* stream);
void launch_msm_sort(const MsmCommonArgs<bn254::Fr>& a, void* scan_temp, std::size_t scan_temp_bytes,
                     CUstream_st* stream);

/// Everything after the sort: the ones' batch addition (split mode), accumulation, fixups, reduction levels
/// and the window combination; writes one Jacobian point to `result` (scratch). `reduce` holds the four
/// ping-pong arrays of the reduction, `ones_partial` ones_blocks points and `ones_total` one.
template <class Curve>
struct MsmTail {
  MsmArgs<Curve> args;
  const MsmLayout* layout = nullptr;
  XyzzPoint<Curve>* reduce[4] = {};
  XyzzPoint<Curve>* ones_partial = nullptr;
  XyzzPoint<Curve>* ones_total = nullptr;
  JacobianPoint<Curve>* result = nullptr;
};

void launch_msm_tail(const MsmTail<G1Params>& tail, CUstream_st* stream);
void launch_msm_tail(const MsmTail<G2Params>& tail, CUstream_st* stream);
void launch_msm_tail(const MsmTail<bn254::G1Params>& tail, CUstream_st* stream);
void launch_msm_tail(const MsmTail<bn254::G2Params>& tail, CUstream_st* stream);

/// A precomputed-window table: table[w n + i] = 2^(c w)·points[i] for w < windows (block 0 copied unless
/// table == points), built a chunk of `temp_points` XYZZ points of `temp` at a time.
template <class Curve>
struct MsmTable {
  const AffinePoint<Curve>* points = nullptr;
  std::size_t n = 0;
  int window_bits = 0;
  int windows = 0;
  AffinePoint<Curve>* table = nullptr;
  XyzzPoint<Curve>* temp = nullptr;
  std::size_t temp_points = 0;
};

void launch_msm_table(const MsmTable<G1Params>& table, CUstream_st* stream);
void launch_msm_table(const MsmTable<G2Params>& table, CUstream_st* stream);
void launch_msm_table(const MsmTable<bn254::G1Params>& table, CUstream_st* stream);
void launch_msm_table(const MsmTable<bn254::G2Params>& table, CUstream_st* stream);

/// Streamed MSM, after each batch: *total = first ? *partial : *total + *partial (device memory).
void launch_msm_add_result(G1Jacobian* total, const G1Jacobian* partial, bool first, CUstream_st* stream);
void launch_msm_add_result(G2Jacobian* total, const G2Jacobian* partial, bool first, CUstream_st* stream);
void launch_msm_add_result(bn254::G1Jacobian* total, const bn254::G1Jacobian* partial, bool first,
                           CUstream_st* stream);
void launch_msm_add_result(bn254::G2Jacobian* total, const bn254::G2Jacobian* partial, bool first,
                           CUstream_st* stream);

/// Threads per block of the block-wide point sums (hot buckets, ones): their shared memory is at most 24 KiB,
/// and the tree sum needs a power of two (BN254's 128- and 256-byte points leave part of it unused).
template <class Curve>
inline constexpr unsigned kBlockSumThreads = static_cast<unsigned>(std::bit_floor(24576 /
                                                                                  sizeof(XyzzPoint<Curve>)));

/// Register budget of the kernels whose loop is the mixed addition (accumulate, ones): 128 threads and as
/// many blocks per SM as the curve's arithmetic allows without heavy spilling (see -Xptxas -v).
///
/// sums_in_shared: the accumulate and ones kernels keep each thread's XYZZ sum in shared memory (384 bytes a
/// thread for BLS12-381's G2: 48 KiB an accumulate block; the ones kernel's sums are its block tree's buffer)
/// instead of registers. G2's Fp2 products are out-of-line calls, and a sum held in registers across them
/// spills and costs register moves on the multiplier's pipe for every call. Loaded from shared memory for
/// each call instead, BLS12-381's G2 measured faster (and spills nothing); BN254's G2, which did not spill,
/// measured slower that way and keeps its sums in registers.
template <class Curve>
struct AccumulateShape;
template <>
struct AccumulateShape<G1Params> {
  static constexpr unsigned threads = 128, min_blocks = 3;
  static constexpr bool sums_in_shared = false;
};
template <>
struct AccumulateShape<G2Params> {
  static constexpr unsigned threads = 128, min_blocks = 2;
  static constexpr bool sums_in_shared = true;
};
template <>
struct AccumulateShape<bn254::G1Params> {
  static constexpr unsigned threads = 128, min_blocks = 4;
  static constexpr bool sums_in_shared = false;
};
template <>
struct AccumulateShape<bn254::G2Params> {
  static constexpr unsigned threads = 128, min_blocks = 2;
  static constexpr bool sums_in_shared = false;
};
/// The ones' batch addition runs as many blocks of kBlockSumThreads per SM as fill the same register budget;
/// its grid is one such wave.
template <class Curve>
inline constexpr unsigned kOnesBlocksPerSm =
    (AccumulateShape<Curve>::min_blocks * AccumulateShape<Curve>::threads) / kBlockSumThreads<Curve>;

}  // namespace proofline::cuda::detail
