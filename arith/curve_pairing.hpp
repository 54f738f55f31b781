// The pairing of either curve behind one interface, for code templated on the curve (the Groth16 verifier):
// e(P, Q), and the product of pairings with prepared second arguments, final exponentiation included. Host
// only. BLS12-381 precomputes the Miller loop's lines of a fixed G2 point (PreparedG2); BN254 keeps the
// affine point (its verifier is not on a hot path).
#pragma once

#include <functional>
#include <span>
#include <utility>
#include <vector>

#include <proofline/arith/bn254/pairing.hpp>
#include <proofline/arith/curves.hpp>
#include <proofline/arith/pairing.hpp>

namespace proofline {

template <class Curve>
struct CurvePairing;

template <>
struct CurvePairing<Bls12_381> {
  using Gt = Fp12;
  using PreparedG2 = proofline::PreparedG2;
  using Pair = std::pair<G1Affine, std::reference_wrapper<const PreparedG2>>;

  static PreparedG2 prepare(const G2Affine& q) { return PreparedG2(q); }
  static Gt pairing(const G1Affine& p, const G2Affine& q) { return proofline::pairing(p, q); }
  static Gt product(std::span<const Pair> pairs) { return final_exponentiation(multi_miller_loop(pairs)); }
};

template <>
struct CurvePairing<Bn254> {
  using Gt = bn254::Fp12;
  using PreparedG2 = bn254::G2Affine;
  using Pair = std::pair<bn254::G1Affine, std::reference_wrapper<const PreparedG2>>;

  static PreparedG2 prepare(const bn254::G2Affine& q) { return q; }
  static Gt pairing(const bn254::G1Affine& p, const bn254::G2Affine& q) { return bn254::pairing(p, q); }
  static Gt product(std::span<const Pair> pairs) {
    std::vector<std::pair<bn254::G1Affine, bn254::G2Affine>> plain;
    plain.reserve(pairs.size());
    for (const Pair& pair : pairs) plain.emplace_back(pair.first, pair.second.get());
    return bn254::final_exponentiation(bn254::multi_miller_loop(plain));
  }
};

}  // namespace proofline
