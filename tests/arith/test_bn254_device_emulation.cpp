// BN254's fields through the limb-generic device arithmetic (arith/detail/*_limbs32.hpp), run on the host
// with an emulated PTX carry flag: the device code BN254 kernels will use must equal the portable MontField
// and Fp2T operations bit for bit and drop no carry. BLS12-381's fields have the same check in
// tests/gpu_host; this one covers BN254's 8-limb Fp (two spare bits) and Fr (no low-limb shortcut).
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include <proofline/arith/bn254/fp2.hpp>
#include <proofline/arith/bn254/fr.hpp>
#include <proofline/arith/detail/fp2_mul_limbs32.hpp>
#include <proofline/arith/detail/limbs32.hpp>
#include <proofline/arith/detail/mod_add_limbs32.hpp>
#include <proofline/arith/detail/mont_mul_limbs32.hpp>
#include <proofline/arith/detail/mont_sqr_limbs32.hpp>
#include <proofline/arith/random.hpp>

#include "arith/gmp_oracle.hpp"
#include "support/emulated_carry_ops.hpp"
#include "support/seed.hpp"

namespace bn254 = proofline::bn254;
using namespace proofline::detail;
using proofline::random_field;
using proofline::test::Rng;
using proofline::test_support::EmulatedCarryOps;
using proofline::test_support::test_seed;

namespace {

/// 0, 1, -1, 2, -2, raw Montgomery limbs p - k and k, all-ones low limbs, then random values.
template <class F>
std::vector<F> test_values(Rng& rng, std::size_t random_count) {
  std::vector<F> values = {F::zero(), F::one(), -F::one(), F::from_u64(2), -F::from_u64(2)};
  for (std::uint64_t k : {1ull, 2ull, 3ull, 0xffffffffull}) {
    typename F::Int raw = F::modulus;
    raw.sub_in_place(F::Int::from_u64(k));
    values.push_back(F::from_montgomery(raw));
    values.push_back(F::from_montgomery(F::Int::from_u64(k)));
  }
  typename F::Int ones;
  for (std::size_t i = 0; i + 1 < F::N; ++i) ones.limb[i] = ~std::uint64_t{0};
  values.push_back(F::from_montgomery(ones));
  for (std::size_t i = 0; i < random_count; ++i) values.push_back(random_field<F>(rng));
  return values;
}

template <class F>
void check_field(Rng& rng) {
  using L = typename Limbs32OfField<F>::type;
  static_assert(L::kLimbs == 8);
  const std::vector<F> values = test_values<F>(rng, 300);
  EmulatedCarryOps ops, sub_ops;  // subtraction wraps on purpose: not watched for drops
  std::size_t mismatches = 0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    for (std::size_t j = 0; j < values.size(); j += 1 + (i % 7)) {
      const F& a = values[i];
      const F& b = values[j];
      std::uint32_t x[L::kLimbs], y[L::kLimbs], z[L::kLimbs];
      L::split_limbs(x, a.limb);
      L::split_limbs(y, b.limb);
      F out;
      limbs32::mont_mul<L>(ops, z, x, y);
      L::join_limbs(out.limb, z);
      mismatches += out != a * b;
      limbs32::mont_sqr<L>(ops, z, x);
      L::join_limbs(out.limb, z);
      mismatches += out != a.squared();
      limbs32::mod_add<L>(ops, z, x, y);
      L::join_limbs(out.limb, z);
      mismatches += out != a + b;
      limbs32::mod_sub<L>(sub_ops, z, x, y);
      L::join_limbs(out.limb, z);
      mismatches += out != a - b;
    }
  }
  CHECK(mismatches == 0);
  CHECK(ops.dropped == 0);
}

}  // namespace

TEST_CASE("arith/bn254/device limb code for Fp and Fr, emulated, equals MontField and drops no carry") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  check_field<bn254::Fp>(rng);
  check_field<bn254::Fr>(rng);
  CHECK_FALSE(Limbs32<bn254::FrParams>::kLowLimbsShortcut);
}

TEST_CASE(
    "arith/bn254/device lazy Karatsuba Fp2 product and square, emulated, equal Fp2T and drop no carry") {
  using L = Limbs32<bn254::FpParams>;
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  const std::vector<bn254::Fp> base = test_values<bn254::Fp>(rng, 0);
  std::vector<bn254::Fp2> values;
  for (const auto& x : base) {
    values.push_back({x, bn254::Fp::zero()});
    values.push_back({bn254::Fp::zero(), x});
    values.push_back({x, -bn254::Fp::one()});
  }
  while (values.size() < 300) values.push_back({random_field<bn254::Fp>(rng), random_field<bn254::Fp>(rng)});
  EmulatedCarryOps ops, sqr_ops;  // the square's a0 - a1 wraps on purpose
  std::size_t mismatches = 0;
  for (const auto& a : values) {
    for (const auto& b : values) {
      std::uint32_t a0[L::kLimbs], a1[L::kLimbs], b0[L::kLimbs], b1[L::kLimbs], c0[L::kLimbs], c1[L::kLimbs];
      L::split_limbs(a0, a.c0.limb);
      L::split_limbs(a1, a.c1.limb);
      L::split_limbs(b0, b.c0.limb);
      L::split_limbs(b1, b.c1.limb);
      limbs32::fp2_mul<L>(ops, c0, c1, a0, a1, b0, b1);
      bn254::Fp2 out;
      L::join_limbs(out.c0.limb, c0);
      L::join_limbs(out.c1.limb, c1);
      mismatches += out != a * b;
      limbs32::fp2_sqr<L>(sqr_ops, c0, c1, a0, a1);
      L::join_limbs(out.c0.limb, c0);
      L::join_limbs(out.c1.limb, c1);
      mismatches += out != a.squared();
    }
  }
  CHECK(mismatches == 0);
  CHECK(ops.dropped == 0);
}
