// Writing snarkjs .zkey files from known-trapdoor keys of synthetic circuits: the written key reads back
// through our reader as exactly the key, constraint system and verifying key it was written from, proofs made
// from the written .zkey and .wtns verify (and a wrong public input does not), batch_prove --export-snarkjs
// writes the key, the verifying key and the witnesses without proving, and keys that a .zkey cannot hold
// are refused with a message. (tests/interop checks the same files against the real snarkjs.)
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <proofline/groth16/prover.hpp>
#include <proofline/groth16/setup.hpp>
#include <proofline/groth16/snarkjs_json.hpp>
#include <proofline/groth16/synthetic.hpp>
#include <proofline/groth16/verifier.hpp>
#include <proofline/groth16/wtns.hpp>
#include <proofline/groth16/zkey.hpp>
#include <proofline/groth16/zkey_writer.hpp>

#include "groth16/helpers.hpp"
#include "snarkjs/helpers.hpp"
#include "support/run_program.hpp"

using namespace proofline;
using namespace proofline::groth16;
using namespace proofline::snarkjs_test;
using proofline::test_support::TempDir;

namespace {

struct Made {
  SyntheticCircuit circuit;
  KeyPair keys;
};

Made make(unsigned log_size, std::uint64_t num_public, HConvention convention = HConvention::snarkjs) {
  Made m;
  m.circuit = make_synthetic_circuit(
      SyntheticOptions{.log_size = log_size, .num_public = num_public, .seed = 40 + log_size});
  SetupOptions setup;
  setup.convention = convention;
  m.keys = setup_from_trapdoor(m.circuit.cs, trapdoor_from_seed(log_size), setup);
  return m;
}

template <class T>
bool same_array(const SharedArray<T>& x, const SharedArray<T>& y) {
  return x.size() == y.size() && (x.size() == 0 || std::memcmp(x.data(), y.data(), x.size_bytes()) == 0);
}

bool same_matrix(const CsrMatrix& x, const CsrMatrix& y) {
  return same_array(x.row_offsets, y.row_offsets) && same_array(x.columns, y.columns) &&
         same_array(x.values, y.values);
}

std::vector<Fr> publics(const std::vector<Fr>& z, std::uint64_t n) {
  return std::vector<Fr>(z.begin() + 1, z.begin() + 1 + static_cast<std::ptrdiff_t>(n));
}

}  // namespace

TEST_CASE("groth16/zkey_writer/a written key reads back as the key, constraint system and vk it came from") {
  for (const auto& [log_size, num_public] : {std::pair{8u, 1u}, std::pair{9u, 3u}, std::pair{10u, 2u}}) {
    CAPTURE(log_size);
    const Made m = make(log_size, num_public);
    TempDir dir;
    const auto path = dir / "circuit.zkey";
    write_zkey(path, m.keys.pk, m.keys.vk, m.circuit.cs);
    CHECK(std::filesystem::file_size(path) == zkey_file_size(m.keys.pk, m.circuit.cs));
    const ZkeyFile read = read_zkey(path);  // PointCheck::full: every point on the curve and in the subgroup
    const ProvingKey& pk = m.keys.pk;
    CHECK(read.header.domain_size == pk.domain_size());
    CHECK(read.header.num_variables == pk.num_variables);
    CHECK(read.header.num_public == num_public);
    CHECK(read.header.num_coefficients == m.circuit.cs.a.nonzeros() + m.circuit.cs.b.nonzeros());
    CHECK(read.pk.convention == HConvention::snarkjs);
    CHECK(read.pk.log_domain_size == pk.log_domain_size);
    CHECK(read.pk.num_public == pk.num_public);
    CHECK((read.pk.alpha1 == pk.alpha1 && read.pk.beta1 == pk.beta1 && read.pk.delta1 == pk.delta1));
    CHECK((read.pk.beta2 == pk.beta2 && read.pk.delta2 == pk.delta2));
    CHECK(same_array(read.pk.a_query, pk.a_query));
    CHECK(same_array(read.pk.b1_query, pk.b1_query));
    CHECK(same_array(read.pk.b2_query, pk.b2_query));
    CHECK(same_array(read.pk.l_query, pk.l_query));
    CHECK(same_array(read.pk.h_query, pk.h_query));
    CHECK(read.vk == m.keys.vk);
    CHECK(same_matrix(read.cs.a, m.circuit.cs.a));
    CHECK(same_matrix(read.cs.b, m.circuit.cs.b));
    CHECK_FALSE(read.cs.c.has_value());
  }
}

TEST_CASE("groth16/zkey_writer/proofs from the written zkey and wtns verify, a wrong public input does not") {
  const Made m = make(9, 2);
  TempDir dir;
  write_zkey(dir / "circuit.zkey", m.keys.pk, m.keys.vk, m.circuit.cs);
  write_snarkjs_verifying_key(dir / "verification_key.json", m.keys.vk);
  const std::vector<Fr> z = synthetic_witness(m.circuit.cs, m.circuit.options, 77);
  write_wtns(dir / "w.wtns", z);

  const ZkeyFile key = read_zkey(dir / "circuit.zkey");
  const std::vector<Fr> read_z = read_wtns(dir / "w.wtns");
  REQUIRE(read_z == z);
  const Proof proof = prove(key.pk, key.cs, read_z);  // c = a∘b: the key has no C matrix
  const PreparedVerifyingKey pvk = prepare(read_snarkjs_verifying_key(dir / "verification_key.json"));
  std::vector<Fr> inputs = publics(z, 2);
  CHECK(verify(pvk, inputs, proof));
  CHECK(verify(prepare(m.keys.vk), inputs, proof));
  // The same witness proved with the original key and its C matrix verifies under the written vk too.
  CHECK(verify(pvk, inputs, prove(m.keys.pk, m.circuit.cs, z)));
  inputs[1] += Fr::one();
  CHECK_FALSE(verify(pvk, inputs, proof));
}

TEST_CASE("groth16/zkey_writer/keys a zkey cannot hold are refused with a message, and no file is left") {
  TempDir dir;
  const auto path = dir / "circuit.zkey";
  const Made generator7 = make(8, 1, HConvention::generator7);
  const std::string message = test_support::error_message(Errc::invalid_argument, [&] {
    write_zkey(path, generator7.keys.pk, generator7.keys.vk, generator7.circuit.cs);
  });
  CHECK(contains(message, "generator7 convention"));
  CHECK(contains(message, "HConvention::snarkjs"));
  CHECK_FALSE(std::filesystem::exists(path));

  const Made m = make(8, 1);
  const Made other = make(9, 1);
  CHECK(
      contains(test_support::error_message(Errc::invalid_argument,
                                           [&] { write_zkey(path, m.keys.pk, other.keys.vk, m.circuit.cs); }),
               "not the proving key's"));
  CHECK(
      contains(test_support::error_message(Errc::invalid_argument,
                                           [&] { write_zkey(path, m.keys.pk, m.keys.vk, other.circuit.cs); }),
               "is not the proving key's"));
  CHECK_FALSE(std::filesystem::exists(path));
}

TEST_CASE("apps/batch_prove/--export-snarkjs writes the key, the vk and the witnesses without proving") {
  TempDir dir;
  const auto out = dir / "export";
  const test_support::ProgramOutcome o = test_support::run_program(
      PROOFLINE_BATCH_PROVE,
      "--no-progress --backend cpu --synthetic 8 --count 3 --seed 5 --export-snarkjs " + out.string());
  CAPTURE(o.err);
  REQUIRE(o.code == 0);
  CHECK(contains(o.out, "no proofs made"));
  const ZkeyFile key = read_zkey(out / "circuit.zkey");
  CHECK(key.vk == read_snarkjs_verifying_key(out / "verification_key.json"));
  CHECK(key.header.domain_size == 256);
  const PreparedVerifyingKey pvk = prepare(key.vk);
  std::vector<std::vector<Fr>> witnesses;
  for (const char* name : {"witness-000000.wtns", "witness-000001.wtns", "witness-000002.wtns"}) {
    CAPTURE(name);
    witnesses.push_back(read_wtns(out / name));
    const std::vector<Fr>& z = witnesses.back();
    CHECK(verify(pvk, publics(z, key.pk.num_public), prove(key.pk, key.cs, z)));
  }
  CHECK(witnesses[0] != witnesses[1]);
  CHECK_FALSE(std::filesystem::exists(out / "witness-000003.wtns"));
  CHECK_FALSE(std::filesystem::exists(out / "proof-000000.json"));

  const test_support::ProgramOutcome refused = test_support::run_program(
      PROOFLINE_BATCH_PROVE, "--no-progress --zkey k.zkey --wtns a.wtns --export-snarkjs " + out.string());
  CHECK(refused.code == 2);
  CHECK(contains(refused.err, "--export-snarkjs"));
}
