// The CPU prover and the verifier: a hand-checkable 4-constraint circuit whose proof is computed
// independently from the trapdoor (bit for bit, with r = s = 0 and with fixed random r, s), proofs of
// synthetic circuits at several sizes in both conventions, the rejection of tampered proofs, wrong inputs and
// wrong keys, and the reusable prover steps.
#include <doctest/doctest.h>

#include <proofline/groth16/constraint_builder.hpp>
#include <proofline/groth16/prover.hpp>
#include <proofline/groth16/verifier.hpp>
#include <proofline/util/error.hpp>

#include "groth16/helpers.hpp"

using namespace proofline;
using namespace proofline::groth16;

namespace {

Fr f(std::uint64_t v) {
  return Fr::from_u64(v);
}

/// z = [1, out, x, y, t]: x·y = t; (t + x)·1 = out − 5; (2x)·(y + 1) = 2t + 2x; y·0 = 0; then the input rows.
ConstraintSystem hand_system() {
  ConstraintSystemBuilder builder(5, 1);
  builder.add({{2, f(1)}}, {{3, f(1)}}, {{4, f(1)}});
  builder.add({{4, f(1)}, {2, f(1)}}, {{0, f(1)}}, {{1, f(1)}, {0, -f(5)}});
  builder.add({{2, f(2)}}, {{3, f(1)}, {0, f(1)}}, {{4, f(2)}, {2, f(2)}});
  builder.add({{3, f(1)}}, {}, {});
  builder.add_input_rows();
  return builder.build();
}

/// The proof the protocol defines, straight from the trapdoor: with u_j, v_j, w_j from the quadratic
/// Lagrange basis, a(τ) = Σ z_j u_j etc., and h(τ)·Z(τ) = a(τ)·b(τ) − c(τ),
///   A = [a(τ) + α + rδ]1,  B = [b(τ) + β + sδ]2,
///   C = [(Σ_private z_j (β u_j + α v_j + w_j) + a(τ)b(τ) − c(τ)) / δ + s·(a(τ) + α + rδ) + r·(b(τ) + β + sδ)
///   − rsδ]1.
Proof expected_proof(const ConstraintSystem& cs, std::span<const Fr> z, const Trapdoor& t,
                     const Domain& domain, const Fr& r, const Fr& s) {
  const auto basis = test::naive_lagrange(test::domain_points(domain.omega(), domain.size()), t.tau);
  const auto u = test::naive_columns(cs.a, cs.num_variables, basis);
  const auto v = test::naive_columns(cs.b, cs.num_variables, basis);
  const auto w = test::naive_columns(*cs.c, cs.num_variables, basis);
  Fr a = Fr::zero(), b = Fr::zero(), c = Fr::zero(), priv = Fr::zero();
  for (std::uint64_t j = 0; j < cs.num_variables; ++j) {
    a += z[j] * u[j];
    b += z[j] * v[j];
    c += z[j] * w[j];
    if (j > cs.num_public) priv += z[j] * (t.beta * u[j] + t.alpha * v[j] + w[j]);
  }
  const Fr pa = a + t.alpha + r * t.delta;
  const Fr pb = b + t.beta + s * t.delta;
  const Fr pc = (priv + a * b - c) * t.delta.inverse() + s * pa + r * pb - r * s * t.delta;
  return {test::g1_times(pa), test::g2_times(pb), test::g1_times(pc)};
}

}  // namespace

TEST_CASE("groth16/prove/a hand-checkable circuit gives the proof computed from the trapdoor") {
  const ConstraintSystem cs = hand_system();
  const std::vector<Fr> z = {f(1), f(20), f(3), f(4), f(12)};
  REQUIRE(is_satisfied(cs, z));
  const Trapdoor t = trapdoor_from_seed(2024, true);
  const auto rs = test::random_scalars(2, 5);
  for (const auto convention : {HConvention::generator7, HConvention::snarkjs}) {
    CAPTURE(static_cast<int>(convention));
    const KeyPair keys = setup_from_trapdoor(cs, t, SetupOptions{.convention = convention});
    REQUIRE(keys.pk.domain_size() == 8);
    const Domain domain = Domain::make(3, convention);
    const PreparedVerifyingKey pvk = prepare(keys.vk);

    const Proof zero_rs =
        prove(keys.pk, cs, z, ProveOptions{.fixed_randomness = ProofRandomness{Fr::zero(), Fr::zero()}});
    CHECK(zero_rs == expected_proof(cs, z, t, domain, Fr::zero(), Fr::zero()));
    CHECK(verify(pvk, public_inputs(z, 1), zero_rs));

    const Proof fixed =
        prove(keys.pk, cs, z, ProveOptions{.fixed_randomness = ProofRandomness{rs[0], rs[1]}});
    CHECK(fixed == expected_proof(cs, z, t, domain, rs[0], rs[1]));
    CHECK(verify(pvk, public_inputs(z, 1), fixed));

    const std::vector<Fr> wrong_out = {f(21)};
    CHECK(verify_status(pvk, wrong_out, fixed) == VerifyStatus::pairing_failed);
  }
}

TEST_CASE("groth16/prove/synthetic circuits verify at several sizes in both conventions") {
  const std::pair<unsigned, HConvention> cases[] = {
      {10, HConvention::generator7}, {10, HConvention::snarkjs}, {12, HConvention::generator7},
      {12, HConvention::snarkjs},    {13, HConvention::snarkjs}, {14, HConvention::generator7}};
  for (const auto& [log, convention] : cases) {
    CAPTURE(log);
    CAPTURE(static_cast<int>(convention));
    const SyntheticOptions options{.log_size = log, .num_public = 3, .seed = log, .witness_seed = 1};
    const auto circuit = make_synthetic_circuit(options);
    const KeyPair keys = setup_from_trapdoor(circuit.cs, trapdoor_from_seed(log + 100),
                                             SetupOptions{.convention = convention});
    const PreparedVerifyingKey pvk = prepare(keys.vk);
    ProveTimings timings;
    const Proof proof = prove(keys.pk, circuit.cs, circuit.witness, {}, &timings);
    CHECK(timings.total_s > 0);
    CHECK(verify_status(pvk, public_inputs(circuit.witness, 3), proof) == VerifyStatus::ok);
    if (log == 12) {  // another witness of the same circuit, with the same key
      const auto other = synthetic_witness(circuit.cs, options, 2);
      const Proof second = prove(keys.pk, circuit.cs, other);
      CHECK(verify(pvk, public_inputs(other, 3), second));
      CHECK_FALSE(verify(pvk, public_inputs(circuit.witness, 3), second));
    }
  }
}

TEST_CASE("groth16/verify/tampered proofs, wrong inputs and wrong keys are rejected") {
  const auto& f8 = test::small_fixture(8, HConvention::snarkjs, 2);
  const auto& cs = f8.circuit.cs;
  const auto& z = f8.circuit.witness;
  const PreparedVerifyingKey pvk = prepare(f8.keys.vk);
  const Proof proof = prove(f8.keys.pk, cs, z);
  const auto inputs = public_inputs(z, 2);
  REQUIRE(verify_status(pvk, inputs, proof) == VerifyStatus::ok);

  const G1Affine g1 = G1Affine::generator();
  Proof bad = proof;
  bad.a = (proof.a.to_jacobian() + g1).to_affine();
  CHECK(verify_status(pvk, inputs, bad) == VerifyStatus::pairing_failed);
  bad = proof;
  bad.b = (proof.b.to_jacobian() + G2Affine::generator()).to_affine();
  CHECK(verify_status(pvk, inputs, bad) == VerifyStatus::pairing_failed);
  bad = proof;
  bad.c = (proof.c.to_jacobian() + g1).to_affine();
  CHECK(verify_status(pvk, inputs, bad) == VerifyStatus::pairing_failed);
  bad = proof;
  std::swap(bad.a, bad.c);
  CHECK(verify_status(pvk, inputs, bad) == VerifyStatus::pairing_failed);

  bad = proof;
  bad.a.y += Fp::one();  // off the curve
  CHECK(verify_status(pvk, inputs, bad) == VerifyStatus::a_invalid);
  bad = proof;
  bad.b.x.c0 = Fp::from_montgomery(Fp::modulus);  // not a reduced coordinate
  CHECK(verify_status(pvk, inputs, bad) == VerifyStatus::b_invalid);
  bad = proof;
  bad.c = G1Affine{Fp::from_u64(1), Fp::from_u64(2)};
  CHECK(verify_status(pvk, inputs, bad) == VerifyStatus::c_invalid);
  CHECK(std::string(to_string(VerifyStatus::c_invalid)).find("C") != std::string::npos);

  std::vector<Fr> wrong(inputs.begin(), inputs.end());
  wrong[1] += Fr::one();
  CHECK(verify_status(pvk, wrong, proof) == VerifyStatus::pairing_failed);
  wrong.pop_back();
  CHECK(verify_status(pvk, wrong, proof) == VerifyStatus::wrong_input_count);

  // The same circuit keyed with another trapdoor.
  const KeyPair other =
      setup_from_trapdoor(cs, trapdoor_from_seed(999), SetupOptions{.convention = HConvention::snarkjs});
  CHECK(verify_status(prepare(other.vk), inputs, proof) == VerifyStatus::pairing_failed);
  CHECK(verify(prepare(other.vk), inputs, prove(other.pk, cs, z)));
  // A malformed verifying key is refused when prepared.
  VerifyingKey broken = f8.keys.vk;
  broken.delta2.x.c1 += Fp::one();
  CHECK_THROWS_AS(prepare(broken), Error);
}

TEST_CASE("groth16/prove/fresh randomness makes every proof different") {
  const auto& f6 = test::small_fixture(6, HConvention::generator7);
  const Proof p1 = prove(f6.keys.pk, f6.circuit.cs, f6.circuit.witness);
  const Proof p2 = prove(f6.keys.pk, f6.circuit.cs, f6.circuit.witness);
  CHECK_FALSE(p1.a == p2.a);
  CHECK_FALSE(p1.b == p2.b);
  const PreparedVerifyingKey pvk = prepare(f6.keys.vk);
  CHECK(verify(pvk, public_inputs(f6.circuit.witness, 2), p1));
  CHECK(verify(pvk, public_inputs(f6.circuit.witness, 2), p2));
}

TEST_CASE("groth16/prove/the steps reproduce prove and the MSMs are the plain sums") {
  const auto& f6 = test::small_fixture(6, HConvention::snarkjs);
  const ProvingKey& pk = f6.keys.pk;
  const auto& z = f6.circuit.witness;
  const ProofRandomness rs{Fr::from_u64(7), Fr::from_u64(11)};
  const std::uint64_t n = pk.domain_size();
  std::vector<Fr> a(n), b(n), c(n);
  synthesize(pk, f6.circuit.cs, z, a, b, c);
  const auto h = compute_h_scalars(pk, a, b, c);
  REQUIRE(h.size() == pk.h_query.size());
  const MsmResults msm = compute_msms(pk, z, h);
  CHECK(assemble_proof(pk, msm, rs) == prove(pk, f6.circuit.cs, z, ProveOptions{.fixed_randomness = rs}));

  G1Jacobian sum_a = G1Jacobian::infinity(), sum_l = G1Jacobian::infinity(), sum_h = G1Jacobian::infinity();
  G2Jacobian sum_b2 = G2Jacobian::infinity();
  for (std::uint64_t j = 0; j < z.size(); ++j) {
    sum_a += pk.a_query[j].mul(z[j]);
    sum_b2 += pk.b2_query[j].mul(z[j]);
    if (j > pk.num_public) sum_l += pk.l_query[j - pk.num_public - 1].mul(z[j]);
  }
  for (std::size_t i = 0; i < h.size(); ++i) sum_h += pk.h_query[i].mul(h[i]);
  CHECK(msm.a == sum_a);
  CHECK(msm.b2 == sum_b2);
  CHECK(msm.l == sum_l);
  CHECK(msm.h == sum_h);
}

TEST_CASE("groth16/prove/bad witnesses and mismatched keys are refused") {
  const auto& f6 = test::small_fixture(6, HConvention::generator7);
  // Change private variables from the end until one is checked by some row (free inputs satisfy their own
  // row whatever their value).
  auto z = f6.circuit.witness;
  std::optional<std::uint64_t> row;
  for (std::uint64_t victim = f6.circuit.cs.num_variables - 1; !row && victim > 2; --victim) {
    z = f6.circuit.witness;
    z[victim] += Fr::one();
    row = first_unsatisfied_row(f6.circuit.cs, z);
  }
  REQUIRE(row.has_value());
  CHECK_THROWS_WITH_AS(prove(f6.keys.pk, f6.circuit.cs, z),
                       ("prove: the witness does not satisfy constraint row " + std::to_string(*row)).c_str(),
                       Error);
  const Proof unchecked = prove(f6.keys.pk, f6.circuit.cs, z, ProveOptions{.check_witness = false});
  CHECK_FALSE(verify(prepare(f6.keys.vk), public_inputs(z, 2), unchecked));

  z = f6.circuit.witness;
  z[0] = Fr::from_u64(2);
  CHECK_THROWS_AS(prove(f6.keys.pk, f6.circuit.cs, z), Error);
  z.pop_back();
  CHECK_THROWS_AS(prove(f6.keys.pk, f6.circuit.cs, z), Error);
  const auto& other = test::small_fixture(7, HConvention::generator7);
  CHECK_THROWS_AS(prove(other.keys.pk, f6.circuit.cs, f6.circuit.witness), Error);
  std::vector<Fr> small(8);
  CHECK_THROWS_AS(synthesize(f6.keys.pk, f6.circuit.cs, f6.circuit.witness, small, small, small), Error);
}
