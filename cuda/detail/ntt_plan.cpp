#include <proofline/cuda/detail/ntt_plan.hpp>

#include <algorithm>
#include <numeric>
#include <string>

#include <proofline/arith/bn254/fr.hpp>
#include <proofline/arith/fr.hpp>
#include <proofline/cuda/kernels/detail/ntt_pass_body.hpp>
#include <proofline/util/error.hpp>

namespace proofline::cuda::detail {

namespace {

template <class F>
std::vector<F> powers(const F& start, const F& base, std::size_t count) {
  std::vector<F> out(count);
  F x = start;
  for (std::size_t i = 0; i < count; ++i) {
    out[i] = x;
    x *= base;
  }
  return out;
}

template <class F>
F pow2k(F x, unsigned k) {
  for (unsigned i = 0; i < k; ++i) x = x.squared();
  return x;
}

/// The original register of register j after `times` rotations of the kRegBits register bits.
unsigned rotate_registers(unsigned j, unsigned times) {
  for (unsigned i = 0; i < times; ++i) j = ((j & 1u) << (kRegBits - 1)) | (j >> 1);
  return j;
}

/// The lanes' tile bits can all have distinct residues mod 5 unless `taken` covers a whole residue class.
bool lanes_feasible(unsigned tile_bits, unsigned taken) {
  const unsigned lanes = std::min(5u, tile_bits - kRegBits);
  unsigned residues = 0;
  for (unsigned p = 0; p < tile_bits; ++p)
    if (!((taken >> p) & 1u)) residues |= 1u << (p % 5);
  return static_cast<unsigned>(__builtin_popcount(residues)) >= lanes;
}

/// Where a round's bits sit in the tile: reg_pos[i] is the tile bit of register bit i, `taken` the tile bits
/// already given to registers (or, later, to threads).
struct RoundLayout {
  unsigned reg_pos[kRegBits] = {};
  unsigned taken = 0;
};

/// Group bits sit above the column bits in a tile with lo bits, columns above the group bits otherwise.
template <class F>
unsigned group_shift(const PassArgs<F>& a) {
  return a.lo_bits > 0 ? a.log_c : 0;
}
template <class F>
unsigned column_shift(const PassArgs<F>& a) {
  return a.lo_bits > 0 ? 0 : a.k;
}

/// The lanes of a warp: the thread bits below the warp bits, five at most.
template <class F>
unsigned lane_count(const PassArgs<F>& a) {
  return std::min(5u, a.tile_bits - static_cast<unsigned>(kRegBits));
}

template <class F>
void place_round_stages(const PassArgs<F>& a, unsigned b, unsigned r, RoundPlan& rp, RoundLayout& layout) {
  const unsigned s_shift = group_shift(a);
  // The top register bit holds stage 0's bit, the next stage 1's, ... (or bits outside the round).
  for (unsigned st = 0; st < r; ++st) {
    const unsigned bit = a.dif ? b + r - 1 - st : b + st;
    rp.log_h[st] = static_cast<std::uint8_t>(bit);
    layout.reg_pos[kRegBits - 1 - st] = s_shift + bit;
    layout.taken |= 1u << (s_shift + bit);
  }
}

/// The first candidate not yet taken whose choice keeps the lanes feasible, else the first not taken, else
/// ~0u.
template <class F>
unsigned pick_extra_register_bit(const PassArgs<F>& a, const std::vector<unsigned>& candidates,
                                 unsigned taken) {
  for (unsigned p : candidates)
    if (!((taken >> p) & 1u) && lanes_feasible(a.tile_bits, taken | (1u << p))) return p;
  for (unsigned p : candidates)
    if (!((taken >> p) & 1u)) return p;
  return ~0u;
}

template <class F>
void place_extra_register_bits(const PassArgs<F>& a, unsigned b, unsigned r, RoundLayout& layout) {
  if (r >= kRegBits) return;
  const unsigned s_shift = group_shift(a);
  const unsigned c_shift = column_shift(a);
  // Extra register bits: columns first (they leave the twiddles alone), then group bits above the round,
  // then below; keep a free position in every residue class so the lanes stay conflict-free.
  std::vector<unsigned> candidates;
  for (unsigned i = a.log_c; i-- > 0;) candidates.push_back(c_shift + i);
  for (unsigned q = b + r; q < a.k; ++q) candidates.push_back(s_shift + q);
  for (unsigned q = b; q-- > 0;) candidates.push_back(s_shift + q);
  for (unsigned st = r; st < kRegBits; ++st) {
    const unsigned pick = pick_extra_register_bit(a, candidates, layout.taken);
    if (pick == ~0u) throw Error(Errc::internal, "GPU NTT plan: tile too small for a round");
    layout.reg_pos[kRegBits - 1 - st] = pick;
    layout.taken |= 1u << pick;
  }
}

/// The tile bits kept for the warp bits (none if they cannot all be kept); also marks them taken.
template <class F>
unsigned reserve_warp_bits(const PassArgs<F>& a, unsigned b, const RoundPlan& rp, RoundLayout& layout) {
  const unsigned s_shift = group_shift(a);
  // Warp bits (thread bits above the lanes): when they can hold all group bits below the round, they do, so
  // the round's twiddle indices s mod h are uniform across a warp and the warps whose twiddle is 1 skip the
  // multiplication instead of running it with those lanes masked (a quarter and an eighth of the round
  // b = 2's butterflies).
  const unsigned warp_bits = rp.thread_bits - lane_count(a);
  unsigned reserved = 0;
  if (b > 0 && b <= warp_bits) {
    bool free = true;
    for (unsigned q = 0; q < b; ++q) free = free && !((layout.taken >> (s_shift + q)) & 1u);
    if (free)
      for (unsigned q = 0; q < b; ++q) reserved |= 1u << (s_shift + q);
  }
  layout.taken |= reserved;
  return reserved;
}

template <class F>
void place_thread_bits(const PassArgs<F>& a, unsigned reserved, RoundPlan& rp, RoundLayout& layout) {
  const unsigned lanes = lane_count(a);
  unsigned& taken = layout.taken;
  // Thread bits: lane bit i on a position of residue i where possible, then the reserved warp bits, then the
  // rest from the bottom up.
  unsigned count = 0;
  for (unsigned residue = 0; residue < 5 && count < lanes; ++residue)
    for (unsigned p = residue; p < a.tile_bits; p += 5)
      if (!((taken >> p) & 1u)) {
        rp.thread_pos[count++] = static_cast<std::uint8_t>(p);
        taken |= 1u << p;
        break;
      }
  for (unsigned p = 0; p < a.tile_bits && count < lanes; ++p)
    if (!((taken >> p) & 1u)) {
      rp.thread_pos[count++] = static_cast<std::uint8_t>(p);
      taken |= 1u << p;
    }
  for (unsigned p = 0; p < a.tile_bits; ++p)
    if ((reserved >> p) & 1u) rp.thread_pos[count++] = static_cast<std::uint8_t>(p);
  for (unsigned p = 0; p < a.tile_bits; ++p)
    if (!((taken >> p) & 1u)) {
      rp.thread_pos[count++] = static_cast<std::uint8_t>(p);
      taken |= 1u << p;
    }
  if (count != rp.thread_bits) throw Error(Errc::internal, "GPU NTT plan: thread bits do not cover the tile");
}

template <class F>
void fill_register_offsets(const PassArgs<F>& a, const RoundLayout& layout, RoundPlan& rp) {
  std::uint32_t s_off[kRegs];
  for (unsigned o = 0; o < kRegs; ++o) {
    std::uint32_t e = 0;
    for (unsigned i = 0; i < kRegBits; ++i)
      if ((o >> i) & 1u) e |= 1u << layout.reg_pos[i];
    rp.e_off[o] = static_cast<std::uint16_t>(e);
    rp.phys_off[o] = static_cast<std::uint16_t>(swizzle(e));
    s_off[o] = group_index(a, e);
  }
  for (unsigned st = 0; st < kRegBits; ++st)
    for (unsigned j = 0; j < kRegs / 2; ++j)
      rp.s_add[st][j] = static_cast<std::uint16_t>(s_off[rotate_registers(j, st)]);
}

template <class F>
RoundPlan make_round(const PassArgs<F>& a, unsigned b, unsigned r) {
  RoundPlan rp;
  rp.stages = static_cast<std::uint8_t>(r);
  rp.thread_bits = static_cast<std::uint8_t>(a.tile_bits - kRegBits);
  RoundLayout layout;
  place_round_stages(a, b, r, rp, layout);
  place_extra_register_bits(a, b, r, layout);
  const unsigned reserved = reserve_warp_bits(a, b, rp, layout);
  place_thread_bits(a, reserved, rp, layout);
  fill_register_offsets(a, layout, rp);
  return rp;
}

template <class F>
void make_rounds(PassArgs<F>& a) {
  const unsigned k = a.k, rem = k % kRegBits;
  std::vector<unsigned> sizes(k / kRegBits, static_cast<unsigned>(kRegBits));
  if (rem != 0) {
    if (a.dif)
      sizes.insert(sizes.begin(), rem);  // DIF: the short round on top, the cheap full one (b = 0) last
    else
      sizes.push_back(rem);  // DIT: the cheap full round (b = 0) first
  }
  if (sizes.size() > static_cast<std::size_t>(kMaxRounds))
    throw Error(Errc::internal, "GPU NTT plan: too many rounds");
  a.rounds = static_cast<std::uint8_t>(sizes.size());
  unsigned covered = 0;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const unsigned r = sizes[i];
    const unsigned b = a.dif ? k - covered - r : covered;
    a.round[i] = make_round(a, b, r);
    covered += r;
  }
}

}  // namespace

std::vector<int> default_split(int log_n) {
  if (log_n < kMinLogN || log_n > kMaxLogN)
    throw Error(Errc::invalid_argument, "GPU NTT: log2 size " + std::to_string(log_n) + " is outside " +
                                            std::to_string(kMinLogN) + ".." + std::to_string(kMaxLogN));
  const int passes = (log_n + kMaxTileBits - 1) / kMaxTileBits;
  std::vector<int> split(static_cast<std::size_t>(passes), log_n / passes);
  for (int i = 0; i < log_n % passes; ++i) ++split[static_cast<std::size_t>(i)];
  return split;
}

template <class F>
HostRootTables<F> build_root_tables(HConvention convention) {
  HostRootTables<F> tables;
  const F w = pow2k(two_adic_root<F>(convention), NttField<F>::two_adicity - kRootLogOrder);
  const F roots[2] = {w, w.inverse()};
  const std::size_t count = std::size_t{1} << kPowerLoBits;
  for (int d = 0; d < 2; ++d) {
    tables.lo[d] = powers(F::one(), roots[d], count);
    tables.hi[d] = powers(F::one(), pow2k(roots[d], kPowerLoBits), count);
  }
  return tables;
}

template <class F>
std::vector<F> build_top_diagonal(const HostRootTables<F>& roots, std::span<const int> split, int dir) {
  if (split.size() < 2) throw Error(Errc::internal, "GPU NTT plan: a top diagonal needs two passes or more");
  const unsigned k = static_cast<unsigned>(split[0]);
  const unsigned lo_bits = static_cast<unsigned>(std::accumulate(split.begin() + 1, split.end(), 0));
  std::vector<F> out(std::size_t{1} << (lo_bits + k));
  for (std::uint32_t i = 0; i < out.size(); ++i)
    out[i] = diagonal_entry(roots.hi[dir].data(), roots.lo[dir].data(), lo_bits, k, i);
  return out;
}

template <class F>
HostSizeTables<F> build_size_tables(const BasicDomain<F>& domain, std::span<const int> split) {
  HostSizeTables<F> t;
  t.log_n = static_cast<int>(domain.log_size());
  t.split = split.empty() ? default_split(t.log_n) : std::vector<int>(split.begin(), split.end());
  if (std::accumulate(t.split.begin(), t.split.end(), 0) != t.log_n || t.split.size() > 3)
    throw Error(Errc::internal, "GPU NTT plan: a split must be at most 3 passes adding up to log2 n");
  const std::size_t n = domain.size();

  t.inv_scale = domain.size_inv();
  if (t.split.size() == 3) {
    // The middle pass's diagonal, w_N'^(lo·bitrev(s)) for N' = 2^(k2 + k3), as a full table.
    const int k2 = t.split[1], k3 = t.split[2];
    t.d_full_log = k2 + k3;
    const F w = domain.omega().pow(std::uint64_t{1} << (t.log_n - t.d_full_log));
    const F bases[2] = {w, w.inverse()};
    const F starts[2] = {F::one(), domain.size_inv()};
    for (int d = 0; d < 2; ++d) {
      t.d_full[d].resize(std::size_t{1} << t.d_full_log);
      for (std::uint32_t s = 0; s < (1u << k2); ++s) {
        const F step = bases[d].pow(bit_reverse(s, static_cast<unsigned>(k2)));
        F x = starts[d];
        for (std::uint32_t lo = 0; lo < (1u << k3); ++lo) {
          t.d_full[d][(static_cast<std::size_t>(s) << k3) + lo] = x;
          x *= step;
        }
      }
    }
    t.inv_scale = F::one();
  }

  const F g = domain.shift(), g_inv = domain.shift_inv();
  const std::size_t lo_count = std::min<std::size_t>(n, std::size_t{1} << kPowerLoBits);
  const std::size_t hi_count = std::max<std::size_t>(1, n >> kPowerLoBits);
  t.coset_lo[0] = powers(F::one(), g, lo_count);
  t.coset_lo[1] = powers(F::one(), g_inv, lo_count);
  const F big = pow2k(g, kPowerLoBits), big_inv = pow2k(g_inv, kPowerLoBits);
  t.hi_coset_fwd = powers(F::one(), big, hi_count);
  t.hi_coset_inv = powers(t.inv_scale, big_inv, hi_count);
  t.hi_h_a = powers(t.inv_scale, big, hi_count);
  const F bc = domain.convention() == HConvention::generator7 ? domain.vanishing_on_coset_inv() : F::one();
  t.hi_h_bc = powers(t.inv_scale * bc, big, hi_count);
  t.h_c_scale = t.inv_scale * bc;
  if (domain.convention() == HConvention::generator7) t.hi_h_down = powers(t.h_c_scale, big_inv, hi_count);
  return t;
}

template <class F>
std::vector<F> build_reversed_powers(const F* hi, const F* lo, int log_n) {
  std::vector<F> out(std::size_t{1} << log_n);
  for (std::uint32_t pos = 0; pos < out.size(); ++pos)
    out[pos] = reversed_power_entry(hi, lo, static_cast<unsigned>(log_n), pos);
  return out;
}

template <class F>
HostSmallHTables<F> build_small_h_tables(const BasicDomain<F>& domain) {
  HostSmallHTables<F> t;
  const std::size_t n = domain.size();
  t.roots[0] = powers(F::one(), domain.omega(), n / 2);
  t.roots[1] = powers(F::one(), domain.omega_inv(), n / 2);
  t.up = powers(domain.size_inv(), domain.shift(), n);
  if (domain.convention() == HConvention::generator7)
    t.down = powers(domain.size_inv() * domain.vanishing_on_coset_inv(), domain.shift_inv(), n);
  return t;
}

template <class F>
std::vector<PassArgs<F>> plan_transform(const SizeTableView<F>& tables, std::span<F* const> data,
                                        NttDirection direction, bool dif, const Scale<F>& first_in,
                                        const Scale<F>& last_out, int tile_bits) {
  if (data.empty() || data.size() > 3) throw Error(Errc::internal, "GPU NTT plan: batch of 1 to 3 vectors");
  const int log_n = tables.log_n;
  const int dir = direction == NttDirection::forward ? 0 : 1;
  const std::size_t passes = tables.split.size();
  std::vector<PassArgs<F>> out(passes);
  for (std::size_t i = 0; i < passes; ++i) {
    // Pass p in top-down order handles split[p] bits above the bits of the passes after it.
    const std::size_t p = dif ? i : passes - 1 - i;
    int below = 0;
    for (std::size_t q = p + 1; q < passes; ++q) below += tables.split[q];
    PassArgs<F>& a = out[i];
    for (std::size_t v = 0; v < data.size(); ++v) a.data[v] = data[v];
    a.batch = static_cast<int>(data.size());
    a.log_n = static_cast<std::uint8_t>(log_n);
    a.k = static_cast<std::uint8_t>(tables.split[p]);
    a.lo_bits = static_cast<std::uint8_t>(below);
    const int max_c = below > 0 ? below : log_n - a.k;
    const int log_c = std::max(0, std::min(tile_bits - static_cast<int>(a.k), max_c));
    a.log_c = static_cast<std::uint8_t>(log_c);
    a.tile_bits = static_cast<std::uint8_t>(a.k + log_c);
    if (a.tile_bits < 3 || a.tile_bits > kMaxTileBits)
      throw Error(Errc::internal, "GPU NTT plan: tile of 2^" + std::to_string(a.tile_bits) + " elements");
    a.dif = dif;
    a.root_hi = tables.root_hi[dir];
    a.root_lo = tables.root_lo[dir];
    if (below > 0 && below + a.k == tables.d_full_log) a.d_full = tables.d_full[dir];
    if (below > 0 && below + a.k == log_n) a.d_full = tables.d_top[dir];  // null: two root powers
    if (i == 0) a.in_scale = first_in;
    if (i + 1 == passes) a.out_scale = last_out;
    make_rounds(a);
  }
  return out;
}

template <class F>
Scale<F> coset_forward_scale(const SizeTableView<F>& tables, bool reversed) {
  Scale<F> s;
  s.kind = ScaleKind::powers;
  s.reversed = reversed;
  for (auto& hi : s.hi) hi = tables.hi_coset_fwd;
  s.lo = tables.coset_lo[0];
  return s;
}

template <class F>
Scale<F> inverse_scale(const SizeTableView<F>& tables, bool coset, bool reversed) {
  Scale<F> s;
  if (coset) {
    s.kind = ScaleKind::powers;
    s.reversed = reversed;
    for (auto& hi : s.hi) hi = tables.hi_coset_inv;
    s.lo = tables.coset_lo[1];
  } else if (!tables.inv_scale.is_one()) {
    s.kind = ScaleKind::constant;
    for (auto& c : s.constant) c = tables.inv_scale;
  }
  return s;
}

namespace {

template <class F>
void append_passes(std::vector<Launch<F>>& launches, std::vector<PassArgs<F>> passes) {
  for (PassArgs<F>& pass : passes) {
    Launch<F> launch;
    launch.pass = pass;
    launches.push_back(launch);
  }
}

template <class F>
void append_bitrev(std::vector<Launch<F>>& launches, F* data, int log_n) {
  Launch<F> launch;
  launch.is_pass = false;
  launch.bitrev.data[0] = data;
  launch.bitrev.batch = 1;
  launch.bitrev.log_n = static_cast<std::uint8_t>(log_n);
  launches.push_back(launch);
}

}  // namespace

template <class F>
std::vector<Launch<F>> plan_ntt(const SizeTableView<F>& tables, F* data, NttDirection direction,
                                NttOrder order, bool coset, int tile_bits) {
  // NN is NR then a bit reversal, RR a bit reversal then NR.
  const bool dif = order != NttOrder::RN;
  const bool forward = direction == NttDirection::forward;
  const Scale<F> in = forward && coset ? coset_forward_scale(tables, !dif) : Scale<F>{};
  const Scale<F> out = forward ? Scale<F>{} : inverse_scale(tables, coset, dif);
  std::vector<Launch<F>> launches;
  F* const vectors[1] = {data};
  if (order == NttOrder::RR) append_bitrev(launches, data, tables.log_n);
  append_passes(launches, plan_transform<F>(tables, vectors, direction, dif, in, out, tile_bits));
  if (order == NttOrder::NN) append_bitrev(launches, data, tables.log_n);
  return launches;
}

template <class F>
std::vector<Launch<F>> plan_h(const SizeTableView<F>& tables, HConvention convention, F* a, F* b, F* c,
                              int tile_bits) {
  const bool generator7 = convention == HConvention::generator7;
  std::vector<Launch<F>> launches;
  // 1. Interpolate all three (natural -> bit-reversed coefficients): a scaled by g^j/n, b by g^j/(n·Z(g))
  //    (generator7; snarkjs's Z(g) factor is 1), c like b in snarkjs's convention and by 1/(n·Z(g)) alone in
  //    generator7's, where its coefficients are subtracted at the end instead of evaluated on the coset.
  //    With the full tables (one multiplication an element instead of two) generator7's 1/Z(g) moves from b
  //    to the final interpolation's table, so that a and b share one table.
  const bool full_tables = tables.h_up != nullptr && (!generator7 || tables.h_down != nullptr);
  Scale<F> to_coset;
  if (full_tables) {
    to_coset.kind = ScaleKind::table;
    to_coset.hi[0] = to_coset.hi[1] = to_coset.hi[2] = tables.h_up;
  } else {
    to_coset.kind = ScaleKind::powers;
    to_coset.reversed = true;
    to_coset.hi[0] = tables.hi_h_a;
    to_coset.hi[1] = to_coset.hi[2] = tables.hi_h_bc;
    to_coset.lo = tables.coset_lo[0];
  }
  if (generator7) {
    to_coset.hi[2] = nullptr;
    to_coset.constant[2] = tables.h_c_scale;
  }
  F* const abc[3] = {a, b, c};
  append_passes(launches,
                plan_transform<F>(tables, abc, NttDirection::inverse, true, Scale<F>{}, to_coset, tile_bits));

  // 2. Evaluate on the coset (bit-reversed in, natural out). The last pass of one vector waits for the
  //    others' and folds in the pointwise step, written to a: snarkjs a·b − c, generator7 a·b.
  const auto forward = [&](std::span<F* const> vectors) {
    return plan_transform<F>(tables, vectors, NttDirection::forward, false, Scale<F>{}, Scale<F>{},
                             tile_bits);
  };
  std::vector<PassArgs<F>> all = forward(std::span<F* const>(abc, generator7 ? 2 : 3));
  all.pop_back();
  append_passes(launches, std::move(all));
  F* const others_g7[1] = {b};
  F* const others_snarkjs[2] = {a, b};
  F* const fused_vector[1] = {generator7 ? a : c};
  append_passes(launches, {forward(generator7 ? std::span<F* const>(others_g7) : others_snarkjs).back()});
  PassArgs<F> fused = forward(fused_vector).back();
  fused.pw_op = generator7 ? Pointwise::value_times_b : Pointwise::ab_minus_value;
  fused.pw_a = a;
  fused.pw_b = b;
  fused.pw_out = a;
  append_passes(launches, {fused});
  if (!generator7) return launches;

  // 3. generator7: interpolate a·b/Z(g) from the coset (times g^-j/n), subtract C/Z(g), then natural order.
  Scale<F> from_coset = inverse_scale(tables, true, true);
  if (full_tables) {
    from_coset = Scale<F>{};
    from_coset.kind = ScaleKind::table;
    from_coset.hi[0] = tables.h_down;
  }
  F* const only_a[1] = {a};
  std::vector<PassArgs<F>> final_inverse =
      plan_transform<F>(tables, only_a, NttDirection::inverse, true, Scale<F>{}, from_coset, tile_bits);
  final_inverse.back().pw_op = Pointwise::value_minus_b;
  final_inverse.back().pw_b = c;
  final_inverse.back().pw_out = a;
  append_passes(launches, std::move(final_inverse));
  append_bitrev(launches, a, tables.log_n);
  return launches;
}

// Both curves' scalar fields.
template HostRootTables<Fr> build_root_tables<Fr>(HConvention);
template std::vector<Fr> build_top_diagonal(const HostRootTables<Fr>&, std::span<const int>, int);
template HostSizeTables<Fr> build_size_tables(const BasicDomain<Fr>&, std::span<const int>);
template std::vector<Fr> build_reversed_powers(const Fr*, const Fr*, int);
template HostSmallHTables<Fr> build_small_h_tables(const BasicDomain<Fr>&);
template std::vector<PassArgs<Fr>> plan_transform(const SizeTableView<Fr>&, std::span<Fr* const>,
                                                  NttDirection, bool, const Scale<Fr>&, const Scale<Fr>&,
                                                  int);
template Scale<Fr> coset_forward_scale(const SizeTableView<Fr>&, bool);
template Scale<Fr> inverse_scale(const SizeTableView<Fr>&, bool, bool);
template std::vector<Launch<Fr>> plan_ntt(const SizeTableView<Fr>&, Fr*, NttDirection, NttOrder, bool, int);
template std::vector<Launch<Fr>> plan_h(const SizeTableView<Fr>&, HConvention, Fr*, Fr*, Fr*, int);

template HostRootTables<bn254::Fr> build_root_tables<bn254::Fr>(HConvention);
template std::vector<bn254::Fr> build_top_diagonal(const HostRootTables<bn254::Fr>&, std::span<const int>,
                                                   int);
template HostSizeTables<bn254::Fr> build_size_tables(const BasicDomain<bn254::Fr>&, std::span<const int>);
template std::vector<bn254::Fr> build_reversed_powers(const bn254::Fr*, const bn254::Fr*, int);
template HostSmallHTables<bn254::Fr> build_small_h_tables(const BasicDomain<bn254::Fr>&);
template std::vector<PassArgs<bn254::Fr>> plan_transform(const SizeTableView<bn254::Fr>&,
                                                         std::span<bn254::Fr* const>, NttDirection, bool,
                                                         const Scale<bn254::Fr>&, const Scale<bn254::Fr>&,
                                                         int);
template Scale<bn254::Fr> coset_forward_scale(const SizeTableView<bn254::Fr>&, bool);
template Scale<bn254::Fr> inverse_scale(const SizeTableView<bn254::Fr>&, bool, bool);
template std::vector<Launch<bn254::Fr>> plan_ntt(const SizeTableView<bn254::Fr>&, bn254::Fr*, NttDirection,
                                                 NttOrder, bool, int);
template std::vector<Launch<bn254::Fr>> plan_h(const SizeTableView<bn254::Fr>&, HConvention, bn254::Fr*,
                                               bn254::Fr*, bn254::Fr*, int);

}  // namespace proofline::cuda::detail
