// Internal: validity checks of points that arrive from outside (files, proofs) before any arithmetic.
#pragma once

#include <string>
#include <string_view>

#include <proofline/arith/g1.hpp>
#include <proofline/arith/g2.hpp>
#include <proofline/util/error.hpp>

namespace proofline::groth16::detail {

/// Montgomery limbs below p: the field code assumes reduced elements (limb equality is value equality).
inline bool is_valid_coordinates(const G1Affine& p) {
  return Fp::is_canonical(p.x.montgomery()) && Fp::is_canonical(p.y.montgomery());
}
inline bool is_valid_coordinates(const G2Affine& p) {
  return Fp::is_canonical(p.x.c0.montgomery()) && Fp::is_canonical(p.x.c1.montgomery()) &&
         Fp::is_canonical(p.y.c0.montgomery()) && Fp::is_canonical(p.y.c1.montgomery());
}

/// Reduced coordinates, on the curve, in the prime-order subgroup (infinity passes).
template <class Affine>
bool is_group_element(const Affine& p) {
  return is_valid_coordinates(p) && p.is_on_curve() && is_in_subgroup(p);
}

template <class Affine>
void require_group_element(const Affine& p, Errc code, std::string_view context, const char* name) {
  if (!is_valid_coordinates(p))
    throw Error(code, std::string(context) + ": " + name + " has a coordinate that is not reduced mod p");
  if (!p.is_on_curve()) throw Error(code, std::string(context) + ": " + name + " is not on the curve");
  if (!is_in_subgroup(p))
    throw Error(code, std::string(context) + ": " + name + " is not in the prime-order subgroup");
}

}  // namespace proofline::groth16::detail
