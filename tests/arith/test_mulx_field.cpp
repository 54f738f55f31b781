// The mulx/adcx/adox Montgomery multiplication (cpu/detail/mont_mul_x86.hpp) and its field twins
// (cpu/detail/mulx_field.hpp) against GMP and the portable fields, for every field it serves: BLS12-381's Fp
// (6 limbs) and Fr, BN254's Fp and Fr (4 limbs), and both curves' Fp2 over their Fp. Edge values (0, 1, p −
// 1, R, limb patterns that stress the carries and the final subtraction), their raw Montgomery images, and
// fresh random values; aliased output. Skipped where the CPU lacks BMI2 or ADX, and not compiled in builds
// without the asm products (sanitized ones: PL_MULX_ASM is 0 there).
#include <doctest/doctest.h>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include <proofline/arith/bn254/fp.hpp>
#include <proofline/arith/bn254/fp2.hpp>
#include <proofline/arith/bn254/fr.hpp>
#include <proofline/arith/fp.hpp>
#include <proofline/arith/fp2.hpp>
#include <proofline/arith/fr.hpp>
#include <proofline/cpu/detail/mulx_field.hpp>
#include <proofline/cpu/msm.hpp>

#include "arith/gmp_oracle.hpp"
#include "support/seed.hpp"

using namespace proofline;
using namespace proofline::test;

#if PL_MULX_ASM
namespace {

template <class F>
void check_field_against_gmp() {
  using Oracle = FieldOracle<F>;
  using Twin = cpu::detail::MulxField<F>;
  const std::uint64_t seed = test_support::test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  std::vector<mpz_class> values = Oracle::edge_values();
  for (int i = 0; i < 3000; ++i) values.push_back(Oracle::random_value(rng));
  std::size_t wrong_product = 0, wrong_square = 0, wrong_alias = 0, unreduced = 0, wrong_inverse = 0;
  std::size_t gcd_fallbacks = 0, wrong_fermat = 0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    // Every edge against every edge, random values against a few partners each.
    const std::size_t partners = i < 64 ? values.size() : 4;
    const F a = Oracle::element(values[i]);
    const Twin ta = Twin::from(a);
    for (std::size_t k = 0; k < partners; ++k) {
      const std::size_t j = i < 64 ? k : rng() % values.size();
      const F b = Oracle::element(values[j]);
      const F product = (ta * Twin::from(b)).base();
      wrong_product += Oracle::value(product) != mod(values[i] * values[j], Oracle::p());
      unreduced += !Oracle::reduced(product);
      Twin aliased = ta;
      aliased *= Twin::from(b);
      wrong_alias += aliased.base() != product;
    }
    wrong_square += Oracle::value(ta.squared().base()) != mod(values[i] * values[i], Oracle::p());
    // Every value's inverse (the inverse of zero is zero, as in F), by the binary GCD and by Fermat; the GCD
    // must end at one for every nonzero value, never leaving the result to the fallback.
    const mpz_class v = mod(values[i], Oracle::p());
    mpz_class expected = 0;
    if (v != 0) mpz_invert(expected.get_mpz_t(), v.get_mpz_t(), Oracle::p().get_mpz_t());
    wrong_inverse += Oracle::value(ta.inverse().base()) != expected;
    if (i < 64 || i % 8 == 0) wrong_fermat += Oracle::value(ta.fermat_inverse().base()) != expected;
    if (v != 0) {
      std::uint64_t scaled[Twin::N];
      gcd_fallbacks +=
          !cpu::detail::bingcd::inverse_scaled<Twin::N>(scaled, ta.limb, F::modulus.limb, F::inv);
    }
  }
  CHECK(wrong_product == 0);
  CHECK(wrong_square == 0);
  CHECK(wrong_inverse == 0);
  CHECK(wrong_fermat == 0);
  CHECK(gcd_fallbacks == 0);
  CHECK(wrong_alias == 0);
  CHECK(unreduced == 0);
}

template <class Fp2Type>
void check_fp2_against_portable() {
  using BaseOracle = FieldOracle<typename Fp2Type::Base>;
  using Twin = typename cpu::detail::MulxTwin<Fp2Type>::type;
  const std::uint64_t seed = test_support::test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  const std::vector<mpz_class> edges = BaseOracle::edge_values();
  std::size_t wrong = 0;
  for (int i = 0; i < 2000; ++i) {
    const auto pick = [&] {
      return i % 2 ? BaseOracle::element(edges[rng() % edges.size()]) : BaseOracle::random_element(rng);
    };
    const Fp2Type a{pick(), pick()}, b{pick(), pick()};
    const Twin ta = std::bit_cast<Twin>(a), tb = std::bit_cast<Twin>(b);
    wrong += std::bit_cast<Fp2Type>(ta * tb) != a * b;
    wrong += std::bit_cast<Fp2Type>(ta.squared()) != a.squared();
    wrong += std::bit_cast<Fp2Type>(ta.inverse()) != a.inverse();
  }
  CHECK(wrong == 0);
}

bool skip_without_mulx() {
  if (cpu::detail::cpu_has_mulx_adx()) return false;
  MESSAGE("SKIPPED: this CPU lacks BMI2 or ADX, the mulx path is never taken here");
  return true;
}

}  // namespace

TEST_CASE("arith/mulx/4- and 6-limb products, squares and inverses match GMP on edge and random values") {
  if (skip_without_mulx()) return;
  SUBCASE("BLS12-381 Fp") {
    check_field_against_gmp<Fp>();
  }
  SUBCASE("BLS12-381 Fr") {
    check_field_against_gmp<Fr>();
  }
  SUBCASE("BN254 Fp") {
    check_field_against_gmp<bn254::Fp>();
  }
  SUBCASE("BN254 Fr") {
    check_field_against_gmp<bn254::Fr>();
  }
}

TEST_CASE("arith/mulx/Fp2 over the twin fields matches the portable Fp2 for both curves") {
  if (skip_without_mulx()) return;
  SUBCASE("BLS12-381") {
    check_fp2_against_portable<Fp2>();
  }
  SUBCASE("BN254") {
    check_fp2_against_portable<bn254::Fp2>();
  }
}

#endif  // PL_MULX_ASM

TEST_CASE("arith/mulx/the MSM takes the mulx path where the CPU has BMI2 and ADX") {
  // The MSM suites run with the default options, so this is what tells their results came from that path
  // (unless PROOFLINE_CPU_MULX=0 asked for the portable one).
  const char* setting = std::getenv("PROOFLINE_CPU_MULX");
  const bool disabled = setting && std::string(setting) == "0";
  CHECK(cpu::msm_uses_carry_instructions() == (cpu::detail::cpu_has_mulx_adx() && !disabled));
}
