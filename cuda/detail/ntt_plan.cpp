#include <proofline/cuda/detail/ntt_plan.hpp>

#include <algorithm>
#include <numeric>
#include <string>

#include <proofline/cuda/kernels/detail/ntt_pass_body.hpp>
#include <proofline/util/error.hpp>

namespace proofline::cuda::detail {

namespace {

std::vector<Fr> powers(const Fr& start, const Fr& base, std::size_t count) {
  std::vector<Fr> out(count);
  Fr x = start;
  for (std::size_t i = 0; i < count; ++i) {
    out[i] = x;
    x *= base;
  }
  return out;
}

Fr pow2k(Fr x, unsigned k) {
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
unsigned group_shift(const PassArgs& a) {
  return a.lo_bits > 0 ? a.log_c : 0;
}
unsigned column_shift(const PassArgs& a) {
  return a.lo_bits > 0 ? 0 : a.k;
}

/// The lanes of a warp: the thread bits below the warp bits, five at most.
unsigned lane_count(const PassArgs& a) {
  return std::min(5u, a.tile_bits - static_cast<unsigned>(kRegBits));
}

void place_round_stages(const PassArgs& a, unsigned b, unsigned r, RoundPlan& rp, RoundLayout& layout) {
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
unsigned pick_extra_register_bit(const PassArgs& a, const std::vector<unsigned>& candidates, unsigned taken) {
  for (unsigned p : candidates)
    if (!((taken >> p) & 1u) && lanes_feasible(a.tile_bits, taken | (1u << p))) return p;
  for (unsigned p : candidates)
    if (!((taken >> p) & 1u)) return p;
  return ~0u;
}

void place_extra_register_bits(const PassArgs& a, unsigned b, unsigned r, RoundLayout& layout) {
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
unsigned reserve_warp_bits(const PassArgs& a, unsigned b, const RoundPlan& rp, RoundLayout& layout) {
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

void place_thread_bits(const PassArgs& a, unsigned reserved, RoundPlan& rp, RoundLayout& layout) {
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

void fill_register_offsets(const PassArgs& a, const RoundLayout& layout, RoundPlan& rp) {
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

RoundPlan make_round(const PassArgs& a, unsigned b, unsigned r) {
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

void make_rounds(PassArgs& a) {
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

HostRootTables build_root_tables(HConvention convention) {
  HostRootTables tables;
  const Fr w = pow2k(two_adic_root(convention), fr_two_adicity - kRootLogOrder);
  const Fr roots[2] = {w, w.inverse()};
  const std::size_t count = std::size_t{1} << kPowerLoBits;
  for (int d = 0; d < 2; ++d) {
    tables.lo[d] = powers(Fr::one(), roots[d], count);
    tables.hi[d] = powers(Fr::one(), pow2k(roots[d], kPowerLoBits), count);
  }
  return tables;
}

std::vector<Fr> build_top_diagonal(const HostRootTables& roots, std::span<const int> split, int dir) {
  if (split.size() < 2) throw Error(Errc::internal, "GPU NTT plan: a top diagonal needs two passes or more");
  const unsigned k = static_cast<unsigned>(split[0]);
  const unsigned lo_bits = static_cast<unsigned>(std::accumulate(split.begin() + 1, split.end(), 0));
  std::vector<Fr> out(std::size_t{1} << (lo_bits + k));
  for (std::uint32_t i = 0; i < out.size(); ++i)
    out[i] = diagonal_entry(roots.hi[dir].data(), roots.lo[dir].data(), lo_bits, k, i);
  return out;
}

HostSizeTables build_size_tables(const Domain& domain, std::span<const int> split) {
  HostSizeTables t;
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
    const Fr w = domain.omega().pow(std::uint64_t{1} << (t.log_n - t.d_full_log));
    const Fr bases[2] = {w, w.inverse()};
    const Fr starts[2] = {Fr::one(), domain.size_inv()};
    for (int d = 0; d < 2; ++d) {
      t.d_full[d].resize(std::size_t{1} << t.d_full_log);
      for (std::uint32_t s = 0; s < (1u << k2); ++s) {
        const Fr step = bases[d].pow(bit_reverse(s, static_cast<unsigned>(k2)));
        Fr x = starts[d];
        for (std::uint32_t lo = 0; lo < (1u << k3); ++lo) {
          t.d_full[d][(static_cast<std::size_t>(s) << k3) + lo] = x;
          x *= step;
        }
      }
    }
    t.inv_scale = Fr::one();
  }

  const Fr g = domain.shift(), g_inv = domain.shift_inv();
  const std::size_t lo_count = std::min<std::size_t>(n, std::size_t{1} << kPowerLoBits);
  const std::size_t hi_count = std::max<std::size_t>(1, n >> kPowerLoBits);
  t.coset_lo[0] = powers(Fr::one(), g, lo_count);
  t.coset_lo[1] = powers(Fr::one(), g_inv, lo_count);
  const Fr big = pow2k(g, kPowerLoBits), big_inv = pow2k(g_inv, kPowerLoBits);
  t.hi_coset_fwd = powers(Fr::one(), big, hi_count);
  t.hi_coset_inv = powers(t.inv_scale, big_inv, hi_count);
  t.hi_h_a = powers(t.inv_scale, big, hi_count);
  const Fr bc = domain.convention() == HConvention::generator7 ? domain.vanishing_on_coset_inv() : Fr::one();
  t.hi_h_bc = powers(t.inv_scale * bc, big, hi_count);
  return t;
}

std::vector<PassArgs> plan_transform(const SizeTableView& tables, std::span<Fr* const> data,
                                     NttDirection direction, bool dif, const Scale& first_in,
                                     const Scale& last_out, int tile_bits) {
  if (data.empty() || data.size() > 3) throw Error(Errc::internal, "GPU NTT plan: batch of 1 to 3 vectors");
  const int log_n = tables.log_n;
  const int dir = direction == NttDirection::forward ? 0 : 1;
  const std::size_t passes = tables.split.size();
  std::vector<PassArgs> out(passes);
  for (std::size_t i = 0; i < passes; ++i) {
    // Pass p in top-down order handles split[p] bits above the bits of the passes after it.
    const std::size_t p = dif ? i : passes - 1 - i;
    int below = 0;
    for (std::size_t q = p + 1; q < passes; ++q) below += tables.split[q];
    PassArgs& a = out[i];
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

Scale coset_forward_scale(const SizeTableView& tables, bool reversed) {
  Scale s;
  s.kind = ScaleKind::powers;
  s.reversed = reversed;
  for (auto& hi : s.hi) hi = tables.hi_coset_fwd;
  s.lo = tables.coset_lo[0];
  return s;
}

Scale inverse_scale(const SizeTableView& tables, bool coset, bool reversed) {
  Scale s;
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

void append_passes(std::vector<Launch>& launches, std::vector<PassArgs> passes) {
  for (PassArgs& pass : passes) {
    Launch launch;
    launch.pass = pass;
    launches.push_back(launch);
  }
}

void append_bitrev(std::vector<Launch>& launches, Fr* data, int log_n) {
  Launch launch;
  launch.is_pass = false;
  launch.bitrev.data[0] = data;
  launch.bitrev.batch = 1;
  launch.bitrev.log_n = static_cast<std::uint8_t>(log_n);
  launches.push_back(launch);
}

}  // namespace

std::vector<Launch> plan_ntt(const SizeTableView& tables, Fr* data, NttDirection direction, NttOrder order,
                             bool coset, int tile_bits) {
  // NN is NR then a bit reversal, RR a bit reversal then NR.
  const bool dif = order != NttOrder::RN;
  const bool forward = direction == NttDirection::forward;
  const Scale in = forward && coset ? coset_forward_scale(tables, !dif) : Scale{};
  const Scale out = forward ? Scale{} : inverse_scale(tables, coset, dif);
  std::vector<Launch> launches;
  Fr* const vectors[1] = {data};
  if (order == NttOrder::RR) append_bitrev(launches, data, tables.log_n);
  append_passes(launches, plan_transform(tables, vectors, direction, dif, in, out, tile_bits));
  if (order == NttOrder::NN) append_bitrev(launches, data, tables.log_n);
  return launches;
}

std::vector<Launch> plan_h(const SizeTableView& tables, HConvention convention, Fr* a, Fr* b, Fr* c,
                           int tile_bits) {
  std::vector<Launch> launches;
  // 1. Interpolate all three (natural -> bit-reversed coefficients), scaled by g^j/n, and b, c also by
  // 1/Z(g).
  Scale to_coset;
  to_coset.kind = ScaleKind::powers;
  to_coset.reversed = true;
  to_coset.hi[0] = tables.hi_h_a;
  to_coset.hi[1] = to_coset.hi[2] = tables.hi_h_bc;
  to_coset.lo = tables.coset_lo[0];
  Fr* const abc[3] = {a, b, c};
  append_passes(launches,
                plan_transform(tables, abc, NttDirection::inverse, true, Scale{}, to_coset, tile_bits));

  // 2. Evaluate on the coset (bit-reversed in, natural out). c's last pass waits for a's and b's and folds
  //    in a·b − c, written to a.
  std::vector<PassArgs> all =
      plan_transform(tables, abc, NttDirection::forward, false, Scale{}, Scale{}, tile_bits);
  all.pop_back();
  append_passes(launches, std::move(all));
  Fr* const ab[2] = {a, b};
  Fr* const only_c[1] = {c};
  append_passes(
      launches,
      {plan_transform(tables, ab, NttDirection::forward, false, Scale{}, Scale{}, tile_bits).back()});
  PassArgs last =
      plan_transform(tables, only_c, NttDirection::forward, false, Scale{}, Scale{}, tile_bits).back();
  last.pw_a = a;
  last.pw_b = b;
  last.pw_out = a;
  append_passes(launches, {last});
  if (convention == HConvention::snarkjs) return launches;

  // 3. generator7: interpolate from the coset (times g^-j/n), then natural order.
  Fr* const only_a[1] = {a};
  append_passes(launches, plan_transform(tables, only_a, NttDirection::inverse, true, Scale{},
                                         inverse_scale(tables, true, true), tile_bits));
  append_bitrev(launches, a, tables.log_n);
  return launches;
}

}  // namespace proofline::cuda::detail
