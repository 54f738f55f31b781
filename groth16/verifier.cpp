#include <proofline/groth16/verifier.hpp>

#include <functional>
#include <utility>

#include <proofline/arith/curve_pairing.hpp>
#include <proofline/cpu/msm.hpp>
#include <proofline/cpu/scalar_mul.hpp>
#include <proofline/groth16/detail/point_checks.hpp>

namespace proofline::groth16 {

const char* to_string(VerifyStatus status) noexcept {
  switch (status) {
    case VerifyStatus::ok:
      return "ok";
    case VerifyStatus::wrong_input_count:
      return "wrong number of public inputs";
    case VerifyStatus::a_invalid:
      return "proof point A is not a valid G1 element";
    case VerifyStatus::b_invalid:
      return "proof point B is not a valid G2 element";
    case VerifyStatus::c_invalid:
      return "proof point C is not a valid G1 element";
    case VerifyStatus::pairing_failed:
      return "the pairing check failed";
  }
  return "unknown";
}

template <class Curve>
VerifyStatus verify_status(const BasicPreparedVerifyingKey<Curve>& pvk,
                           std::span<const typename Curve::Fr> public_inputs,
                           const BasicProof<Curve>& proof) {
  using G1Affine = typename Curve::G1Affine;
  using Pairing = CurvePairing<Curve>;
  if (pvk.ic.empty() || public_inputs.size() != pvk.ic.size() - 1) return VerifyStatus::wrong_input_count;
  if (!detail::is_group_element(proof.a)) return VerifyStatus::a_invalid;
  if (!detail::is_group_element(proof.b)) return VerifyStatus::b_invalid;
  if (!detail::is_group_element(proof.c)) return VerifyStatus::c_invalid;

  // IC_0 + Σ x_i·IC_i: a handful of double-and-adds for small statements, an MSM for large ones.
  typename Curve::G1Jacobian acc = pvk.ic[0].to_jacobian();
  const std::span<const G1Affine> ic_rest(pvk.ic.data() + 1, pvk.ic.size() - 1);
  if (public_inputs.size() <= 8) {
    for (std::size_t i = 0; i < public_inputs.size(); ++i)
      acc += cpu::scalar_mul(ic_rest[i].to_jacobian(), public_inputs[i]);
  } else {
    acc += cpu::msm(ic_rest, public_inputs);
  }
  const typename Pairing::PreparedG2 b = Pairing::prepare(proof.b);
  const typename Pairing::Pair pairs[] = {{proof.a, std::cref(b)},
                                          {acc.to_affine(), std::cref(pvk.neg_gamma2)},
                                          {proof.c, std::cref(pvk.neg_delta2)}};
  return Pairing::product(pairs) == pvk.alpha_beta ? VerifyStatus::ok : VerifyStatus::pairing_failed;
}

template VerifyStatus verify_status(const BasicPreparedVerifyingKey<Bls12_381>&, std::span<const Fr>,
                                    const BasicProof<Bls12_381>&);
template VerifyStatus verify_status(const BasicPreparedVerifyingKey<Bn254>&, std::span<const bn254::Fr>,
                                    const BasicProof<Bn254>&);

}  // namespace proofline::groth16
