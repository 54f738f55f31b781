// Internal: the CPU NTT's butterfly networks and scale passes, and H's pointwise A·B − C, eight lanes at a
// time with AVX-512 IFMA (detail/ifma_lanes.hpp), for scalar fields of four 64-bit limbs (both curves' Fr).
// ntt.cpp calls them where ifma_enabled() (detail/ifma_batch.hpp) and the transform has at least
// 2^kIfmaNttMinLog elements; the results equal the scalar networks' bit for bit (fully reduced Montgomery
// form in memory).
//
// Elements are passed as their words: element i is words[4 i .. 4 i + 3], least significant first.
#pragma once

#include <cstddef>
#include <cstdint>

namespace proofline::cpu::detail {

/// The lanes' networks work on 64-element tiles for their last three levels: smaller transforms stay scalar.
constexpr unsigned kIfmaNttMinLog = 6;

enum class IfmaNetwork {
  ct,  ///< Cooley–Tukey, levels 0 .. k−1: natural in, bit-reversed out
  gs,  ///< Gentleman–Sande, levels k−1 .. 0: bit-reversed in, natural out
};

/// One of ntt.cpp's two networks over 2^log_n elements (log_n >= kIfmaNttMinLog), in place, TBB-parallel.
/// `twiddles` is ntt.cpp's bit-reversed table (at least 2^(log_n − 1) entries: block b of any level uses
/// entry b); `scale`, when not null, multiplies every input first. `modulus`: four words.
void ifma_ntt_network(IfmaNetwork network, const std::uint64_t* modulus, std::uint64_t* values,
                      unsigned log_n, const std::uint64_t* twiddles, const std::uint64_t* scale);

/// values[i] *= factor · table[i] for i < count, count a multiple of 8; one thread.
void ifma_scale_by_table(const std::uint64_t* modulus, std::uint64_t* values, std::size_t count,
                         const std::uint64_t* factor, const std::uint64_t* table);

/// a[i] = a[i]·b[i] − c[i] for i < count, count a multiple of 8; one thread.
void ifma_mul_sub(const std::uint64_t* modulus, std::uint64_t* a, const std::uint64_t* b,
                  const std::uint64_t* c, std::size_t count);

}  // namespace proofline::cpu::detail
