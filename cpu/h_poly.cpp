#include <proofline/cpu/h_poly.hpp>

#include <cstddef>
#include <string>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>

#include <proofline/cpu/detail/ifma_batch.hpp>
#include <proofline/cpu/detail/ntt_ifma.hpp>
#include <proofline/cpu/detail/ntt_steps.hpp>
#include <proofline/cpu/ntt.hpp>
#include <proofline/util/error.hpp>

namespace proofline::cpu {

namespace {

/// Evaluations on the domain (natural) -> evaluations on the coset (natural), without a bit-reversal pass:
/// the inverse NTT leaves n·coefficients in bit-reversed order, one pass multiplies position i by
/// g^bitrev(i)/n, and the bit-reversed-input forward NTT returns to natural order.
template <class F>
void to_coset(std::span<F> values, const BasicDomain<F>& domain) {
  detail::ntt_nr_unscaled(values, domain, NttDirection::inverse);
  detail::scale_by_powers(values, domain.size_inv(), domain.shift(), true);
  detail::ntt_rn_unscaled(values, domain, NttDirection::forward);
}

template <class F>
void compute_h_any(std::span<F> a, std::span<F> b, std::span<F> c, const BasicDomain<F>& domain) {
  const std::size_t n = domain.size();
  if (a.size() != n || b.size() != n || c.size() != n)
    throw Error(Errc::invalid_argument, "compute_h: a, b, c have " + std::to_string(a.size()) + ", " +
                                            std::to_string(b.size()) + ", " + std::to_string(c.size()) +
                                            " values for a domain of size " + std::to_string(n));
  tbb::parallel_invoke([&] { to_coset(a, domain); }, [&] { to_coset(b, domain); },
                       [&] { to_coset(c, domain); });
  // A·B − C on the IFMA lanes where the CPU has them, eight elements at a time; the scalar loop takes the
  // rest.
  const bool lanes = detail::ifma_enabled();
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 4096),
                    [&](const tbb::blocked_range<std::size_t>& r) {
                      std::size_t i = r.begin();
                      const std::size_t rows = lanes ? (r.end() - i) & ~std::size_t{7} : 0;
                      if (rows != 0) {
                        detail::ifma_mul_sub(F::modulus.limb, a[i].limb, b[i].limb, c[i].limb, rows);
                        i += rows;
                      }
                      for (; i != r.end(); ++i) a[i] = a[i] * b[i] - c[i];
                    });
  if (domain.convention() == HConvention::snarkjs) return;

  // Coset iNTT with the constant 1/Z(g·ω^i) folded into the 1/n·g^−j pass, then back to natural order.
  detail::ntt_nr_unscaled(a, domain, NttDirection::inverse);
  detail::scale_by_powers(a, domain.size_inv() * domain.vanishing_on_coset_inv(), domain.shift_inv(), true);
  bit_reverse_permutation(a);
}

}  // namespace

void compute_h(std::span<Fr> a, std::span<Fr> b, std::span<Fr> c, const Domain& domain) {
  compute_h_any(a, b, c, domain);
}

void compute_h(std::span<bn254::Fr> a, std::span<bn254::Fr> b, std::span<bn254::Fr> c,
               const bn254::Domain& domain) {
  compute_h_any(a, b, c, domain);
}

}  // namespace proofline::cpu
