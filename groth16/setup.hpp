// Groth16 setup from a KNOWN trapdoor, for tests and benchmarks ONLY.
//
//   *** Whoever knows the trapdoor (τ, α, β, γ, δ) can forge proofs for any statement. Keys made here, and
//   *** above all keys made from a seed (trapdoor_from_seed), are public knowledge and must never protect
//   *** anything. Real keys come from a multi-party ceremony (snarkjs zkeys, Filecoin parameters).
//
// What it computes (proving_key.hpp and verifying_key.hpp give the meaning of every point):
//   1. the Lagrange basis at τ on the domain of size n, in O(n): L_i(τ) = (τ^n − 1)·ω^i / (n·(τ − ω^i)), with
//      one batched inversion per block;
//   2. u_j = A_j(τ), v_j = B_j(τ), w_j = C_j(τ) by one TBB-parallel pass over the CSR rows, adding
//      coefficient·L_i(τ) into column j under striped spin locks (field addition is exact and commutative, so
//      the result does not depend on the order or the thread count);
//   3. the query scalars, then all G1 points in one fixed-base call and all G2 points in another
//      (fixed_base.hpp; pluggable, so the GPU kernel can do it).
// Both H conventions are supported; the proofs they give are the same. Everything is a template over the
// curve (arith/curves.hpp), instantiated for BLS12-381 and BN254; the plain names are BLS12-381's.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <proofline/arith/curves.hpp>
#include <proofline/arith/domain.hpp>
#include <proofline/groth16/constraint_system.hpp>
#include <proofline/groth16/fixed_base.hpp>
#include <proofline/groth16/proving_key.hpp>
#include <proofline/groth16/verifying_key.hpp>

namespace proofline::groth16 {

/// The secret values of a setup (see the warning above).
template <class Curve>
struct BasicTrapdoor {
  typename Curve::Fr tau, alpha, beta, gamma, delta;
};
using Trapdoor = BasicTrapdoor<Bls12_381>;

/// A trapdoor derived deterministically from `seed` by a ChaCha20 keystream (detail/chacha20.hpp): nonzero
/// α, β, δ, τ; γ = 1 (snarkjs's choice) unless `random_gamma`. The same seed always gives the same keys,
/// which is what tests and key caches want, and why such keys are INSECURE.
template <class Curve = Bls12_381>
BasicTrapdoor<Curve> trapdoor_from_seed(std::uint64_t seed, bool random_gamma = false);

struct SetupTimings {
  double lagrange_s = 0;    ///< Lagrange basis at τ
  double accumulate_s = 0;  ///< u, v, w from the CSR rows
  double scalars_s = 0;     ///< query scalars (IC, L, H)
  double g1_s = 0;          ///< fixed-base G1 (A, B1, IC, L, H)
  double g2_s = 0;          ///< fixed-base G2 (B2)
  double total_s = 0;
};

/// The H convention keys of `Curve` are made in unless asked otherwise: generator7 where the curve's domains
/// have it (BLS12-381), else snarkjs's (BN254's domains are snarkjs's only).
template <class Curve>
constexpr HConvention default_convention() {
  return NttField<typename Curve::Fr>::has_convention(HConvention::generator7) ? HConvention::generator7
                                                                               : HConvention::snarkjs;
}

template <class Curve>
struct BasicSetupOptions {
  HConvention convention = default_convention<Curve>();
  /// 0: the smallest domain that holds every row (at least 2).
  unsigned log_domain_size = 0;
  BasicFixedBaseBackend<Curve> fixed_base;
  SetupTimings* timings = nullptr;
};
using SetupOptions = BasicSetupOptions<Bls12_381>;

template <class Curve>
struct BasicKeyPair {
  BasicProvingKey<Curve> pk;
  BasicVerifyingKey<Curve> vk;
};
using KeyPair = BasicKeyPair<Bls12_381>;

/// The smallest log2 domain size that holds `rows` rows (at least 1). Throws Error(invalid_argument) above
/// max_ntt_log_size.
unsigned min_log_domain_size(std::uint64_t rows);

/// Keys for `cs` (which must have a C matrix: the L and IC queries need C_j(τ)) from the trapdoor. Throws
/// Error(invalid_argument) for a system without C, a domain too small for its rows, a zero α, β, γ or δ, or a
/// τ on the domain (or, for snarkjs, on the 2n-th roots).
template <class Curve>
BasicKeyPair<Curve> setup_from_trapdoor(const BasicConstraintSystem<Curve>& cs,
                                        const BasicTrapdoor<Curve>& trapdoor,
                                        const BasicSetupOptions<Curve>& options = {});

/// L_i(τ) for i = 0..n−1 on `domain` (O(n), TBB-parallel). τ must not be a domain point.
template <class F>
std::vector<F> lagrange_basis_at(const BasicDomain<F>& domain, const F& tau);

/// u_j, v_j, w_j = A_j(τ), B_j(τ), C_j(τ) for every variable j, from L_i(τ) (lagrange.size() >= rows).
template <class F>
struct BasicQapColumns {
  std::vector<F> u, v, w;
};
using QapColumns = BasicQapColumns<Fr>;
template <class Curve>
BasicQapColumns<typename Curve::Fr> qap_columns_at(const BasicConstraintSystem<Curve>& cs,
                                                   std::span<const typename Curve::Fr> lagrange);

}  // namespace proofline::groth16
