#include <proofline/groth16/prover.hpp>

#include <tbb/blocked_range.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include <proofline/arith/domain.hpp>
#include <proofline/cpu/h_poly.hpp>
#include <proofline/cpu/scalar_mul.hpp>
#include <proofline/groth16/os_random.hpp>
#include <proofline/util/error.hpp>

namespace proofline::groth16 {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace

template <class Curve>
BasicProofRandomness<Curve> draw_proof_randomness() {
  using Fr = typename Curve::Fr;
  return {os_random_scalar<Fr>(), os_random_scalar<Fr>()};
}

template <class Curve>
void check_compatible(const BasicProvingKey<Curve>& pk, const BasicConstraintSystem<Curve>& cs) {
  if (pk.num_variables != cs.num_variables || pk.num_public != cs.num_public)
    throw Error(Errc::invalid_argument,
                "the proving key is for " + std::to_string(pk.num_variables) + " variables and " +
                    std::to_string(pk.num_public) + " public inputs, the constraint system has " +
                    std::to_string(cs.num_variables) + " and " + std::to_string(cs.num_public));
  if (cs.num_constraints() > pk.domain_size())
    throw Error(Errc::invalid_argument, "the constraint system's " + std::to_string(cs.num_constraints()) +
                                            " rows do not fit the proving key's domain of " +
                                            std::to_string(pk.domain_size()));
}

template <class Curve>
void synthesize(const BasicProvingKey<Curve>& pk, const BasicConstraintSystem<Curve>& cs,
                std::span<const typename Curve::Fr> z, std::span<typename Curve::Fr> a,
                std::span<typename Curve::Fr> b, std::span<typename Curve::Fr> c) {
  check_compatible(pk, cs);
  check_witness_shape(cs, z);
  if (a.size() != pk.domain_size())
    throw Error(Errc::invalid_argument, "synthesize: buffers of " + std::to_string(a.size()) +
                                            " values for a domain of " + std::to_string(pk.domain_size()));
  evaluate(cs, z, a, b, c);
}

template <class Curve>
std::span<const typename Curve::Fr> compute_h_scalars(const BasicProvingKey<Curve>& pk,
                                                      std::span<typename Curve::Fr> a,
                                                      std::span<typename Curve::Fr> b,
                                                      std::span<typename Curve::Fr> c) {
  const auto domain = Curve::Domain::make(pk.log_domain_size, pk.convention);
  cpu::compute_h(a, b, c, domain);
  return std::span<const typename Curve::Fr>(a.data(), pk.h_query.size());
}

template <class Curve>
BasicMsmResults<Curve> compute_msms(const BasicProvingKey<Curve>& pk, std::span<const typename Curve::Fr> z,
                                    std::span<const typename Curve::Fr> h, const cpu::MsmOptions& options,
                                    ProveTimings* timings) {
  if (z.size() != pk.num_variables || h.size() != pk.h_query.size())
    throw Error(Errc::invalid_argument, "compute_msms: " + std::to_string(z.size()) + " witness values and " +
                                            std::to_string(h.size()) + " H scalars for a key of " +
                                            std::to_string(pk.num_variables) + " variables and " +
                                            std::to_string(pk.h_query.size()) + " H points");
  ProveTimings local;
  ProveTimings& t = timings != nullptr ? *timings : local;
  BasicMsmResults<Curve> out;
  auto mark = Clock::now();
  out.a = cpu::msm(pk.a_query.span(), z, options);
  t.msm_a_s = seconds_since(mark);
  mark = Clock::now();
  out.b1 = cpu::msm(pk.b1_query.span(), z, options);
  t.msm_b1_s = seconds_since(mark);
  mark = Clock::now();
  out.b2 = cpu::msm(pk.b2_query.span(), z, options);
  t.msm_b2_s = seconds_since(mark);
  mark = Clock::now();
  out.l = cpu::msm(pk.l_query.span(), z.subspan(pk.num_public + 1), options);
  t.msm_l_s = seconds_since(mark);
  mark = Clock::now();
  out.h = cpu::msm(pk.h_query.span(), h, options);
  t.msm_h_s = seconds_since(mark);
  return out;
}

template <class Curve>
BasicProof<Curve> assemble_proof(const BasicProvingKey<Curve>& pk, const BasicMsmResults<Curve>& msm,
                                 const BasicProofRandomness<Curve>& randomness) {
  using G1Jacobian = typename Curve::G1Jacobian;
  const auto& r = randomness.r;
  const auto& s = randomness.s;
  const G1Jacobian delta1 = pk.delta1.to_jacobian();
  const G1Jacobian a = msm.a + pk.alpha1 + cpu::scalar_mul(delta1, r);
  const typename Curve::G2Jacobian b = msm.b2 + pk.beta2 + cpu::scalar_mul(pk.delta2.to_jacobian(), s);
  const G1Jacobian b1 = msm.b1 + pk.beta1 + cpu::scalar_mul(delta1, s);
  const G1Jacobian c =
      msm.l + msm.h + cpu::scalar_mul(a, s) + cpu::scalar_mul(b1, r) - cpu::scalar_mul(delta1, r * s);
  return BasicProof<Curve>{a.to_affine(), b.to_affine(), c.to_affine()};
}

template <class Curve>
BasicProof<Curve> prove(const BasicProvingKey<Curve>& pk, const BasicConstraintSystem<Curve>& cs,
                        std::span<const typename Curve::Fr> z, const BasicProveOptions<Curve>& options,
                        ProveTimings* timings) {
  using Fr = typename Curve::Fr;
  const auto start = Clock::now();
  ProveTimings local;
  ProveTimings& t = timings != nullptr ? *timings : local;
  t = ProveTimings{};
  const std::uint64_t n = pk.domain_size();
  std::vector<Fr> a(n), b(n), c(n);

  auto mark = Clock::now();
  synthesize(pk, cs, z, std::span<Fr>(a), std::span<Fr>(b), std::span<Fr>(c));
  if (options.check_witness && cs.c) {
    const std::size_t rows = cs.num_constraints();
    if (const auto row = first_unsatisfied_row(std::span(a).first(rows), b, c))
      throw Error(Errc::bad_input,
                  "prove: the witness does not satisfy constraint row " + std::to_string(*row));
  }
  t.synthesis_s = seconds_since(mark);

  mark = Clock::now();
  const std::span<const Fr> h = compute_h_scalars(pk, std::span<Fr>(a), std::span<Fr>(b), std::span<Fr>(c));
  t.h_s = seconds_since(mark);

  const BasicMsmResults<Curve> msm = compute_msms(pk, z, h, options.msm, &t);

  mark = Clock::now();
  const BasicProofRandomness<Curve> randomness =
      options.fixed_randomness ? *options.fixed_randomness : draw_proof_randomness<Curve>();
  const BasicProof<Curve> proof = assemble_proof(pk, msm, randomness);
  t.assembly_s = seconds_since(mark);
  t.total_s = seconds_since(start);
  return proof;
}

#define PROOFLINE_PROVER_FOR(Curve)                                                                          \
  template BasicProofRandomness<Curve> draw_proof_randomness<Curve>();                                       \
  template void check_compatible(const BasicProvingKey<Curve>&, const BasicConstraintSystem<Curve>&);        \
  template void synthesize(const BasicProvingKey<Curve>&, const BasicConstraintSystem<Curve>&,               \
                           std::span<const Curve::Fr>, std::span<Curve::Fr>, std::span<Curve::Fr>,           \
                           std::span<Curve::Fr>);                                                            \
  template std::span<const Curve::Fr> compute_h_scalars(const BasicProvingKey<Curve>&, std::span<Curve::Fr>, \
                                                        std::span<Curve::Fr>, std::span<Curve::Fr>);         \
  template BasicMsmResults<Curve> compute_msms(const BasicProvingKey<Curve>&, std::span<const Curve::Fr>,    \
                                               std::span<const Curve::Fr>, const cpu::MsmOptions&,           \
                                               ProveTimings*);                                               \
  template BasicProof<Curve> assemble_proof(const BasicProvingKey<Curve>&, const BasicMsmResults<Curve>&,    \
                                            const BasicProofRandomness<Curve>&);                             \
  template BasicProof<Curve> prove(const BasicProvingKey<Curve>&, const BasicConstraintSystem<Curve>&,       \
                                   std::span<const Curve::Fr>, const BasicProveOptions<Curve>&,              \
                                   ProveTimings*);
PROOFLINE_PROVER_FOR(Bls12_381)
PROOFLINE_PROVER_FOR(Bn254)
#undef PROOFLINE_PROVER_FOR

}  // namespace proofline::groth16
