// The building blocks of the CPU NTTs (instantiated for both curves' Fr in ntt.cpp), exposed to the H
// computation so it can fuse the 1/n, coset and 1/Z factors into one pass instead of paying a pass for each.
#pragma once

#include <span>

#include <proofline/arith/domain.hpp>
#include <proofline/arith/fr.hpp>

namespace proofline::cpu::detail {

/// The products the transforms below compute with: the fastest this CPU has (AVX-512 IFMA lanes where
/// ifma_enabled(), else the scalar ones), or the scalar ones (mulx where the CPU has it, else portable) even
/// there. Both give the same values bit for bit; the tests compare them in one process.
enum class NttLanes { best, scalar };

/// Natural-order input, bit-reversed output; the inverse direction is not scaled by 1/n.
template <class F>
void ntt_nr_unscaled(std::span<F> values, const BasicDomain<F>& domain, NttDirection direction,
                     NttLanes lanes = NttLanes::best);

/// Bit-reversed input, natural-order output; the inverse direction is not scaled by 1/n.
template <class F>
void ntt_rn_unscaled(std::span<F> values, const BasicDomain<F>& domain, NttDirection direction,
                     NttLanes lanes = NttLanes::best);

/// values[i] *= start · base^e(i), e(i) = i, or bitrev(i) when bit_reversed (power-of-two sizes only).
template <class F>
void scale_by_powers(std::span<F> values, const F& start, const F& base, bool bit_reversed,
                     NttLanes lanes = NttLanes::best);

/// cpu::ntt (ntt.hpp) with a choice of products.
template <class F>
void ntt_with(std::span<F> values, const BasicDomain<F>& domain, NttDirection direction, NttOrder order,
              bool coset, NttLanes lanes);

}  // namespace proofline::cpu::detail
