#include <proofline/arith/domain.hpp>

#include <string>

#include <proofline/util/error.hpp>

namespace proofline {

template <class F>
BasicDomain<F> BasicDomain<F>::make(unsigned log_size, HConvention convention) {
  if (log_size < 1 || log_size > max_ntt_log_size)
    throw Error(Errc::invalid_argument, "NTT domain: log2 size " + std::to_string(log_size) +
                                            " is outside 1.." + std::to_string(max_ntt_log_size));
  if (convention != HConvention::generator7 && convention != HConvention::snarkjs)
    throw Error(Errc::invalid_argument,
                "NTT domain: unknown H convention " + std::to_string(static_cast<unsigned>(convention)));
  if (!NttField<F>::has_convention(convention))
    throw Error(Errc::invalid_argument, "NTT domain: this curve's keys use snarkjs's H convention only");
  BasicDomain domain;
  domain.log_size_ = log_size;
  domain.convention_ = convention;

  // Square the 2^two_adicity-th root down to order 2n first: snarkjs's shift is that root (ω_2n), and one
  // more squaring gives ω_n.
  F root_2n = two_adic_root<F>(convention);
  for (unsigned i = log_size + 1; i < NttField<F>::two_adicity; ++i) root_2n = root_2n.squared();
  domain.omega_ = root_2n.squared();
  domain.omega_inv_ = domain.omega_.inverse();
  domain.size_inv_ = F::from_u64(domain.size()).inverse();
  domain.shift_ = convention == HConvention::generator7 ? F::from_u64(7) : root_2n;
  domain.shift_inv_ = domain.shift_.inverse();
  domain.vanishing_inv_ = (domain.shift_.pow(domain.size()) - F::one()).inverse();
  return domain;
}

template class BasicDomain<Fr>;
template class BasicDomain<bn254::Fr>;

}  // namespace proofline
