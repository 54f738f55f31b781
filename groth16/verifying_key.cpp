#include <proofline/groth16/verifying_key.hpp>

#include <string>

#include <proofline/groth16/detail/point_checks.hpp>

namespace proofline::groth16 {

void validate(const VerifyingKey& vk, Errc code, std::string_view context) {
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

PreparedVerifyingKey prepare(const VerifyingKey& vk) {
  validate(vk);
  PreparedVerifyingKey out;
  out.alpha_beta = pairing(vk.alpha1, vk.beta2);
  out.neg_gamma2 = PreparedG2(-vk.gamma2);
  out.neg_delta2 = PreparedG2(-vk.delta2);
  out.ic = vk.ic;
  return out;
}

}  // namespace proofline::groth16
