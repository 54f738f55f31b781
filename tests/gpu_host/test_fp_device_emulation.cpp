// The device field arithmetic (the limb-generic arith/detail/*_limbs32.hpp, over Fp's and Fr's Limbs32) run
// on the host through an emulated PTX carry flag: it must equal the portable MontField operations bit for
// bit, and no carry that the algorithm assumes impossible (madc.hi / addc without carry out, the final
// addition) may ever be dropped. The GPU suite repeats the comparison on the device with the real PTX.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <vector>

#include <proofline/arith/bn254/fp.hpp>
#include <proofline/arith/detail/fp2_mul_limbs32.hpp>
#include <proofline/arith/detail/limbs32.hpp>
#include <proofline/arith/detail/mod_add_limbs32.hpp>
#include <proofline/arith/detail/mont_mul_limbs32.hpp>
#include <proofline/arith/detail/mont_sqr_limbs32.hpp>
#include <proofline/arith/detail/product_difference_limbs32.hpp>
#include <proofline/arith/fp.hpp>
#include <proofline/arith/fp2.hpp>
#include <proofline/arith/fr.hpp>
#include <proofline/arith/random.hpp>

#include "support/emulated_carry_ops.hpp"

using namespace proofline;
using namespace proofline::detail;
using proofline::test_support::EmulatedCarryOps;

namespace {

using FpLimbs = Limbs32<FpParams>;

enum class Op { mul, sqr, add, sub };

template <class F>
F run_emulated(Op op, const F& a, const F& b, EmulatedCarryOps& ops) {
  using L = typename Limbs32OfField<F>::type;
  std::uint32_t x[L::kLimbs], y[L::kLimbs], z[L::kLimbs];
  L::split_limbs(x, a.limb);
  L::split_limbs(y, b.limb);
  switch (op) {
    case Op::mul:
      limbs32::mont_mul<L>(ops, z, x, y);
      break;
    case Op::sqr:
      limbs32::mont_sqr<L>(ops, z, x);
      break;
    case Op::add:
      limbs32::mod_add<L>(ops, z, x, y);
      break;
    case Op::sub:
      limbs32::mod_sub<L>(ops, z, x, y);
      break;
  }
  F out;
  L::join_limbs(out.limb, z);
  return out;
}

/// Values near the edges: 0, 1, 2, p-1, p-2, R mod p (Montgomery one), limbs all ones below the top, ...
template <class F>
std::vector<F> edge_values() {
  std::vector<F> values = {F::zero(), F::one(), -F::one(), F::from_u64(2), -F::from_u64(2)};
  for (std::uint64_t k : {1ull, 2ull, 3ull, 0xffffffffull}) {
    typename F::Int raw = F::modulus;
    raw.sub_in_place(F::Int::from_u64(k));
    values.push_back(F::from_montgomery(raw));  // raw Montgomery limbs p - k
    values.push_back(F::from_montgomery(F::Int::from_u64(k)));
  }
  typename F::Int ones;
  for (std::size_t i = 0; i + 1 < F::N; ++i) ones.limb[i] = ~std::uint64_t{0};
  values.push_back(F::from_montgomery(ones));
  return values;
}

/// The emulated mul, sqr, add and sub of field F against MontField's, on edge values, random pairs and chains
/// of products; counts into `mismatches` and the carries dropped by mul, sqr and add into `dropped`.
template <class F>
void compare_emulated_field_ops(std::mt19937_64& rng, std::size_t& mismatches, std::uint64_t& dropped) {
  std::vector<F> values = edge_values<F>();
  const std::size_t edges = values.size();
  while (values.size() < edges + 400) values.push_back(random_field<F>(rng));

  EmulatedCarryOps ops;
  // Subtraction wraps on purpose (a - b + 2^(64N) + p drops 2^(64N)), so only mul, sqr and add are watched
  // for drops.
  EmulatedCarryOps sub_ops;
  auto check = [&](const F& a, const F& b) {
    mismatches += run_emulated(Op::mul, a, b, ops) != a * b;
    mismatches += run_emulated(Op::sqr, a, a, ops) != a * a;
    mismatches += run_emulated(Op::add, a, b, ops) != a + b;
    mismatches += run_emulated(Op::sub, a, b, sub_ops) != a - b;
  };
  for (const F& a : values) {
    for (std::size_t j = 0; j < edges; ++j) check(a, values[j]);
  }
  for (int i = 0; i < 20000; ++i) check(random_field<F>(rng), random_field<F>(rng));
  // Chains of products keep outputs as inputs (any value below p may appear).
  F chain = random_field<F>(rng);
  for (int i = 0; i < 5000; ++i) {
    const F next = run_emulated(Op::mul, chain, chain, ops);
    mismatches += next != chain * chain;
    mismatches += run_emulated(Op::sqr, chain, chain, ops) != next;
    chain = next + F::one();
  }
  dropped += ops.dropped;
}

std::uint64_t random_seed() {
  std::random_device source;
  return (static_cast<std::uint64_t>(source()) << 32) | source();
}

}  // namespace

TEST_CASE("gpu_host/fp_device/32-bit limbs of p and the Montgomery constant") {
  for (int k = 0; k < FpLimbs::kLimbs; ++k) {
    CHECK(FpLimbs::p_limb(k) == static_cast<std::uint32_t>(Fp::modulus.limb[k / 2] >> (32 * (k % 2))));
  }
  CHECK(FpLimbs::p_limb(0) * FpLimbs::kM0 == 0xffffffffu);  // -p^-1 mod 2^32
  CHECK(FpLimbs::kP<11> == 0x1a0111eau);
  CHECK_FALSE(FpLimbs::kLowLimbsShortcut);
  using FrLimbs = Limbs32<FrParams>;
  CHECK(FrLimbs::kLimbs == 8);
  CHECK(FrLimbs::p_limb(0) * FrLimbs::kM0 == 0xffffffffu);
  CHECK(FrLimbs::kP<7> == 0x73eda753u);
  CHECK(FrLimbs::kLowLimbsShortcut);  // r mod 2^64 = 0xffffffff00000001
}

TEST_CASE("gpu_host/fp_device/emulated mul sqr add sub equal MontField and drop no carry") {
  const std::uint64_t seed = random_seed();
  CAPTURE(seed);
  std::mt19937_64 rng(seed);
  std::size_t mismatches = 0;
  std::uint64_t dropped = 0;
  compare_emulated_field_ops<Fp>(rng, mismatches, dropped);
  CHECK(mismatches == 0);
  CHECK(dropped == 0);
}

// Fr's reduction rows take the shortcut for r mod 2^64 = 2^64 - 2^32 + 1 (see reduce_row); Fr's device
// squared() multiplies, the squaring is checked here as the generic code a further field would use.
TEST_CASE("gpu_host/fr_device/emulated mul sqr add sub equal MontField and drop no carry") {
  const std::uint64_t seed = random_seed();
  CAPTURE(seed);
  std::mt19937_64 rng(seed);
  std::size_t mismatches = 0;
  std::uint64_t dropped = 0;
  compare_emulated_field_ops<Fr>(rng, mismatches, dropped);
  CHECK(mismatches == 0);
  CHECK(dropped == 0);
}

TEST_CASE(
    "gpu_host/fp_device/emulated lazy Karatsuba Fp2 product and Fp2 square equal Fp2 and drop no carry") {
  const std::uint64_t seed = random_seed();
  CAPTURE(seed);
  std::mt19937_64 rng(seed);
  const std::vector<Fp> edges = edge_values<Fp>();
  std::vector<Fp2> values;
  for (const Fp& x : edges) {
    values.push_back({x, Fp::zero()});
    values.push_back({Fp::zero(), x});
    values.push_back({x, -Fp::one()});
    values.push_back({-Fp::one(), x});
  }
  while (values.size() < 600) values.push_back({random_field<Fp>(rng), random_field<Fp>(rng)});
  EmulatedCarryOps ops;
  EmulatedCarryOps sqr_ops;  // not watched for drops: its a0 - a1 wraps on purpose, as in the Fp test
  std::size_t mismatches = 0;
  auto check = [&](const Fp2& a, const Fp2& b) {
    std::uint32_t a0[FpLimbs::kLimbs], a1[FpLimbs::kLimbs], b0[FpLimbs::kLimbs], b1[FpLimbs::kLimbs];
    std::uint32_t c0[FpLimbs::kLimbs], c1[FpLimbs::kLimbs];
    FpLimbs::split_limbs(a0, a.c0.limb);
    FpLimbs::split_limbs(a1, a.c1.limb);
    FpLimbs::split_limbs(b0, b.c0.limb);
    FpLimbs::split_limbs(b1, b.c1.limb);
    limbs32::fp2_mul<FpLimbs>(ops, c0, c1, a0, a1, b0, b1);
    Fp2 out;
    FpLimbs::join_limbs(out.c0.limb, c0);
    FpLimbs::join_limbs(out.c1.limb, c1);
    mismatches += out != a * b;
    limbs32::fp2_sqr<FpLimbs>(sqr_ops, c0, c1, a0, a1);
    FpLimbs::join_limbs(out.c0.limb, c0);
    FpLimbs::join_limbs(out.c1.limb, c1);
    mismatches += out != a.squared();
  };
  for (std::size_t i = 0; i < values.size(); ++i) {
    for (std::size_t j = 0; j < 4 * edges.size(); ++j) check(values[i], values[j]);
  }
  for (int i = 0; i < 20000; ++i) check(values[rng() % values.size()], values[rng() % values.size()]);
  CHECK(mismatches == 0);
  CHECK(ops.dropped == 0);
}

namespace {

/// The emulated one-reduction a·b − c·d of field F against MontField's products: every
/// combination of edge values (the wide difference at both extremes, ±(p-1)^2, and at zero) and random
/// quadruples; no carry may be dropped (the wide values' intended wraps are plain additions).
template <class F>
void check_product_differences(std::mt19937_64& rng) {
  using L = typename Limbs32OfField<F>::type;
  constexpr int n = L::kLimbs;
  const std::vector<F> edges = edge_values<F>();
  EmulatedCarryOps ops;
  std::size_t mismatches = 0;
  auto base = [&](const F& a, const F& b, const F& c, const F& d) {
    std::uint32_t x[n], y[n], u[n], v[n], z[n];
    L::split_limbs(x, a.limb);
    L::split_limbs(y, b.limb);
    L::split_limbs(u, c.limb);
    L::split_limbs(v, d.limb);
    limbs32::mont_product_difference<L>(ops, z, x, y, u, v);
    F out;
    L::join_limbs(out.limb, z);
    mismatches += out != a * b - c * d;
  };
  for (const F& a : edges)
    for (const F& b : edges)
      for (const F& c : edges)
        for (const F& d : edges) base(a, b, c, d);
  for (int i = 0; i < 20000; ++i)
    base(random_field<F>(rng), random_field<F>(rng), random_field<F>(rng), random_field<F>(rng));

  CHECK(mismatches == 0);
  CHECK(ops.dropped == 0);
}

}  // namespace

TEST_CASE("gpu_host/fp_device/emulated a·b − c·d with one reduction equals the two products") {
  const std::uint64_t seed = random_seed();
  CAPTURE(seed);
  std::mt19937_64 rng(seed);
  SUBCASE("BLS12-381") {
    check_product_differences<Fp>(rng);
  }
  SUBCASE("BN254") {
    check_product_differences<bn254::Fp>(rng);
  }
}
