// The scalars of Groth16's H-query MSM, computed on the CPU from the QAP evaluations a, b, c. The CPU
// backend's H stage and the reference for the GPU one.
#pragma once

#include <span>

#include <proofline/arith/domain.hpp>
#include <proofline/arith/fr.hpp>

namespace proofline::cpu {

/// a, b, c: the evaluations A(ω^i), B(ω^i), C(ω^i) at the domain points in natural order, as R1CS synthesis
/// produces them (a = A·z etc.; rows past the constraints are zero or, for snarkjs keys, the extra IC rows).
/// On return a holds the H scalars in natural order; b and c are overwritten with intermediates. The
/// convention is the domain's:
///
///   generator7: a[j] = h_j, the coefficients of h(X) = (A(X)·B(X) − C(X)) / (X^n − 1), j = 0..n−1, where
///     A, B, C are the degree < n interpolants. When a_i·b_i = c_i for every i (the witness satisfies the
///     R1CS) the division is exact, deg h <= n − 2 and h_{n−1} = 0. Otherwise the result is the degree < n
///     polynomial equal to (A·B − C)/Z on the coset, i.e. q + rem/(g^n − 1) for A·B − C = q·Z + rem.
///     Computed as 3 × (iNTT, coset NTT with g = 7), (a·b − c)/Z(g) pointwise, coset iNTT: 7 NTTs.
///
///   snarkjs: a[i] = A(x_i)·B(x_i) − C(x_i) with x_i = ω_2n^(2i+1) = g·ω^i (the odd 2n-th roots), exactly
///     snarkjs's joinABC output before its conversion out of Montgomery form; no division by Z (the zkey's
///     H points absorb it). 3 × (iNTT, coset NTT), a·b − c: 6 NTTs.
///
/// Throws Error(invalid_argument) unless all three spans have domain.size() elements.
void compute_h(std::span<Fr> a, std::span<Fr> b, std::span<Fr> c, const Domain& domain);
void compute_h(std::span<bn254::Fr> a, std::span<bn254::Fr> b, std::span<bn254::Fr> c,
               const bn254::Domain& domain);

}  // namespace proofline::cpu
