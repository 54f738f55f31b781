// CPU H computation: the snarkjs fixtures reproduced bit for bit (odd-coset evaluations and H scalars), the
// generator-7 output against polynomial arithmetic (interpolate, multiply, divide by X^n − 1), the snarkjs
// output against direct evaluation on the odd coset, and edge cases.
#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <proofline/arith/domain.hpp>
#include <proofline/arith/fr.hpp>
#include <proofline/arith/int_text.hpp>
#include <proofline/cpu/h_poly.hpp>
#include <proofline/cpu/ntt.hpp>
#include <proofline/util/error.hpp>

#include "arith/gmp_oracle.hpp"
#include "arith/ntt_test_support.hpp"
#include "support/seed.hpp"

using namespace proofline;
using namespace proofline::test;
using namespace proofline::test_support;

namespace {

// ---- the fixture file: a flat JSON object; only what the tests read is parsed --------------------------

std::string fixture_text(const std::string& circuit) {
  const char* env = std::getenv("PROOFLINE_SNARKJS_FIXTURES");
  const std::string dir = env != nullptr ? env : PROOFLINE_SNARKJS_FIXTURES_DIR;
  const std::string path = dir + "/" + circuit + "/ref_intermediates_rs0.json";
  std::ifstream in(path);
  if (!in) FAIL("cannot open the snarkjs fixture " << path << " (set PROOFLINE_SNARKJS_FIXTURES)");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// Position just after the ':' of "key".
std::size_t value_start(const std::string& json, const std::string& key) {
  const std::size_t at = json.find("\"" + key + "\"");
  REQUIRE_MESSAGE(at != std::string::npos, "fixture has no key " << key);
  const std::size_t colon = json.find(':', at);
  REQUIRE(colon != std::string::npos);
  return colon + 1;
}

/// A scalar value: a number or a quoted string, without the quotes.
std::string json_scalar(const std::string& json, const std::string& key) {
  std::size_t pos = json.find_first_not_of(" \t\r\n", value_start(json, key));
  if (json[pos] == '"') return json.substr(pos + 1, json.find('"', pos + 1) - pos - 1);
  return json.substr(pos, json.find_first_of(",}\r\n", pos) - pos);
}

/// An array of quoted decimal strings.
std::vector<std::string> json_strings(const std::string& json, const std::string& key) {
  std::size_t pos = json.find_first_not_of(" \t\r\n", value_start(json, key));
  REQUIRE_MESSAGE(json[pos] == '[', key << " is not an array");
  const std::size_t end = json.find(']', pos);
  std::vector<std::string> out;
  for (pos = json.find('"', pos); pos < end; pos = json.find('"', pos)) {
    const std::size_t close = json.find('"', pos + 1);
    out.push_back(json.substr(pos + 1, close - pos - 1));
    pos = close + 1;
  }
  return out;
}

Fr decimal_element(const std::string& text) {
  const auto element = field_from_decimal<Fr>(text);
  REQUIRE_MESSAGE(element.has_value(), "not a canonical Fr decimal: " << text);
  return *element;
}

std::vector<Fr> decimal_elements(const std::string& json, const std::string& key) {
  std::vector<Fr> out;
  for (const auto& text : json_strings(json, key)) out.push_back(decimal_element(text));
  return out;
}

// ---- polynomial arithmetic, O(n^2), independent of the NTT code ----------------------------------------

/// Coefficients of the degree < n interpolant of values at ω^i: c_j = (1/n)·Σ_i values[i]·ω^(−ij).
std::vector<Fr> interpolate(const std::vector<Fr>& values, const Domain& domain) {
  const std::size_t n = values.size();
  std::vector<Fr> coeffs(n, Fr::zero());
  Fr row = Fr::one();  // ω^(−j)
  for (std::size_t j = 0; j < n; ++j) {
    Fr x = Fr::one();
    Fr acc = Fr::zero();
    for (std::size_t i = 0; i < n; ++i) {
      acc += values[i] * x;
      x *= row;
    }
    coeffs[j] = acc * domain.size_inv();
    row *= domain.omega_inv();
  }
  return coeffs;
}

Fr evaluate(const std::vector<Fr>& coeffs, const Fr& x) {
  Fr acc = Fr::zero();
  for (std::size_t j = coeffs.size(); j-- > 0;) acc = acc * x + coeffs[j];
  return acc;
}

struct Quotient {
  std::vector<Fr> q;    // n entries, q[n−1] = 0
  std::vector<Fr> rem;  // n entries
};

/// A·B − C = q·(X^n − 1) + rem with deg rem < n; deg(A·B − C) <= 2n − 2 so deg q <= n − 2.
Quotient divide_by_vanishing(const std::vector<Fr>& a, const std::vector<Fr>& b, const std::vector<Fr>& c) {
  const std::size_t n = a.size();
  std::vector<Fr> p(2 * n - 1, Fr::zero());
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) p[i + j] += a[i] * b[j];
  }
  for (std::size_t i = 0; i < n; ++i) p[i] -= c[i];
  Quotient out{std::vector<Fr>(n, Fr::zero()), std::vector<Fr>(n, Fr::zero())};
  for (std::size_t j = 0; j + 1 < n; ++j) out.q[j] = p[j + n];  // X^n·q contributes q_j at j + n
  for (std::size_t j = 0; j < n; ++j) out.rem[j] = p[j] + out.q[j];
  return out;
}

struct Abc {
  std::vector<Fr> a, b, c;
};

/// Random QAP evaluations; satisfied means c_i = a_i·b_i (a witness that satisfies the R1CS).
Abc random_abc(Rng& rng, std::size_t n, bool satisfied) {
  Abc abc{random_scalars(rng, n), random_scalars(rng, n), random_scalars(rng, n)};
  if (satisfied) {
    for (std::size_t i = 0; i < n; ++i) abc.c[i] = abc.a[i] * abc.b[i];
  }
  return abc;
}

std::vector<Fr> compute_h_copy(Abc abc, const Domain& domain) {
  cpu::compute_h(abc.a, abc.b, abc.c, domain);
  return abc.a;
}

void check_fixture(const std::string& circuit, unsigned log_n) {
  CAPTURE(circuit);
  const std::string json = fixture_text(circuit);
  REQUIRE(std::stoul(json_scalar(json, "domainSize")) == (std::size_t{1} << log_n));
  REQUIRE(json_scalar(json, "r") == to_decimal(Fr::modulus));
  const Domain domain = Domain::make(log_n, HConvention::snarkjs);
  CHECK(domain.omega() == decimal_element(json_scalar(json, "omega")));
  CHECK(domain.shift() == decimal_element(json_scalar(json, "inc")));

  Abc abc{decimal_elements(json, "A_T"), decimal_elements(json, "B_T"), decimal_elements(json, "C_T")};
  REQUIRE(abc.a.size() == domain.size());
  REQUIRE(abc.b.size() == domain.size());
  REQUIRE(abc.c.size() == domain.size());
  for (std::size_t i = 0; i < domain.size(); ++i) REQUIRE(abc.c[i] == abc.a[i] * abc.b[i]);

  // snarkjs's own sequence: X = ifft(X_T); X_odd = fft(X·inc^i), both natural order.
  const char* names[3][2] = {{"A_T", "A_odd"}, {"B_T", "B_odd"}, {"C_T", "C_odd"}};
  for (const auto& name : names) {
    CAPTURE(name[1]);
    std::vector<Fr> values = decimal_elements(json, name[0]);
    cpu::inverse_ntt(values, domain);
    cpu::coset_forward_ntt(values, domain);
    CHECK(first_mismatch(values, decimal_elements(json, name[1])) == -1);
    // The no-bit-reversal pairing the GPU uses: iNTT NR, then coset NTT RN.
    values = decimal_elements(json, name[0]);
    cpu::inverse_ntt(values, domain, NttOrder::NR);
    cpu::coset_forward_ntt(values, domain, NttOrder::RN);
    CHECK(first_mismatch(values, decimal_elements(json, name[1])) == -1);
  }
  CHECK(first_mismatch(compute_h_copy(abc, domain), decimal_elements(json, "H_scalars")) == -1);
}

}  // namespace

TEST_CASE("arith/h/snarkjs fixture chain_16 reproduced bit for bit") {
  check_fixture("chain_16", 5);
}

TEST_CASE("arith/h/snarkjs fixture chain_1024 reproduced bit for bit") {
  check_fixture("chain_1024", 11);
}

TEST_CASE("arith/h/generator7 h equals (AB - C) divided by X^n - 1 by polynomial arithmetic") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  for (unsigned k = 1; k <= 7; ++k) {
    CAPTURE(k);
    const Domain domain = Domain::make(k, HConvention::generator7);
    const std::size_t n = domain.size();
    for (const bool satisfied : {true, false}) {
      CAPTURE(satisfied);
      const Abc abc = random_abc(rng, n, satisfied);
      const Quotient want = divide_by_vanishing(interpolate(abc.a, domain), interpolate(abc.b, domain),
                                                interpolate(abc.c, domain));
      const std::vector<Fr> h = compute_h_copy(abc, domain);
      if (satisfied) {
        // A·B − C vanishes on the domain, so Z divides it exactly.
        CHECK(want.rem == std::vector<Fr>(n, Fr::zero()));
        CHECK(first_mismatch(h, want.q) == -1);
        CHECK(h[n - 1] == Fr::zero());
      } else {
        // Documented semantics off the R1CS: q + rem/(g^n − 1).
        std::vector<Fr> expected(n);
        for (std::size_t j = 0; j < n; ++j)
          expected[j] = want.q[j] + want.rem[j] * domain.vanishing_on_coset_inv();
        CHECK(first_mismatch(h, expected) == -1);
      }
    }
  }
}

TEST_CASE("arith/h/snarkjs scalars equal AB - C evaluated on the odd coset") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  for (unsigned k = 1; k <= 7; ++k) {
    CAPTURE(k);
    const Domain domain = Domain::make(k, HConvention::snarkjs);
    const std::size_t n = domain.size();
    for (const bool satisfied : {true, false}) {
      CAPTURE(satisfied);
      const Abc abc = random_abc(rng, n, satisfied);
      const auto a = interpolate(abc.a, domain), b = interpolate(abc.b, domain),
                 c = interpolate(abc.c, domain);
      // x_i = ω_2n^(2i+1), written from the definition rather than from the shift.
      const Fr root_2n = Domain::make(k + 1, HConvention::snarkjs).omega();
      std::vector<Fr> expected(n);
      for (std::size_t i = 0; i < n; ++i) {
        const Fr x = root_2n.pow(static_cast<std::uint64_t>(2 * i + 1));
        expected[i] = evaluate(a, x) * evaluate(b, x) - evaluate(c, x);
      }
      CHECK(first_mismatch(compute_h_copy(abc, domain), expected) == -1);
    }
  }
}

TEST_CASE("arith/h/edge cases zeros single nonzero larger sizes and bad spans") {
  const auto seed = test_seed();
  CAPTURE(seed);
  Rng rng(seed);
  for (const HConvention convention : kAllConventions) {
    CAPTURE(convention_name(convention));
    for (unsigned k : {1u, 4u, 8u}) {
      CAPTURE(k);
      const Domain domain = Domain::make(k, convention);
      const std::size_t n = domain.size();
      const std::vector<Fr> zeros(n, Fr::zero());
      CHECK(compute_h_copy({zeros, zeros, zeros}, domain) == zeros);
      // a = b = δ_j, c = δ_j: satisfied (1·1 = 1 at point j, 0 elsewhere), so A·B − C = L_j² − L_j, which
      // vanishes on the domain; h = (L_j² − L_j)/Z.
      const std::size_t j = rng() % n;
      std::vector<Fr> delta(n, Fr::zero());
      delta[j] = Fr::one();
      const auto l = interpolate(delta, domain);
      const Quotient want = divide_by_vanishing(l, l, l);
      CHECK(want.rem == zeros);
      const auto h = compute_h_copy({delta, delta, delta}, domain);
      if (convention == HConvention::generator7) {
        CHECK(first_mismatch(h, want.q) == -1);
      } else {
        // Odd coset: P(x_i) = h(x_i)·Z(x_i) = −2·h(x_i).
        bool ok = true;
        for (std::size_t i = 0; i < n; ++i) {
          const Fr x = domain.shift() * domain.omega().pow(static_cast<std::uint64_t>(i));
          ok = ok && h[i] == -Fr::from_u64(2) * evaluate(want.q, x);
        }
        CHECK(ok);
      }
    }
    // 2^10, satisfied: both outputs against the same quotient q = (A·B − C)/Z of the convention's domain;
    // on the odd coset Z = −2, so snarkjs's P(x_i) = −2·q(x_i).
    const Domain domain = Domain::make(10, convention);
    const Abc abc = random_abc(rng, domain.size(), true);
    const auto want = divide_by_vanishing(interpolate(abc.a, domain), interpolate(abc.b, domain),
                                          interpolate(abc.c, domain));
    CHECK(want.rem == std::vector<Fr>(domain.size(), Fr::zero()));
    const auto h = compute_h_copy(abc, domain);
    if (convention == HConvention::generator7) {
      CHECK(first_mismatch(h, want.q) == -1);
    } else {
      std::vector<Fr> expected(domain.size());
      Fr x = domain.shift();
      for (std::size_t i = 0; i < domain.size(); ++i, x *= domain.omega())
        expected[i] = -Fr::from_u64(2) * evaluate(want.q, x);
      CHECK(first_mismatch(h, expected) == -1);
    }
  }
  const Domain small = Domain::make(3, HConvention::generator7);
  std::vector<Fr> eight(8), four(4);
  CHECK_THROWS_AS(cpu::compute_h(eight, eight, four, small), Error);
  CHECK_THROWS_AS(cpu::compute_h(four, eight, eight, small), Error);
}
