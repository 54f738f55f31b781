// The optimal ate pairing on BN254, host only (a Groth16 verifier's pairing check for circom/snarkjs bn128
// keys). Same tower, curve templates and Miller-loop steps as BLS12-381's pairing (arith/pairing.hpp); see
// pairing_bn254.cpp for the BN254-specific loop and final exponentiation.
//
// Convention: pairing(P, Q) = f_{6u+2,Q}(P) l_{T,psi(Q)}(P) l_{T',-psi^2(Q)}(P) raised to (p^12 - 1) / r, the
// textbook reduced optimal ate pairing (the value of py_ecc's bn128 `pairing`, up to its own choice of
// Miller function, so only products compared with 1 are interoperable; tests use EIP-197's vectors).
#pragma once

#include <span>
#include <utility>

#include <proofline/arith/bn254/fp12.hpp>
#include <proofline/arith/bn254/g1.hpp>
#include <proofline/arith/bn254/g2.hpp>

namespace proofline::bn254 {

/// The Miller loop (up to factors the final exponentiation removes); 1 when P or Q is the point at infinity.
/// Inputs must be on their curves and in the prime-order subgroups (the caller checks untrusted points).
Fp12 miller_loop(const G1Affine& p, const G2Affine& q);

/// The product of the Miller loops of all pairs, sharing the squarings; pairs with a point at infinity are
/// skipped, and an empty span gives 1.
Fp12 multi_miller_loop(std::span<const std::pair<G1Affine, G2Affine>> pairs);

/// f^((p^12 - 1) / r): the easy part (p^6 - 1)(p^2 + 1), then the hard part (p^4 - p^2 + 1) / r. A zero
/// input (never a Miller-loop output) gives zero.
Fp12 final_exponentiation(const Fp12& f);

/// e(P, Q) = final_exponentiation(miller_loop(P, Q)).
Fp12 pairing(const G1Affine& p, const G2Affine& q);

/// The pairing check of EIP-197 and of a verifier: prod e(P_i, Q_i) == 1.
bool pairing_product_is_one(std::span<const std::pair<G1Affine, G2Affine>> pairs);

}  // namespace proofline::bn254
