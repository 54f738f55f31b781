#include <proofline/groth16/verifying_key.hpp>

#include <string>

#include <proofline/groth16/detail/point_checks.hpp>

namespace proofline::groth16 {

template <class Curve>
void validate(const BasicVerifyingKey<Curve>& vk, Errc code, std::string_view context) {
  if (vk.ic.empty())
    throw Error(code, std::string(context) + ": the IC list is empty (it needs num_public + 1)");
  detail::require_group_element(vk.alpha1, code, context, "alpha1");
  detail::require_group_element(vk.beta2, code, context, "beta2");
  detail::require_group_element(vk.gamma2, code, context, "gamma2");
  detail::require_group_element(vk.delta2, code, context, "delta2");
  for (std::size_t i = 0; i < vk.ic.size(); ++i) {
    const std::string name = "IC[" + std::to_string(i) + "]";
    detail::require_group_element(vk.ic[i], code, context, name.c_str());
  }
}

template <class Curve>
BasicPreparedVerifyingKey<Curve> prepare(const BasicVerifyingKey<Curve>& vk) {
  using Pairing = CurvePairing<Curve>;
  validate(vk);
  BasicPreparedVerifyingKey<Curve> out;
  out.alpha_beta = Pairing::pairing(vk.alpha1, vk.beta2);
  out.neg_gamma2 = Pairing::prepare(-vk.gamma2);
  out.neg_delta2 = Pairing::prepare(-vk.delta2);
  out.ic = vk.ic;
  return out;
}

template void validate(const BasicVerifyingKey<Bls12_381>&, Errc, std::string_view);
template void validate(const BasicVerifyingKey<Bn254>&, Errc, std::string_view);
template BasicPreparedVerifyingKey<Bls12_381> prepare(const BasicVerifyingKey<Bls12_381>&);
template BasicPreparedVerifyingKey<Bn254> prepare(const BasicVerifyingKey<Bn254>&);

}  // namespace proofline::groth16
