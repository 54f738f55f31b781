// The two pairing-friendly curves proofline proves on, each as one type that names its fields, groups and NTT
// domain. Everything above arith/ that depends on the curve is a template over one of these (instantiated for
// both in its .cpp), so the same source serves BLS12-381 and BN254; device code includes this header too.
//
//   Bls12_381: Fr and Fp of 4 and 6 limbs, G1 y^2 = x^3 + 4, G2 on its M-twist; snarkjs calls it "bls12381".
//   Bn254:     Fr and Fp of 4 limbs each, G1 y^2 = x^3 + 3, G2 on its D-twist; circom's and snarkjs's default
//              prime "bn128" (also alt_bn128, the curve of Ethereum's pairing precompile).
//
// Both scalar fields are 4 limbs (32 bytes), so a witness or an H vector has the same size on either curve;
// points differ (G1 affine: 96 vs 64 bytes, G2: 192 vs 128).
#pragma once

#include <cstdint>
#include <string_view>
#include <utility>

#include <proofline/arith/bn254/g1.hpp>
#include <proofline/arith/bn254/g2.hpp>
#include <proofline/arith/domain.hpp>
#include <proofline/arith/g1.hpp>
#include <proofline/arith/g2.hpp>

namespace proofline {

/// A curve at run time (keys, files and jobs carry one).
enum class CurveId : std::uint8_t { bls12_381, bn254 };

struct Bls12_381 {
  static constexpr CurveId id = CurveId::bls12_381;
  static constexpr std::string_view name = "BLS12-381";
  static constexpr std::string_view snarkjs_name = "bls12381";  ///< "curve" in snarkjs's JSON files

  using Fp = proofline::Fp;
  using Fp2 = proofline::Fp2;
  using Fr = proofline::Fr;
  using G1Params = proofline::G1Params;
  using G2Params = proofline::G2Params;
  using G1Affine = proofline::G1Affine;
  using G1Jacobian = proofline::G1Jacobian;
  using G2Affine = proofline::G2Affine;
  using G2Jacobian = proofline::G2Jacobian;
  using Domain = proofline::Domain;
};

struct Bn254 {
  static constexpr CurveId id = CurveId::bn254;
  static constexpr std::string_view name = "BN254";
  static constexpr std::string_view snarkjs_name = "bn128";

  using Fp = bn254::Fp;
  using Fp2 = bn254::Fp2;
  using Fr = bn254::Fr;
  using G1Params = bn254::G1Params;
  using G2Params = bn254::G2Params;
  using G1Affine = bn254::G1Affine;
  using G1Jacobian = bn254::G1Jacobian;
  using G2Affine = bn254::G2Affine;
  using G2Jacobian = bn254::G2Jacobian;
  using Domain = bn254::Domain;
};

static_assert(sizeof(Bls12_381::Fr) == sizeof(Bn254::Fr), "witness vectors have one size on both curves");

/// "BLS12-381" or "BN254".
constexpr std::string_view curve_name(CurveId curve) noexcept {
  return curve == CurveId::bn254 ? Bn254::name : Bls12_381::name;
}

/// Calls f.template operator()<Curve>() with the curve type of `curve`: the one switch from a run-time curve
/// to the templates.
template <class F>
decltype(auto) with_curve(CurveId curve, F&& f) {
  if (curve == CurveId::bn254) return std::forward<F>(f).template operator()<Bn254>();
  return std::forward<F>(f).template operator()<Bls12_381>();
}

}  // namespace proofline
