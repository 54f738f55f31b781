// The Groth16 prover on the CPU, split into the steps the pipeline reuses:
//
//   synthesize        a = A·z, b = B·z, c = C·z into the caller's buffers (pinned slots in the pipeline)
//   compute_h_scalars H scalars from a, b, c in the key's convention (cpu::compute_h; the GPU has its own)
//   compute_msms      the five MSMs: A, B1 (G1) and B2 (G2) over z, L over the private part
//                     z[num_public + 1 ..], H over the H scalars (cpu::msm; a GPU backend fills MsmResults
//                     itself)
//   assemble_proof    the proof from the five MSM results and r, s:
//                       A = Σ z_j·A_j + α1 + r·δ1
//                       B = Σ z_j·B2_j + β2 + s·δ2          (and B1 = Σ z_j·B1_j + β1 + s·δ1 in G1)
//                       C = Σ_private z_j·L_j + Σ h_i·H_i + s·A + r·B1 − r·s·δ1
//
// Scalars are Fr elements in Montgomery form throughout (the witness, the H scalars); the MSMs take them as
// they are. snarkjs feeds its MSMs plain integers instead, which is the same arithmetic in another encoding.
//
// r and s come from the operating system's CSPRNG (os_random.hpp); nothing seeded ever feeds them.
#pragma once

#include <optional>
#include <span>

#include <proofline/arith/curves.hpp>
#include <proofline/cpu/msm.hpp>
#include <proofline/groth16/constraint_system.hpp>
#include <proofline/groth16/proof.hpp>
#include <proofline/groth16/proving_key.hpp>

namespace proofline::groth16 {

/// The blinding factors of one proof.
template <class Curve>
struct BasicProofRandomness {
  typename Curve::Fr r, s;
};
using ProofRandomness = BasicProofRandomness<Bls12_381>;

/// Fresh r and s from getrandom(2).
template <class Curve = Bls12_381>
BasicProofRandomness<Curve> draw_proof_randomness();

struct ProveTimings {
  double synthesis_s = 0;  ///< evaluate (and the witness check)
  double h_s = 0;          ///< NTTs and the pointwise step
  double msm_a_s = 0, msm_b1_s = 0, msm_b2_s = 0, msm_l_s = 0, msm_h_s = 0;
  double assembly_s = 0;
  double total_s = 0;
};

template <class Curve>
struct BasicProveOptions {
  /// TESTS ONLY. Uses these r and s instead of fresh randomness, so that proofs are reproducible (r = s = 0
  /// gives the deterministic fixtures). A proof whose r and s are known is not zero-knowledge: it leaks
  /// information about the witness. Never set this outside tests.
  std::optional<BasicProofRandomness<Curve>> fixed_randomness{};
  /// After synthesis, check a_i·b_i = c_i on every row (one multiplication per row) and throw
  /// Error(bad_input) naming the first failing row, instead of making a proof that will not verify.
  bool check_witness = true;
  cpu::MsmOptions msm{};
};
using ProveOptions = BasicProveOptions<Bls12_381>;

/// The five MSM results, before blinding.
template <class Curve>
struct BasicMsmResults {
  typename Curve::G1Jacobian a;   ///< Σ z_j·A_j
  typename Curve::G1Jacobian b1;  ///< Σ z_j·B1_j
  typename Curve::G2Jacobian b2;  ///< Σ z_j·B2_j
  typename Curve::G1Jacobian l;   ///< Σ z_{num_public+1+k}·L_k
  typename Curve::G1Jacobian h;   ///< Σ h_i·H_i
};
using MsmResults = BasicMsmResults<Bls12_381>;

/// Throws Error(invalid_argument) unless cs and pk are for the same shape: equal variable and public-input
/// counts, and every row of cs inside the key's domain.
template <class Curve>
void check_compatible(const BasicProvingKey<Curve>& pk, const BasicConstraintSystem<Curve>& cs);

/// Checks the witness shape and compatibility, then evaluate(cs, z, a, b, c); a, b, c have pk.domain_size()
/// elements.
template <class Curve>
void synthesize(const BasicProvingKey<Curve>& pk, const BasicConstraintSystem<Curve>& cs,
                std::span<const typename Curve::Fr> z, std::span<typename Curve::Fr> a,
                std::span<typename Curve::Fr> b, std::span<typename Curve::Fr> c);

/// The H scalars in pk's convention, computed in place: returns the first h_query.size() elements of a (b and
/// c are overwritten with intermediates).
template <class Curve>
std::span<const typename Curve::Fr> compute_h_scalars(const BasicProvingKey<Curve>& pk,
                                                      std::span<typename Curve::Fr> a,
                                                      std::span<typename Curve::Fr> b,
                                                      std::span<typename Curve::Fr> c);

/// The five MSMs on the CPU. z has num_variables elements, h has h_query.size().
template <class Curve>
BasicMsmResults<Curve> compute_msms(const BasicProvingKey<Curve>& pk, std::span<const typename Curve::Fr> z,
                                    std::span<const typename Curve::Fr> h,
                                    const cpu::MsmOptions& options = {}, ProveTimings* timings = nullptr);

/// The proof from the MSM results (any backend) and r, s.
template <class Curve>
BasicProof<Curve> assemble_proof(const BasicProvingKey<Curve>& pk, const BasicMsmResults<Curve>& msm,
                                 const BasicProofRandomness<Curve>& randomness);

/// All of the above. z: the full witness (z[0] = 1, publics, private). Allocates the three domain-size
/// buffers itself.
template <class Curve>
BasicProof<Curve> prove(const BasicProvingKey<Curve>& pk, const BasicConstraintSystem<Curve>& cs,
                        std::span<const typename Curve::Fr> z, const BasicProveOptions<Curve>& options = {},
                        ProveTimings* timings = nullptr);

}  // namespace proofline::groth16
