// The GPU NTT's plans and kernel phases run on the host (ntt_pass_body.hpp's run_pass_on_host): every
// transform, order, direction and coset, and the H computation, must equal the CPU reference bit for bit.
// This checks the tiling, rounds, twiddle and diagonal indices, scale tables and fusions without a GPU, for
// BLS12-381's Fr (both conventions) and BN254's (snarkjs's); the GPU suite repeats the comparison on the
// device.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <span>
#include <vector>

#include <proofline/arith/bn254/fr.hpp>
#include <proofline/arith/domain.hpp>
#include <proofline/cpu/h_poly.hpp>
#include <proofline/cpu/ntt.hpp>
#include <proofline/cuda/detail/ntt_plan.hpp>
#include <proofline/cuda/kernels/detail/ntt_pass_body.hpp>
#include <proofline/cuda/kernels/detail/ntt_small_h.hpp>

#include "support/field_vectors.hpp"
#include "support/ntt_orders.hpp"

using namespace proofline;
using namespace proofline::cuda::detail;
using namespace proofline::test_support;

namespace {

/// Host copies of one (convention, size)'s tables and the view the planner takes.
template <class F>
struct HostTables {
  HostRootTables<F> roots;
  HostSizeTables<F> size;
  std::vector<F> top[2];
  std::vector<F> h_up, h_down;
  SizeTableView<F> view;

  HostTables(const BasicDomain<F>& domain, std::span<const int> split, bool top_diagonal = false,
             bool h_coset_tables = false)
      : roots(build_root_tables<F>(domain.convention())), size(build_size_tables(domain, split)) {
    if (top_diagonal && size.split.size() >= 2)
      for (int d = 0; d < 2; ++d) {
        top[d] = build_top_diagonal(roots, size.split, d);
        view.d_top[d] = top[d].data();
      }
    view.log_n = size.log_n;
    view.split = size.split;
    view.d_full_log = size.d_full_log;
    view.inv_scale = size.inv_scale;
    for (int d = 0; d < 2; ++d) {
      view.root_hi[d] = roots.hi[d].data();
      view.root_lo[d] = roots.lo[d].data();
      view.d_full[d] = size.d_full[d].empty() ? nullptr : size.d_full[d].data();
      view.coset_lo[d] = size.coset_lo[d].data();
    }
    view.hi_coset_fwd = size.hi_coset_fwd.data();
    view.hi_coset_inv = size.hi_coset_inv.data();
    view.hi_h_a = size.hi_h_a.data();
    view.hi_h_bc = size.hi_h_bc.data();
    view.h_c_scale = size.h_c_scale;
    view.hi_h_down = size.hi_h_down.empty() ? nullptr : size.hi_h_down.data();
    if (h_coset_tables) {
      h_up = build_reversed_powers(view.hi_h_a, view.coset_lo[0], size.log_n);
      view.h_up = h_up.data();
      if (view.hi_h_down != nullptr) {
        h_down = build_reversed_powers(view.hi_h_down, view.coset_lo[1], size.log_n);
        view.h_down = h_down.data();
      }
    }
  }
};

template <class F>
void run_on_host(const std::vector<Launch<F>>& launches) {
  for (const Launch<F>& launch : launches) {
    if (!launch.is_pass)
      run_bitrev_on_host(launch.bitrev);
    else if (launch.pass.dif)
      run_pass_on_host<true>(launch.pass);
    else
      run_pass_on_host<false>(launch.pass);
  }
}

/// Calls check(domain) for the domain of 2^log_n rows in every convention F's domains have.
template <class F, class Check>
void for_each_domain(unsigned log_n, Check&& check) {
  for (const HConvention convention : kAllConventions) {
    if (!NttField<F>::has_convention(convention)) continue;
    CAPTURE(convention_name(convention));
    check(BasicDomain<F>::make(log_n, convention));
  }
}

/// Random a, b, c over a domain (c = a·b when satisfied) and the H that cpu::compute_h makes of them.
template <class F>
struct HCase {
  std::vector<F> a, b, c, expected;
};

template <class F>
HCase<F> random_h_case(std::mt19937_64& rng, const BasicDomain<F>& domain, bool satisfied) {
  const std::size_t n = domain.size();
  HCase<F> h{random_scalars<F>(rng, n), random_scalars<F>(rng, n), random_scalars<F>(rng, n), {}};
  if (satisfied)
    for (std::size_t i = 0; i < n; ++i) h.c[i] = h.a[i] * h.b[i];
  h.expected = h.a;
  std::vector<F> b = h.b, c = h.c;
  cpu::compute_h(h.expected, b, c, domain);
  return h;
}

/// Every order/direction/coset combination at one size and split against cpu::ntt, in every convention F's
/// domains have.
template <class F = Fr>
void check_all_transforms(unsigned log_n, std::span<const int> split, int tile_bits,
                          bool top_diagonal = false) {
  const auto seed = test_seed();
  CAPTURE(seed);
  CAPTURE(log_n);
  CAPTURE(tile_bits);
  CAPTURE(top_diagonal);
  std::mt19937_64 rng(seed);
  for_each_domain<F>(log_n, [&](const BasicDomain<F>& domain) {
    HostTables<F> tables(domain, split, top_diagonal);
    for (const NttDirection direction : {NttDirection::forward, NttDirection::inverse}) {
      for (const NttOrder order : {NttOrder::NR, NttOrder::RN, NttOrder::NN, NttOrder::RR}) {
        for (const bool coset : {false, true}) {
          CAPTURE(direction_name(direction));
          CAPTURE(order_name(order));
          CAPTURE(coset);
          const std::vector<F> input = random_scalars<F>(rng, domain.size());
          std::vector<F> expected = input, actual = input;
          cpu::ntt(expected, domain, direction, order, coset);
          run_on_host(plan_ntt(tables.view, actual.data(), direction, order, coset, tile_bits));
          CHECK(count_mismatches(actual, expected) == 0);
        }
      }
    }
  });
}

template <class F = Fr>
void check_h(unsigned log_n, std::span<const int> split, bool satisfied, int tile_bits = kMaxTileBits,
             bool top_diagonal = false, bool h_coset_tables = false) {
  const auto seed = test_seed();
  CAPTURE(seed);
  CAPTURE(log_n);
  CAPTURE(top_diagonal);
  CAPTURE(h_coset_tables);
  std::mt19937_64 rng(seed);
  for_each_domain<F>(log_n, [&](const BasicDomain<F>& domain) {
    HostTables<F> tables(domain, split, top_diagonal, h_coset_tables);
    HCase<F> h = random_h_case(rng, domain, satisfied);
    run_on_host(plan_h(tables.view, domain.convention(), h.a.data(), h.b.data(), h.c.data(), tile_bits));
    CHECK(count_mismatches(h.a, h.expected) == 0);
  });
}

/// The one-block H of a small domain (2^1 .. 2^9) against cpu::compute_h in every convention F has.
template <class F>
void check_small_h(unsigned log_n, bool satisfied) {
  const auto seed = test_seed();
  CAPTURE(seed);
  CAPTURE(log_n);
  std::mt19937_64 rng(seed);
  for_each_domain<F>(log_n, [&](const BasicDomain<F>& domain) {
    const HostSmallHTables<F> tables = build_small_h_tables(domain);
    HCase<F> h = random_h_case(rng, domain, satisfied);
    SmallHArgs<F> args;
    args.vectors[0] = h.a.data();
    args.vectors[1] = h.b.data();
    args.vectors[2] = h.c.data();
    args.log_n = static_cast<std::uint8_t>(log_n);
    args.generator7 = domain.convention() == HConvention::generator7;
    args.roots[0] = tables.roots[0].data();
    args.roots[1] = tables.roots[1].data();
    args.up = tables.up.data();
    args.down = tables.down.data();
    run_small_h_on_host(args);
    CHECK(count_mismatches(h.a, h.expected) == 0);
  });
}

}  // namespace

TEST_CASE("gpu/ntt emulation/the one-block H of 2^1 to 2^9 rows equals the CPU compute_h") {
  for (unsigned log_n = 1; log_n <= static_cast<unsigned>(kSmallHMaxLogN); ++log_n) {
    check_small_h<Fr>(log_n, false);
    check_small_h<Fr>(log_n, true);
    check_small_h<bn254::Fr>(log_n, log_n % 2 == 0);
  }
}

TEST_CASE("gpu/ntt emulation/one pass at 2^10 equals the CPU NTT in every order and direction") {
  check_all_transforms(10, {}, kMaxTileBits);
}

TEST_CASE("gpu/ntt emulation/two passes at 2^11 to 2^14 equal the CPU NTT in every order and direction") {
  for (unsigned log_n = 11; log_n <= 14; ++log_n) check_all_transforms(log_n, {}, kMaxTileBits);
  for (unsigned log_n = 11; log_n <= 14; ++log_n)
    check_all_transforms(log_n, {}, 9);  // the engine's default tile
  check_all_transforms(14, {}, 8);
}

TEST_CASE("gpu/ntt emulation/three passes (forced small splits) equal the CPU NTT in every order") {
  const int split_13[] = {5, 4, 4};  // 1- and 2-bit rounds, a 256-element middle tile
  check_all_transforms(13, split_13, kMaxTileBits);
  const int split_16[] = {6, 5, 5};
  check_all_transforms(16, split_16, kMaxTileBits);
  check_all_transforms(16, split_16, 9);
}

TEST_CASE("gpu/ntt emulation/H equals the CPU compute_h in both conventions") {
  check_h(10, {}, false);
  check_h(13, {}, true);
  check_h(14, {}, false);
  check_h(14, {}, true, 9);
  const int split_15[] = {5, 5, 5};
  check_h(15, split_15, true);
  check_h(15, split_15, false, 9);
}

TEST_CASE("gpu/ntt emulation/the top pass's diagonal from a full table changes no result") {
  check_all_transforms(14, {}, 9, true);  // two passes: the top diagonal is the only one
  const int split_16[] = {6, 5, 5};
  check_all_transforms(16, split_16, 9, true);
  const int split_15[] = {5, 5, 5};
  check_h(15, split_15, true, 9, true);
  check_h(13, {}, false, 9, true);
}

TEST_CASE("gpu/ntt emulation/H's full coset tables hold g^j/n and g^-j/(n Z(g)) at j = bitrev(pos)") {
  const unsigned log_n = 12;
  const BasicDomain<Fr> domain = BasicDomain<Fr>::make(log_n, HConvention::generator7);
  const HostTables<Fr> tables(domain, {}, false, true);
  const Fr up_scale = domain.size_inv(), down_scale = domain.size_inv() * domain.vanishing_on_coset_inv();
  for (const std::uint32_t pos : {0u, 1u, 2u, 777u, 2048u, 4095u}) {
    CAPTURE(pos);
    const std::uint64_t j = bit_reverse(pos, log_n);
    CHECK(tables.h_up[pos] == up_scale * domain.shift().pow(j));
    CHECK(tables.h_down[pos] == down_scale * domain.shift_inv().pow(j));
  }
}

TEST_CASE("gpu/ntt emulation/H's coset scales from full tables change no result") {
  check_h(10, {}, true, kMaxTileBits, false, true);  // one pass
  check_h(13, {}, false, 9, false, true);
  check_h(14, {}, true, 9, true, true);
  const int split_15[] = {5, 5, 5};  // three passes: the inverse's 1/n sits in the middle diagonal
  check_h(15, split_15, false, 9, false, true);
  check_h(15, split_15, true, 9, true, true);
  check_h<bn254::Fr>(13, {}, true, 9, false, true);
  check_h<bn254::Fr>(15, split_15, false, 9, true, true);
}

TEST_CASE("gpu/ntt emulation/BN254 transforms and H equal the CPU reference in snarkjs's convention") {
  check_all_transforms<bn254::Fr>(10, {}, kMaxTileBits);
  check_all_transforms<bn254::Fr>(13, {}, 9);
  const int split_16[] = {6, 5, 5};
  check_all_transforms<bn254::Fr>(16, split_16, 9, true);
  check_h<bn254::Fr>(10, {}, false);
  check_h<bn254::Fr>(14, {}, true, 9);
  const int split_15[] = {5, 5, 5};
  check_h<bn254::Fr>(15, split_15, false, 9, true);
}
