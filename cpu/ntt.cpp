// CPU NTT over the scalar field of either curve (one template, instantiated for both).
//
// Structure. A size-n transform (n = 2^k) runs k levels; level l splits each of its 2^l blocks (span n >> l)
// as p mod (X^2h − ζ²) -> (p mod X^h − ζ, p mod X^h + ζ), h = span/2, with one twiddle ζ per block:
//   CT butterfly  (x, y) -> (x + ζy, x − ζy),   levels 0 .. k−1: natural in, bit-reversed out (NR);
//   GS butterfly  (x, y) -> (x + y, ζ(x − y)),  levels k−1 .. 0: bit-reversed in, natural out (RN).
// The GS network is the transpose of the CT network, and the DFT matrix is symmetric, so with the same
// twiddles GS computes F·P where CT computes P·F (P = bit reversal). With ζ^-1 instead of ζ both give n times
// the inverse of the other. So NR and RN, forward and inverse, are two loops and two tables.
//
// Twiddles. Block b of level l uses ζ_b = ω_n^bitrev_{k−1}(b) = ρ^bitrev_31(b) with ρ the 2^32-th root, the
// same value for every n: one table in bit-reversed order per convention and direction serves all sizes
// (size n reads its first n/2 entries), and doubling it is one multiplication per new entry.
//
// Memory. The top levels, whose blocks do not fit in cache, are done kTopRadixLog levels per pass: each
// task loads 2^R elements at stride span/2^R, runs R levels on them in registers and stores them back. Below
// that every cache block (2^kBlockLog elements) runs all its remaining levels while resident, in groups of
// kInnerRadixLog levels. Multiplications by ζ = 1 (block 0 of every level) are skipped.
//
// Lanes. Where the CPU has AVX-512 IFMA, both networks and the scale passes run eight elements at a time on
// its lanes instead (ntt_ifma.cpp, the same levels and twiddles), with the same results bit for bit.
#include <proofline/cpu/ntt.hpp>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <proofline/cpu/detail/ifma_batch.hpp>
#include <proofline/cpu/detail/mulx_field.hpp>
#include <proofline/cpu/detail/ntt_ifma.hpp>
#include <proofline/cpu/detail/ntt_steps.hpp>
#include <proofline/util/error.hpp>

namespace proofline::cpu {

namespace {

constexpr unsigned kBlockLog = 13;      // 2^13 Fr = 256 KiB: a cache block stays in L2
constexpr unsigned kTopRadixLog = 4;    // levels per pass over memory above the cache blocks
constexpr unsigned kInnerRadixLog = 3;  // levels per group inside a cache block
constexpr std::size_t kTaskElements = std::size_t{1} << 12;  // elements per TBB task in streaming passes

// ---- twiddle tables --------------------------------------------------------------------------------------

template <class F>
struct Twiddles {
  std::vector<F> forward;  // ρ^bitrev_31(b)
  std::vector<F> inverse;  // ρ^−bitrev_31(b)
};

/// A table of 2m entries from one of m: bitrev_31(m + i) = bitrev_31(i) + 2^32/(4m), so entry m + i is
/// entry i times a primitive 4m-th root.
template <class F>
std::shared_ptr<const Twiddles<F>> grow_twiddles(HConvention convention, const Twiddles<F>* old,
                                                 std::size_t entries) {
  auto table = std::make_shared<Twiddles<F>>();
  table->forward.resize(entries);
  table->inverse.resize(entries);
  std::size_t have = 1;
  table->forward[0] = table->inverse[0] = F::one();
  if (old != nullptr) {
    have = std::min(old->forward.size(), entries);
    std::copy_n(old->forward.begin(), have, table->forward.begin());
    std::copy_n(old->inverse.begin(), have, table->inverse.begin());
  }
  const F root = two_adic_root<F>(convention);
  const F root_inv = root.inverse();
  for (std::size_t m = have; m < entries; m *= 2) {
    F step = root, step_inv = root_inv;
    for (unsigned i = static_cast<unsigned>(std::countr_zero(m)) + 2; i < NttField<F>::two_adicity; ++i) {
      step = step.squared();
      step_inv = step_inv.squared();
    }
    F* forward = table->forward.data();
    F* inverse = table->inverse.data();
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, m, kTaskElements),
                      [&](const tbb::blocked_range<std::size_t>& range) {
                        for (std::size_t i = range.begin(); i != range.end(); ++i) {
                          forward[m + i] = forward[i] * step;
                          inverse[m + i] = inverse[i] * step_inv;
                        }
                      });
  }
  return table;
}

template <class F>
class TwiddleCache {
 public:
  std::shared_ptr<const Twiddles<F>> get(HConvention convention, std::size_t entries) {
    Slot& slot = slots_[convention == HConvention::generator7 ? 0 : 1];
    std::lock_guard lock(slot.mutex);
    if (slot.table && slot.table->forward.size() >= entries) return slot.table;
    // While this thread waits in the parallel build it must not take an unrelated outer task that could
    // call get() and block on the mutex it holds itself.
    slot.table =
        tbb::this_task_arena::isolate([&] { return grow_twiddles(convention, slot.table.get(), entries); });
    return slot.table;
  }

  void release() {
    for (Slot& slot : slots_) {
      std::lock_guard lock(slot.mutex);
      slot.table.reset();
    }
  }

 private:
  struct Slot {
    std::mutex mutex;
    std::shared_ptr<const Twiddles<F>> table;
  };
  Slot slots_[2];
};

template <class F>
TwiddleCache<F>& twiddle_cache() {
  static TwiddleCache<F> cache;
  return cache;
}

// ---- butterfly groups -------------------------------------------------------------------------------------

enum class Network { ct, gs };

// The networks keep the values and twiddles as F in memory and compute on A, which is F or its mulx twin
// (detail/mulx_field.hpp): elements are converted by value (twin_cast) where they are loaded into the
// butterflies and stored back, never read through a pointer to the other type.

/// R consecutive levels on the 2^R elements base[t·q]. w[(1 << d) − 1 + lb] is the twiddle of local block lb
/// at local level d; unit says the group belongs to global block 0, whose first local block at every level
/// has twiddle 1. scale, when given, multiplies the inputs first (1/n of an inverse transform).
template <Network kind, unsigned R, class A, class F>
inline void butterfly_group(F* base, std::size_t q, const A* w, bool unit, const A* scale) {
  constexpr unsigned S = 1u << R;
  A x[S];
  for (unsigned t = 0; t < S; ++t) x[t] = detail::twin_cast<A>(base[t * q]);
  if (scale != nullptr) {
    for (unsigned t = 0; t < S; ++t) x[t] *= *scale;
  }
  if constexpr (kind == Network::ct) {
    for (unsigned d = 0; d < R; ++d) {
      const unsigned h = S >> (d + 1);
      for (unsigned lb = 0; lb < (1u << d); ++lb) {
        const A& z = w[(1u << d) - 1 + lb];
        const bool one = unit && lb == 0;
        for (unsigned u = 2 * h * lb; u < 2 * h * lb + h; ++u) {
          const A y = one ? x[u + h] : x[u + h] * z;
          x[u + h] = x[u] - y;
          x[u] += y;
        }
      }
    }
  } else {
    for (unsigned d = R; d-- > 0;) {
      const unsigned h = S >> (d + 1);
      for (unsigned lb = 0; lb < (1u << d); ++lb) {
        const A& z = w[(1u << d) - 1 + lb];
        const bool one = unit && lb == 0;
        for (unsigned u = 2 * h * lb; u < 2 * h * lb + h; ++u) {
          const A diff = x[u] - x[u + h];
          x[u] += x[u + h];
          x[u + h] = one ? diff : diff * z;
        }
      }
    }
  }
  for (unsigned t = 0; t < S; ++t) base[t * q] = detail::twin_cast<F>(x[t]);
}

/// Levels [level, level + R) for the groups [g_begin, g_end) of that level pass. Group g belongs to block
/// g / q (span n >> level) and starts at offset g % q within it, q = span >> R.
template <Network kind, unsigned R, class A, class F>
void run_groups(F* values, unsigned log_n, unsigned level, const F* twiddles, std::size_t g_begin,
                std::size_t g_end, const A* scale) {
  const unsigned log_q = log_n - level - R;
  const std::size_t q = std::size_t{1} << log_q;
  A w[(1u << R) - 1];
  for (std::size_t g = g_begin; g < g_end;) {
    const std::size_t block = g >> log_q;
    const std::size_t block_end = std::min(g_end, (block + 1) << log_q);
    for (unsigned d = 0; d < R; ++d) {
      for (std::size_t lb = 0; lb < (std::size_t{1} << d); ++lb)
        w[(1u << d) - 1 + lb] = detail::twin_cast<A>(twiddles[(block << d) + lb]);
    }
    F* block_base = values + (block << (log_n - level));
    for (; g < block_end; ++g) butterfly_group<kind, R>(block_base + (g & (q - 1)), q, w, block == 0, scale);
  }
}

template <Network kind, class A, class F>
void run_level_pass(F* values, unsigned log_n, unsigned level, unsigned radix_log, const F* twiddles,
                    std::size_t g_begin, std::size_t g_end, const A* scale) {
  switch (radix_log) {
    case 1:
      return run_groups<kind, 1>(values, log_n, level, twiddles, g_begin, g_end, scale);
    case 2:
      return run_groups<kind, 2>(values, log_n, level, twiddles, g_begin, g_end, scale);
    case 3:
      return run_groups<kind, 3>(values, log_n, level, twiddles, g_begin, g_end, scale);
    case 4:
      return run_groups<kind, 4>(values, log_n, level, twiddles, g_begin, g_end, scale);
    default:
      throw Error(Errc::internal, "NTT: unsupported radix 2^" + std::to_string(radix_log));
  }
}

/// Levels above the cache blocks. Small transforms still get 8 blocks so both cores have work.
unsigned top_level_count(unsigned log_n) {
  if (log_n > kBlockLog) return log_n - kBlockLog;
  return log_n >= 10 ? 3 : 0;
}

/// One pass of levels [level, level + radix_log) over the whole array, parallel over groups.
template <Network kind, class A, class F>
void parallel_level_pass(F* values, unsigned log_n, unsigned level, unsigned radix_log, const F* twiddles,
                         const A* scale) {
  const std::size_t groups = std::size_t{1} << (log_n - radix_log);
  const std::size_t grain = std::max<std::size_t>(1, kTaskElements >> radix_log);
  tbb::parallel_for(
      tbb::blocked_range<std::size_t>(0, groups, grain), [&](const tbb::blocked_range<std::size_t>& range) {
        run_level_pass<kind>(values, log_n, level, radix_log, twiddles, range.begin(), range.end(), scale);
      });
}

/// CT network (levels 0 .. k−1): natural -> bit-reversed with forward twiddles, n·inverse with inverse ones.
template <class A, class F>
void ct_network(F* values, unsigned log_n, const F* twiddles, const A* scale) {
  const unsigned top = top_level_count(log_n);
  for (unsigned level = 0; level < top;) {
    const unsigned radix_log = std::min(kTopRadixLog, top - level);
    parallel_level_pass<Network::ct>(values, log_n, level, radix_log, twiddles, scale);
    scale = nullptr;
    level += radix_log;
  }
  const std::size_t block_elements = std::size_t{1} << (log_n - top);
  tbb::parallel_for(std::size_t{0}, std::size_t{1} << top, [&](std::size_t block) {
    const A* block_scale = scale;
    for (unsigned level = top; level < log_n;) {
      const unsigned radix_log = std::min(kInnerRadixLog, log_n - level);
      const std::size_t groups = block_elements >> radix_log;
      run_level_pass<Network::ct>(values, log_n, level, radix_log, twiddles, block * groups,
                                  (block + 1) * groups, block_scale);
      block_scale = nullptr;
      level += radix_log;
    }
  });
}

/// GS network (levels k−1 .. 0): bit-reversed -> natural; the transpose of ct_network.
template <class A, class F>
void gs_network(F* values, unsigned log_n, const F* twiddles, const A* scale) {
  const unsigned top = top_level_count(log_n);
  const std::size_t block_elements = std::size_t{1} << (log_n - top);
  tbb::parallel_for(std::size_t{0}, std::size_t{1} << top, [&](std::size_t block) {
    const A* block_scale = scale;
    for (unsigned end = log_n; end > top;) {
      const unsigned radix_log = std::min(kInnerRadixLog, end - top);
      const unsigned level = end - radix_log;
      const std::size_t groups = block_elements >> radix_log;
      run_level_pass<Network::gs>(values, log_n, level, radix_log, twiddles, block * groups,
                                  (block + 1) * groups, block_scale);
      block_scale = nullptr;
      end = level;
    }
  });
  for (unsigned end = top; end > 0;) {
    const unsigned radix_log = std::min(kTopRadixLog, end);
    parallel_level_pass<Network::gs, A>(values, log_n, end - radix_log, radix_log, twiddles, nullptr);
    end -= radix_log;
  }
}

/// Whether a transform of 2^log_n elements of F runs on the IFMA lanes.
template <class F>
bool on_lanes(detail::NttLanes lanes, unsigned log_n) {
  return F::N == 4 && lanes == detail::NttLanes::best && log_n >= detail::kIfmaNttMinLog &&
         detail::ifma_enabled();
}

/// The lanes see an element as its N words (F is exactly its limbs); const elements give const words.
template <class F>
auto* words(F* element) {
  static_assert(sizeof(F) == sizeof(element->limb));
  return element->limb;
}

/// One network on the lanes where they apply, else on A (F or its mulx twin; scale only with A = F).
template <class A, class F>
void run_network(Network kind, F* values, unsigned log_n, const F* twiddles,
                 std::type_identity_t<const F*> scale, detail::NttLanes lanes) {
  if (on_lanes<F>(lanes, log_n)) {
    return detail::ifma_ntt_network(kind == Network::ct ? detail::IfmaNetwork::ct : detail::IfmaNetwork::gs,
                                    F::modulus.limb, words(values), log_n, words(twiddles),
                                    scale != nullptr ? words(scale) : nullptr);
  }
  const A* a_scale = nullptr;
  if constexpr (std::is_same_v<A, F>) a_scale = scale;
  if (kind == Network::ct)
    ct_network<A>(values, log_n, twiddles, a_scale);
  else
    gs_network<A>(values, log_n, twiddles, a_scale);
}

template <class F>
std::shared_ptr<const Twiddles<F>> twiddles_for(const BasicDomain<F>& domain) {
  return twiddle_cache<F>().get(domain.convention(), domain.size() / 2);
}

template <class F>
void check_size(std::span<F> values, const BasicDomain<F>& domain, const char* what) {
  if (values.size() != domain.size())
    throw Error(Errc::invalid_argument, std::string(what) + ": " + std::to_string(values.size()) +
                                            " values for a domain of size " + std::to_string(domain.size()));
}

std::size_t reverse_bits(std::size_t value, unsigned bits) {
  std::size_t out = 0;
  for (unsigned i = 0; i < bits; ++i, value >>= 1) out = (out << 1) | (value & 1);
  return out;
}

/// The unscaled networks of the H building blocks: mulx products where the lanes do not apply.
template <class F>
void run_unscaled(Network kind, std::span<F> values, const BasicDomain<F>& domain, NttDirection direction,
                  detail::NttLanes lanes) {
  check_size(values, domain, "NTT");
  const auto tables = twiddles_for(domain);
  const auto& twiddles = direction == NttDirection::forward ? tables->forward : tables->inverse;
  if constexpr (detail::mulx_supported_limbs(F::N)) {
    if (detail::carry_instructions_enabled())
      return run_network<detail::MulxField<F>>(kind, values.data(), domain.log_size(), twiddles.data(),
                                               nullptr, lanes);
  }
  run_network<F>(kind, values.data(), domain.log_size(), twiddles.data(), nullptr, lanes);
}

}  // namespace

// ---- building blocks -------------------------------------------------------------------------------------

namespace detail {

template <class F>
void ntt_nr_unscaled(std::span<F> values, const BasicDomain<F>& domain, NttDirection direction,
                     NttLanes lanes) {
  run_unscaled(Network::ct, values, domain, direction, lanes);
}

template <class F>
void ntt_rn_unscaled(std::span<F> values, const BasicDomain<F>& domain, NttDirection direction,
                     NttLanes lanes) {
  run_unscaled(Network::gs, values, domain, direction, lanes);
}

template <class F>
void scale_by_powers(std::span<F> values, const F& start, const F& base, bool bit_reversed, NttLanes lanes) {
  const std::size_t n = values.size();
  if (n == 0 || !std::has_single_bit(n))
    throw Error(Errc::invalid_argument,
                "scale_by_powers: size " + std::to_string(n) + " is not a power of two");
  const unsigned log_n = static_cast<unsigned>(std::countr_zero(n));
  const unsigned chunk_log = std::min(log_n, 10u);
  const std::size_t chunk = std::size_t{1} << chunk_log;
  const unsigned high_bits = log_n - chunk_log;
  F* data = values.data();
  const bool lanes_apply = on_lanes<F>(lanes, log_n);

  if (!bit_reversed && !lanes_apply) {
    tbb::parallel_for(std::size_t{0}, n >> chunk_log, [&](std::size_t c) {
      F power = start * base.pow(static_cast<std::uint64_t>(c << chunk_log));
      F* out = data + (c << chunk_log);
      for (std::size_t i = 0; i < chunk; ++i) {
        out[i] *= power;
        power *= base;
      }
    });
    return;
  }
  // Chunk c, element i: start·base^e = power(c)·low_powers[i]. In natural order power(c) =
  // start·base^(c·chunk) and low_powers[i] = base^i. Bit-reversed, i = (high, low) with low < chunk:
  // bitrev(i) = bitrev(low)·2^high_bits + bitrev(high), so base^bitrev(i) = low_powers[low] ·
  // base^bitrev(high).
  std::vector<F> natural(chunk), low_powers(chunk);
  F beta = base;
  if (bit_reversed) {
    for (unsigned i = 0; i < high_bits; ++i) beta = beta.squared();
  }
  natural[0] = F::one();
  for (std::size_t i = 1; i < chunk; ++i) natural[i] = natural[i - 1] * beta;
  for (std::size_t i = 0; i < chunk; ++i)
    low_powers[i] = natural[bit_reversed ? reverse_bits(i, chunk_log) : i];
  tbb::parallel_for(std::size_t{0}, n >> chunk_log, [&](std::size_t c) {
    const std::size_t exponent = bit_reversed ? reverse_bits(c, high_bits) : c << chunk_log;
    const F power = start * base.pow(static_cast<std::uint64_t>(exponent));
    F* out = data + (c << chunk_log);
    if (lanes_apply)
      return ifma_scale_by_table(F::modulus.limb, words(out), chunk, words(&power), words(low_powers.data()));
    for (std::size_t i = 0; i < chunk; ++i) out[i] *= power * low_powers[i];
  });
}

template void ntt_nr_unscaled(std::span<Fr>, const Domain&, NttDirection, NttLanes);
template void ntt_nr_unscaled(std::span<bn254::Fr>, const bn254::Domain&, NttDirection, NttLanes);
template void ntt_rn_unscaled(std::span<Fr>, const Domain&, NttDirection, NttLanes);
template void ntt_rn_unscaled(std::span<bn254::Fr>, const bn254::Domain&, NttDirection, NttLanes);
template void scale_by_powers(std::span<Fr>, const Fr&, const Fr&, bool, NttLanes);
template void scale_by_powers(std::span<bn254::Fr>, const bn254::Fr&, const bn254::Fr&, bool, NttLanes);

}  // namespace detail

// ---- public transforms -----------------------------------------------------------------------------------

namespace {

template <class F>
void bit_reverse_any(std::span<F> values);

template <class F>
void ntt_any(std::span<F> values, const BasicDomain<F>& domain, NttDirection direction, NttOrder order,
             bool coset, detail::NttLanes lanes = detail::NttLanes::best) {
  check_size(values, domain, coset ? "coset NTT" : "NTT");
  if (order != NttOrder::NN && order != NttOrder::NR && order != NttOrder::RN && order != NttOrder::RR)
    throw Error(Errc::invalid_argument, "NTT: unknown order " + std::to_string(static_cast<unsigned>(order)));
  if (direction != NttDirection::forward && direction != NttDirection::inverse)
    throw Error(Errc::invalid_argument,
                "NTT: unknown direction " + std::to_string(static_cast<unsigned>(direction)));
  const unsigned log_n = domain.log_size();
  const auto tables = twiddles_for(domain);
  const bool forward = direction == NttDirection::forward;
  const F* twiddles = forward ? tables->forward.data() : tables->inverse.data();
  const bool input_reversed = order == NttOrder::RN || order == NttOrder::RR;
  const bool output_reversed = order == NttOrder::NR || order == NttOrder::RR;

  if (forward && coset) detail::scale_by_powers(values, F::one(), domain.shift(), input_reversed, lanes);
  // The inverse's 1/n rides on the first level pass, or on the coset powers.
  const F* scale = forward || coset ? nullptr : &domain.size_inv();
  switch (order) {
    case NttOrder::NR:
      run_network<F>(Network::ct, values.data(), log_n, twiddles, scale, lanes);
      break;
    case NttOrder::RN:
      run_network<F>(Network::gs, values.data(), log_n, twiddles, scale, lanes);
      break;
    case NttOrder::NN:
      bit_reverse_any(values);
      run_network<F>(Network::gs, values.data(), log_n, twiddles, scale, lanes);
      break;
    case NttOrder::RR:
      bit_reverse_any(values);
      run_network<F>(Network::ct, values.data(), log_n, twiddles, scale, lanes);
      break;
    default:
      throw Error(Errc::internal, "NTT: unreachable order");
  }
  if (!forward && coset)
    detail::scale_by_powers(values, domain.size_inv(), domain.shift_inv(), output_reversed, lanes);
}

template <class F>
void forward_ntt_any(std::span<F> values, const BasicDomain<F>& domain, NttOrder order) {
  ntt_any(values, domain, NttDirection::forward, order, false);
}
template <class F>
void inverse_ntt_any(std::span<F> values, const BasicDomain<F>& domain, NttOrder order) {
  ntt_any(values, domain, NttDirection::inverse, order, false);
}
template <class F>
void coset_forward_ntt_any(std::span<F> values, const BasicDomain<F>& domain, NttOrder order) {
  ntt_any(values, domain, NttDirection::forward, order, true);
}
template <class F>
void coset_inverse_ntt_any(std::span<F> values, const BasicDomain<F>& domain, NttOrder order) {
  ntt_any(values, domain, NttDirection::inverse, order, true);
}

template <class F>
void bit_reverse_any(std::span<F> values) {
  const std::size_t n = values.size();
  if (n == 0 || !std::has_single_bit(n))
    throw Error(Errc::invalid_argument,
                "bit_reverse_permutation: size " + std::to_string(n) + " is not a power of two");
  const unsigned log_n = static_cast<unsigned>(std::countr_zero(n));
  F* data = values.data();
  constexpr unsigned tile_log = 4;  // 16 elements = 512 bytes per run
  if (log_n < 2 * tile_log + 1) {
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t j = reverse_bits(i, log_n);
      if (i < j) std::swap(data[i], data[j]);
    }
    return;
  }
  // i = (high, mid, low) with high, low of tile_log bits: bitrev(i) = (bitrev(low), bitrev(mid),
  // bitrev(high)). Each mid pairs with bitrev(mid); the 16×16 tiles on both sides are runs of 16 adjacent
  // elements.
  const unsigned mid_log = log_n - 2 * tile_log;
  constexpr std::size_t tile = std::size_t{1} << tile_log;
  std::size_t tile_reversed[tile];
  for (std::size_t t = 0; t < tile; ++t) tile_reversed[t] = reverse_bits(t, tile_log);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, std::size_t{1} << mid_log, 16),
                    [&](const tbb::blocked_range<std::size_t>& range) {
                      for (std::size_t mid = range.begin(); mid != range.end(); ++mid) {
                        const std::size_t mid_reversed = reverse_bits(mid, mid_log);
                        if (mid > mid_reversed) continue;
                        for (std::size_t high = 0; high < tile; ++high) {
                          const std::size_t i_base = (high << (mid_log + tile_log)) | (mid << tile_log);
                          const std::size_t j_base = (mid_reversed << tile_log) | tile_reversed[high];
                          for (std::size_t low = 0; low < tile; ++low) {
                            const std::size_t i = i_base | low;
                            const std::size_t j = (tile_reversed[low] << (mid_log + tile_log)) | j_base;
                            if (mid < mid_reversed || i < j) std::swap(data[i], data[j]);
                          }
                        }
                      }
                    });
}

}  // namespace

// The same transforms for each curve's scalar field.

void ntt(std::span<Fr> values, const Domain& domain, NttDirection direction, NttOrder order, bool coset) {
  ntt_any(values, domain, direction, order, coset);
}
void ntt(std::span<bn254::Fr> values, const bn254::Domain& domain, NttDirection direction, NttOrder order,
         bool coset) {
  ntt_any(values, domain, direction, order, coset);
}
void forward_ntt(std::span<Fr> values, const Domain& domain, NttOrder order) {
  forward_ntt_any(values, domain, order);
}
void forward_ntt(std::span<bn254::Fr> values, const bn254::Domain& domain, NttOrder order) {
  forward_ntt_any(values, domain, order);
}
void inverse_ntt(std::span<Fr> values, const Domain& domain, NttOrder order) {
  inverse_ntt_any(values, domain, order);
}
void inverse_ntt(std::span<bn254::Fr> values, const bn254::Domain& domain, NttOrder order) {
  inverse_ntt_any(values, domain, order);
}
void coset_forward_ntt(std::span<Fr> values, const Domain& domain, NttOrder order) {
  coset_forward_ntt_any(values, domain, order);
}
void coset_forward_ntt(std::span<bn254::Fr> values, const bn254::Domain& domain, NttOrder order) {
  coset_forward_ntt_any(values, domain, order);
}
void coset_inverse_ntt(std::span<Fr> values, const Domain& domain, NttOrder order) {
  coset_inverse_ntt_any(values, domain, order);
}
void coset_inverse_ntt(std::span<bn254::Fr> values, const bn254::Domain& domain, NttOrder order) {
  coset_inverse_ntt_any(values, domain, order);
}
void bit_reverse_permutation(std::span<Fr> values) {
  bit_reverse_any(values);
}
void bit_reverse_permutation(std::span<bn254::Fr> values) {
  bit_reverse_any(values);
}

namespace detail {

template <class F>
void ntt_with(std::span<F> values, const BasicDomain<F>& domain, NttDirection direction, NttOrder order,
              bool coset, NttLanes lanes) {
  ntt_any(values, domain, direction, order, coset, lanes);
}

template void ntt_with(std::span<Fr>, const Domain&, NttDirection, NttOrder, bool, NttLanes);
template void ntt_with(std::span<bn254::Fr>, const bn254::Domain&, NttDirection, NttOrder, bool, NttLanes);

}  // namespace detail

void release_ntt_twiddles() {
  twiddle_cache<Fr>().release();
  twiddle_cache<bn254::Fr>().release();
}

}  // namespace proofline::cpu
