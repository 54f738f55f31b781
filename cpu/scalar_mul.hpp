// Scalar multiplication of one point on the host, for the few a proof needs beside its MSMs (the proof's
// assembly: r δ, s δ, s A, r B1, r s δ). A fixed 4-bit window (15 table additions, then four doublings and at
// most one addition a window: about 330 point operations for a 255-bit scalar against about 380 for
// double-and-add), on the mulx twins of the fields where the MSM uses them (msm_uses_carry_instructions()),
// so a small circuit's proof does not spend most of its time here. Variable time, as the MSMs.
#pragma once

#include <proofline/arith/bn254/g1.hpp>
#include <proofline/arith/bn254/g2.hpp>
#include <proofline/arith/g1.hpp>
#include <proofline/arith/g2.hpp>

namespace proofline::cpu {

G1Jacobian scalar_mul(const G1Jacobian& point, const Fr& k);
G2Jacobian scalar_mul(const G2Jacobian& point, const Fr& k);
bn254::G1Jacobian scalar_mul(const bn254::G1Jacobian& point, const bn254::Fr& k);
bn254::G2Jacobian scalar_mul(const bn254::G2Jacobian& point, const bn254::Fr& k);

}  // namespace proofline::cpu
