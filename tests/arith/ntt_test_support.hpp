// Shared by the NTT and H tests: bit-reversed copies, and a GMP model of the evaluation domains (roots from
// g^((r−1)/n) directly, never through the Domain code under test). Random vectors, the lists and names of
// orders and conventions, and reverse_index come from tests/support.
#pragma once

#include <doctest/doctest.h>
#include <gmpxx.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include <proofline/arith/domain.hpp>
#include <proofline/arith/fr.hpp>

#include "arith/gmp_oracle.hpp"
#include "support/field_vectors.hpp"
#include "support/ntt_orders.hpp"

namespace proofline::test {

/// out[i] = in[bitrev(i)]: natural <-> bit-reversed order, element by element.
template <class T>
std::vector<T> bit_reversed_copy(const std::vector<T>& in) {
  unsigned bits = 0;
  while ((std::size_t{1} << bits) < in.size()) ++bits;
  std::vector<T> out(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) out[i] = in[test_support::reverse_index(i, bits)];
  return out;
}

inline bool input_reversed(NttOrder order) {
  return order == NttOrder::RN || order == NttOrder::RR;
}
inline bool output_reversed(NttOrder order) {
  return order == NttOrder::NR || order == NttOrder::RR;
}

/// The domain of size 2^log_n modelled with GMP: ω = g^((r−1)/n) with g = 7 or 5, shift 7 or
/// 5^((r−1)/2n) = ω_2n.
struct MpzDomain {
  mpz_class omega;
  mpz_class shift;

  MpzDomain(unsigned log_n, HConvention convention) {
    const mpz_class& r = FrOracle::p();
    const mpz_class generator = convention == HConvention::generator7 ? 7 : 5;
    omega = powm(generator, (r - 1) >> log_n, r);
    shift = convention == HConvention::generator7 ? mpz_class(7) : powm(generator, (r - 1) >> (log_n + 1), r);
  }

  /// Σ_j coeffs[j]·x_i^j at x_i = s·ω^i (s = shift when coset, else 1), i = 0..n−1, by Horner.
  std::vector<mpz_class> evaluate(const std::vector<mpz_class>& coeffs, bool coset) const {
    const mpz_class& r = FrOracle::p();
    std::vector<mpz_class> out(coeffs.size());
    mpz_class x = coset ? shift : mpz_class(1);
    for (std::size_t i = 0; i < coeffs.size(); ++i) {
      mpz_class acc = 0;
      for (std::size_t j = coeffs.size(); j-- > 0;) acc = mod(acc * x + coeffs[j], r);
      out[i] = acc;
      x = mod(x * omega, r);
    }
    return out;
  }
};

inline std::vector<mpz_class> to_values(const std::vector<Fr>& elements) {
  std::vector<mpz_class> out;
  out.reserve(elements.size());
  for (const auto& element : elements) out.push_back(FrOracle::value(element));
  return out;
}

inline std::vector<Fr> to_elements(const std::vector<mpz_class>& values) {
  std::vector<Fr> out;
  out.reserve(values.size());
  for (const auto& value : values) out.push_back(FrOracle::element(value));
  return out;
}

/// Index of the first difference, or -1: one CHECK per vector keeps failure output readable.
inline long first_mismatch(const std::vector<Fr>& got, const std::vector<Fr>& want) {
  if (got.size() != want.size()) return 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (got[i] != want[i]) return static_cast<long>(i);
  }
  return -1;
}

}  // namespace proofline::test
