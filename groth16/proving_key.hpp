// The Groth16 proving key (the SRS a prover needs) on either curve, in one of the two H conventions.
//
// With the trapdoor τ, α, β, γ, δ, the domain {ω^i} of size n = 2^log_domain_size, its Lagrange basis L_i and
// u_j, v_j, w_j = A_j(τ), B_j(τ), C_j(τ) (A_j(X) = Σ_i A[i][j]·L_i(X), the QAP polynomials of the rows):
//
//   alpha1 = [α]1, beta1 = [β]1, delta1 = [δ]1, beta2 = [β]2, delta2 = [δ]2
//   a_query[j]  = [u_j]1,  b1_query[j] = [v_j]1,  b2_query[j] = [v_j]2      j = 0 .. num_variables − 1
//   l_query[k]  = [(β·u_j + α·v_j + w_j)/δ]1   for j = num_public + 1 + k  (the private variables)
//   h_query, by convention:
//     generator7: [τ^i·Z(τ)/δ]1 for i = 0 .. n − 2 (n − 1 points), Z(X) = X^n − 1. The MSM pairs them with
//     the
//                 coefficients h_0 .. h_{n−2} of h = (A·B − C)/Z that cpu::compute_h returns in this
//                 convention (h_{n−1} is zero for a satisfying witness and has no point).
//     snarkjs:    [L^(2n)_{2i+1}(τ)/δ]1 for i = 0 .. n − 1 (n points): the Lagrange basis of the 2n-th roots
//                 at the odd points g·ω^i (g = ω_2n). The MSM pairs them with the odd-coset evaluations
//                 (A·B − C)(g·ω^i) that cpu::compute_h returns in this convention; since A·B − C vanishes
//                 at the even points and has degree < 2n, Σ_i (A·B − C)(g·ω^i)·L^(2n)_{2i+1}(τ) = h(τ)·Z(τ),
//                 so these points absorb Z and no division happens. This is snarkjs's zkey section 9.
//
// Both conventions give the same proof for the same trapdoor and r, s. Points are affine in our in-memory
// layout (Montgomery-form coordinates, all-zero infinity), which is also snarkjs's zkey layout, so a zkey's
// sections can back these arrays directly. The queries are SharedArrays: owned vectors or zero-copy views
// into a file image read into memory the key owns (heap or pinned), never into a mapping of the file.
#pragma once

#include <cstdint>

#include <proofline/arith/curves.hpp>
#include <proofline/arith/domain.hpp>
#include <proofline/groth16/fwd.hpp>
#include <proofline/groth16/shared_array.hpp>
#include <proofline/util/error.hpp>

namespace proofline::groth16 {

template <class Curve>
struct BasicProvingKey {
  using G1Affine = typename Curve::G1Affine;
  using G2Affine = typename Curve::G2Affine;

  HConvention convention = HConvention::generator7;
  std::uint64_t num_variables = 0;  ///< witness length, z[0] = 1 included
  std::uint64_t num_public = 0;     ///< not counting z[0]
  unsigned log_domain_size = 0;     ///< n = 2^log_domain_size rows

  G1Affine alpha1{}, beta1{}, delta1{};
  G2Affine beta2{}, delta2{};

  SharedArray<G1Affine> a_query;   ///< num_variables
  SharedArray<G1Affine> b1_query;  ///< num_variables
  SharedArray<G2Affine> b2_query;  ///< num_variables
  SharedArray<G1Affine> h_query;   ///< h_query_size(convention, n)
  SharedArray<G1Affine> l_query;   ///< num_variables − num_public − 1

  std::uint64_t domain_size() const noexcept { return std::uint64_t{1} << log_domain_size; }
  std::uint64_t num_private() const noexcept { return num_variables - num_public - 1; }
  /// Bytes of the queries (the resident part of the key).
  std::uint64_t query_bytes() const noexcept {
    return a_query.size_bytes() + b1_query.size_bytes() + b2_query.size_bytes() + h_query.size_bytes() +
           l_query.size_bytes();
  }
};

/// Points in the H query: n − 1 (generator7) or n (snarkjs).
inline std::uint64_t h_query_size(HConvention convention, std::uint64_t domain_size) {
  return convention == HConvention::snarkjs ? domain_size : domain_size - 1;
}

/// Checks that the sizes agree with each other (num_public < num_variables, query lengths, 1 <=
/// log_domain_size <= max_ntt_log_size, a known convention) and that the five fixed points are on their
/// curves and in the prime-order subgroups. The queries' points are checked only when `check_queries` is set
/// (on the curve; O(size), TBB-parallel). Throws Error(code, "<context>: <what is wrong>").
template <class Curve>
void validate(const BasicProvingKey<Curve>& pk, Errc code = Errc::invalid_argument,
              std::string_view context = "proving key", bool check_queries = false);

}  // namespace proofline::groth16
