// Internal: Groth16's H for domains below the four-step NTT's smallest size (2^1 .. 2^9 rows), the sizes of
// small circuits (circom's examples, a user's first test). One thread block does all of it in shared memory,
// radix-2 stage by stage, the steps of cpu::compute_h: interpolate a, b and c, move their coefficients to the
// coset, evaluate there, a·b − c, and in generator 7's convention interpolate that from the coset and divide
// by Z(g). Such an H costs microseconds, so this is written to be plainly right rather than fast.
//
// The work is a sequence of phases, each data-parallel over its threads: the kernel runs phase p on every
// thread with a barrier after it, the host emulation (run_small_h_on_host, for the CPU tests) runs it on one
// thread that takes every index. Host+device code templated on the scalar field F (either curve's Fr).
#pragma once

#include <cstdint>
#include <vector>

#include <proofline/cuda/kernels/detail/ntt_pass_body.hpp>

namespace proofline::cuda::detail {

inline constexpr int kSmallHMaxLogN = 9;
inline constexpr unsigned kSmallHThreads = 256;

template <class F>
struct SmallHArgs {
  F* vectors[3] = {};  ///< a, b, c (device memory, natural order); the result lands in a
  std::uint8_t log_n = 0;
  bool generator7 = false;
  const F* roots[2] = {};   ///< w_n^e for e < n/2: [0] forward, [1] inverse
  const F* up = nullptr;    ///< g^j / n for j < n: interpolated coefficients onto the coset
  const F* down = nullptr;  ///< generator 7: g^-j / (n·Z(g)) for j < n: the final interpolation's scale
};

/// Shared memory of the block: the three vectors.
PL_HD_INLINE constexpr std::uint32_t small_h_smem_bytes(unsigned log_n) {
  return 3u * (1u << log_n) * 32u;
}
// Within the 48 KiB a launch may take without raising the kernel's limit.
static_assert(small_h_smem_bytes(kSmallHMaxLogN) <= 48u * 1024u);

/// Phases: load, log_n interpolation stages, coset scale, log_n evaluation stages, a·b − c, (generator 7:
/// log_n interpolation stages of a), store.
template <class F>
PL_HD_INLINE unsigned small_h_phases(const SmallHArgs<F>& a) {
  return (a.generator7 ? 3u : 2u) * a.log_n + 4u;
}

/// One radix-2 stage over the first `count` vectors: Gentleman-Sande (natural in, bit-reversed out after the
/// last stage) or Cooley-Tukey (bit-reversed in, natural out), butterflies of half-span h = 2^log_h with the
/// roots of direction dir.
template <class F>
PL_HD_INLINE void small_h_stage(const SmallHArgs<F>& a, F* sm, unsigned count, bool dif, unsigned log_h,
                                int dir, std::uint32_t t, std::uint32_t threads) {
  const std::uint32_t n = 1u << a.log_n, half = n >> 1, h = 1u << log_h;
  for (std::uint32_t q = t; q < count * half; q += threads) {
    const std::uint32_t v = q / half, k = q % half, r = k & (h - 1u);
    const std::uint32_t i = v * n + ((k >> log_h) << (log_h + 1)) + r, j = i + h;
    // w_2h^r = w_n^(r·n/2h)
    const F w = load_table(a.roots[dir] + (r << (a.log_n - 1 - log_h)));
    if (dif) {
      const F u = sm[i], x = sm[j];
      sm[i] = u + x;
      sm[j] = r == 0 ? u - x : (u - x) * w;
    } else {
      const F u = sm[i], x = r == 0 ? sm[j] : sm[j] * w;
      sm[i] = u + x;
      sm[j] = u - x;
    }
  }
}

/// Phase p of the block for thread t of `threads`.
template <class F>
PL_HD_INLINE void small_h_phase(const SmallHArgs<F>& a, F* sm, unsigned p, std::uint32_t t,
                                std::uint32_t threads) {
  const unsigned L = a.log_n;
  const std::uint32_t n = 1u << L;
  if (p == 0) {
    for (std::uint32_t i = t; i < 3 * n; i += threads)
      sm[i] = load_global(a.vectors[i >> L] + (i & (n - 1u)));
  } else if (p <= L) {
    small_h_stage(a, sm, 3, true, L - p, 1, t, threads);  // interpolate: slot s holds n·coefficient bitrev(s)
  } else if (p == L + 1) {
    for (std::uint32_t i = t; i < 3 * n; i += threads)
      sm[i] = sm[i] * load_table(a.up + bit_reverse(i & (n - 1u), L));
  } else if (p <= 2 * L + 1) {
    small_h_stage(a, sm, 3, false, p - L - 2, 0, t, threads);  // evaluate on the coset, natural order
  } else if (p == 2 * L + 2) {
    for (std::uint32_t i = t; i < n; i += threads) sm[i] = sm[i] * sm[n + i] - sm[2 * n + i];
  } else if (a.generator7 && p <= 3 * L + 2) {
    small_h_stage(a, sm, 1, true, 3 * L + 2 - p, 1, t, threads);  // interpolate a·b − c from the coset
  } else {
    for (std::uint32_t s = t; s < n; s += threads) {
      if (a.generator7) {
        const std::uint32_t j = bit_reverse(s, L);
        store_global(a.vectors[0] + j, sm[s] * load_table(a.down + j));
      } else {
        store_global(a.vectors[0] + s, sm[s]);
      }
    }
  }
}

#if !defined(__CUDA_ARCH__)
/// The kernel's phases on the host, one thread taking every index (for tests).
template <class F>
inline void run_small_h_on_host(const SmallHArgs<F>& a) {
  std::vector<F> sm(3u << a.log_n);
  for (unsigned p = 0; p < small_h_phases(a); ++p) small_h_phase(a, sm.data(), p, 0, 1);
}
#endif

}  // namespace proofline::cuda::detail
