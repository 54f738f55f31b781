// Conversion of many projective points to affine with one field inversion per block (Montgomery's trick),
// parallel over blocks with TBB. Host only: MSM results, setup output and proving-key preparation.
#pragma once

#include <span>

#include <proofline/arith/bn254/g1.hpp>
#include <proofline/arith/bn254/g2.hpp>
#include <proofline/arith/g1.hpp>
#include <proofline/arith/g2.hpp>

namespace proofline {

/// out[i] = points[i].to_affine() for every i; points at infinity become (0, 0). The spans must have the same
/// size (otherwise throws Error(Errc::invalid_argument)) and must not overlap.
void batch_to_affine(std::span<const G1Jacobian> points, std::span<G1Affine> out);
void batch_to_affine(std::span<const G1Xyzz> points, std::span<G1Affine> out);
void batch_to_affine(std::span<const G2Jacobian> points, std::span<G2Affine> out);
void batch_to_affine(std::span<const G2Xyzz> points, std::span<G2Affine> out);
void batch_to_affine(std::span<const bn254::G1Jacobian> points, std::span<bn254::G1Affine> out);
void batch_to_affine(std::span<const bn254::G1Xyzz> points, std::span<bn254::G1Affine> out);
void batch_to_affine(std::span<const bn254::G2Jacobian> points, std::span<bn254::G2Affine> out);
void batch_to_affine(std::span<const bn254::G2Xyzz> points, std::span<bn254::G2Affine> out);

}  // namespace proofline
