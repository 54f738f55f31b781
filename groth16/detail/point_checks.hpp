// Internal: validity checks of points that arrive from outside (files, proofs) before any arithmetic.
#pragma once

#include <string>
#include <string_view>

#include <proofline/arith/curves.hpp>
#include <proofline/util/error.hpp>

namespace proofline::groth16::detail {

/// Montgomery limbs below p: the field code assumes reduced elements (limb equality is value equality).
/// Every base-field coordinate below p (G1 over Fp, G2 over Fp2 = (c0, c1)), on either curve.
template <class Params>
bool is_valid_coordinates(const AffinePoint<Params>& p) {
  using Field = typename Params::Field;
  if constexpr (requires(Field f) { f.c1; }) {
    using Fp = decltype(Field{}.c0);
    return Fp::is_canonical(p.x.c0.montgomery()) && Fp::is_canonical(p.x.c1.montgomery()) &&
           Fp::is_canonical(p.y.c0.montgomery()) && Fp::is_canonical(p.y.c1.montgomery());
  } else {
    return Field::is_canonical(p.x.montgomery()) && Field::is_canonical(p.y.montgomery());
  }
}

/// p.is_on_curve() and is_in_subgroup(p) of each group of both curves, compiled once (point_checks.cpp) for
/// the readers of keys, proofs and JSON: inlined into each of them, the subgroup tests alone cost every
/// reader tens of seconds of compile time. A call per point is nothing beside the test it makes.
bool on_curve(const G1Affine& p);
bool on_curve(const G2Affine& p);
bool on_curve(const bn254::G1Affine& p);
bool on_curve(const bn254::G2Affine& p);
bool in_subgroup(const G1Affine& p);
bool in_subgroup(const G2Affine& p);
bool in_subgroup(const bn254::G1Affine& p);
bool in_subgroup(const bn254::G2Affine& p);

/// Reduced coordinates, on the curve, in the prime-order subgroup (infinity passes).
template <class Affine>
bool is_group_element(const Affine& p) {
  return is_valid_coordinates(p) && on_curve(p) && in_subgroup(p);
}

template <class Affine>
void require_group_element(const Affine& p, Errc code, std::string_view context, const char* name) {
  if (!is_valid_coordinates(p))
    throw Error(code, std::string(context) + ": " + name + " has a coordinate that is not reduced mod p");
  if (!on_curve(p)) throw Error(code, std::string(context) + ": " + name + " is not on the curve");
  if (!in_subgroup(p))
    throw Error(code, std::string(context) + ": " + name + " is not in the prime-order subgroup");
}

}  // namespace proofline::groth16::detail
