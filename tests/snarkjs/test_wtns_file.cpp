// The .wtns reader against snarkjs's files: it reads circom's witnesses, writes byte-identical ones, refuses
// other curves by name, and batch planning checks witnesses against the key before proving.
#include <doctest/doctest.h>

#include <span>
#include <utility>

#include <proofline/arith/int_text.hpp>
#include <proofline/groth16/detail/le_bytes.hpp>
#include <proofline/groth16/json.hpp>
#include <proofline/groth16/snarkjs_jobs.hpp>
#include <proofline/groth16/wtns.hpp>
#include <proofline/util/error.hpp>

#include "groth16/helpers.hpp"
#include "snarkjs/helpers.hpp"

using namespace proofline;
using namespace proofline::groth16;
using namespace proofline::snarkjs_test;

namespace {

/// snarkjs's `wtns export json` of the fixture, the independent reference.
std::vector<Fr> exported_witness(const std::string& circuit) {
  const json::Value doc = json::parse(file_text(fixture(circuit, "witness.json")));
  std::vector<Fr> out;
  for (const json::Value& v : doc.as_array()) out.push_back(*field_from_decimal<Fr>(v.as_string()));
  return out;
}

}  // namespace

TEST_CASE("groth16/wtns/circom's witness reads as snarkjs exports it and writes back byte for byte") {
  const auto path = fixture("chain_16", "witness.wtns");
  const std::vector<Fr> z = read_wtns(path);
  CHECK(z == exported_witness("chain_16"));
  CHECK(read_wtns_header(path).num_witness == 19);
  const auto original = file_bytes(path);
  CHECK(wtns_bytes(z) == original);
  CHECK(parse_wtns(original, "mem.wtns") == z);
  groth16::test::TempDir dir;
  write_wtns(dir / "copy.wtns", z);
  CHECK(file_bytes(dir / "copy.wtns") == original);
  // chain_1024 through the parallel conversion.
  const std::vector<Fr> big = read_wtns(fixture("chain_1024", "witness.wtns"));
  CHECK(big.size() == 1027);
  CHECK(wtns_bytes(big) == file_bytes(fixture("chain_1024", "witness.wtns")));
}

TEST_CASE("groth16/wtns/canonical values write the file snarkjs wrote for either curve") {
  for (const auto& [circuit, curve] : {std::pair<std::string, CurveId>{"chain_16", CurveId::bls12_381},
                                       {"chain_1024", CurveId::bls12_381},
                                       {"bn128/chain_16", CurveId::bn254}}) {
    CAPTURE(circuit);
    const auto path = fixture(circuit, "witness.wtns");
    const auto original = file_bytes(path);
    const WtnsHeader header = read_wtns_header(path);
    REQUIRE(header.curve == curve);
    const std::span<const std::byte> values(original.data() + header.values_offset, header.num_witness * 32);
    CHECK(wtns_bytes_canonical(curve, values) == original);
    groth16::test::TempDir dir;
    write_wtns_canonical(dir / "copy.wtns", curve, values);
    CHECK(file_bytes(dir / "copy.wtns") == original);
    // The other curve's header: the values are the same bytes, the prime is not.
    const CurveId other = curve == CurveId::bn254 ? CurveId::bls12_381 : CurveId::bn254;
    CHECK(read_wtns_header(dir / "copy.wtns").curve == curve);
    write_wtns_canonical(dir / "other.wtns", other, values);
    CHECK(read_wtns_header(dir / "other.wtns").curve == other);
    CHECK(file_bytes(dir / "other.wtns") != original);
  }
  CHECK_THROWS_AS(wtns_bytes_canonical(CurveId::bn254, std::vector<std::byte>(33)), Error);
}

TEST_CASE("groth16/wtns/a witness of the other curve and other fields are refused by name") {
  auto bytes = file_bytes(fixture("chain_16", "witness.wtns"));
  // The prime of the header section (payload at 24: n8 then the prime) replaced by bn128's scalar field.
  groth16::detail::store_bigint(
      bytes.data() + 28,
      BigInt<4>::from_hex("0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001"));
  const std::string message = bad_input_message([&] { parse_wtns(bytes, "bn.wtns"); });
  CHECK(contains(message, "bn.wtns: the witness is over BN254's scalar field, not BLS12-381's"));
  // Read as a BN254 witness, the header is right and the BLS12-381 values are not below bn128's r.
  CHECK(contains(bad_input_message([&] { parse_wtns<bn254::Fr>(bytes, "bn.wtns"); }), "is not below"));
  // A value equal to r (the first value not below it is named) and w[0] != 1.
  bytes = file_bytes(fixture("chain_16", "witness.wtns"));
  groth16::detail::store_bigint(bytes.data() + 76 + 5 * 32, Fr::modulus);
  groth16::detail::store_bigint(bytes.data() + 76 + 9 * 32, Fr::modulus);
  CHECK(
      contains(bad_input_message([&] { parse_wtns(bytes, "r.wtns"); }), "the value at index 5 is not below"));
  bytes = file_bytes(fixture("chain_16", "witness.wtns"));
  bytes[76] = std::byte{0};
  CHECK(contains(bad_input_message([&] { parse_wtns(bytes, "z.wtns"); }), "w[0] is not 1"));
  // A header section longer than snarkjs writes.
  bytes = file_bytes(fixture("chain_16", "witness.wtns"));
  CHECK(contains(bad_input_message([&] {
                   auto b = bytes;
                   b[16] = std::byte{41};
                   parse_wtns(b, "h.wtns");
                 }),
                 "h.wtns"));
}

TEST_CASE("groth16/wtns/a server's header check: curve and length against the key, values left for reading") {
  auto bytes = file_bytes(fixture("chain_16", "witness.wtns"));
  const auto n = read_wtns_header(bytes, "w.wtns").num_witness;
  const WtnsHeader header = read_wtns_header_for(bytes, "w.wtns", CurveId::bls12_381, n, "key 'chain'");
  CHECK(header.num_witness == n);
  CHECK(header.curve == CurveId::bls12_381);
  CHECK(contains(
      bad_input_message([&] { read_wtns_header_for(bytes, "w.wtns", CurveId::bn254, n, "key 'bn'"); }),
      "w.wtns: the witness is over BLS12-381's scalar field, not BN254's"));
  CHECK(contains(bad_input_message([&] {
                   read_wtns_header_for(bytes, "w.wtns", CurveId::bls12_381, n + 1, "key 'chain'");
                 }),
                 "w.wtns: the witness has " + std::to_string(n) + " values, key 'chain' expects " +
                     std::to_string(n + 1) + " variables"));
  // A value equal to r passes the header check, and is refused where the values are read.
  groth16::detail::store_bigint(bytes.data() + 76 + 3 * 32, Fr::modulus);
  CHECK(read_wtns_header_for(bytes, "w.wtns", CurveId::bls12_381, n, "key 'chain'").num_witness == n);
  std::vector<Fr> z(n);
  CHECK(contains(bad_input_message([&] { read_wtns_into(bytes, "w.wtns", std::span<Fr>(z)); }),
                 "w.wtns: the value at index 3 is not below"));
  // A cut image is the container's error, naming the image.
  bytes.resize(bytes.size() - 1);
  CHECK(
      contains(bad_input_message([&] { read_wtns_header_for(bytes, "w.wtns", CurveId::bls12_381, n, "k"); }),
               "w.wtns"));
}

TEST_CASE("groth16/wtns/batch planning checks every witness against the key before proving") {
  groth16::test::TempDir dir;
  const std::vector<Fr> z = read_wtns(fixture("chain_16", "witness.wtns"));
  write_wtns(dir / "A.wtns", z);
  std::filesystem::create_directories(dir / "sub");
  write_wtns(dir / "sub" / "B.wtns", z);
  write_wtns(dir / "sub" / "C.bin", z);
  std::vector<std::filesystem::path> files = {dir / "A.wtns", dir / "sub" / "B.wtns", dir / "sub" / "C.bin"};
  const auto jobs = plan_wtns_jobs(files, 19, "key.zkey");
  REQUIRE(jobs.size() == 3);
  CHECK(jobs[0].name == "A");
  CHECK(jobs[1].name == "B");
  CHECK(jobs[2].name == "C.bin");
  CHECK(jobs[1].wtns == files[1]);
  const SnarkjsOutputs out = snarkjs_output_paths(dir.path(), "A");
  CHECK(out.proof == dir / "A.proof.json");
  CHECK(out.public_inputs == dir / "A.public.json");

  // A witness of another circuit: named with both counts.
  const std::string message = bad_input_message([&] { plan_wtns_jobs(files, 1027, "chain_1024.zkey"); });
  CHECK(contains(message,
                 (dir / "A.wtns").string() + ": the witness has 19 values, chain_1024.zkey expects 1027"));
  // Two files with one name would overwrite each other's outputs.
  write_wtns(dir / "sub" / "A.wtns", z);
  files.push_back(dir / "sub" / "A.wtns");
  CHECK(contains(bad_input_message([&] { plan_wtns_jobs(files, 19, "key.zkey"); }), "would overwrite"));
  // Every value is checked at planning time, not only the header: a value not below r, w[0] != 1.
  auto bytes = wtns_bytes(z);
  groth16::detail::store_bigint(bytes.data() + 76 + 7 * 32, Fr::modulus);
  write_file_bytes(dir / "r.wtns", bytes);
  files = {dir / "A.wtns", dir / "r.wtns"};
  CHECK(contains(bad_input_message([&] { plan_wtns_jobs(files, 19, "key.zkey"); }),
                 (dir / "r.wtns").string() + ": the value at index 7 is not below the field modulus r"));
  CHECK(
      contains(bad_input_message([&] { check_wtns(dir / "r.wtns"); }), "the value at index 7 is not below"));
  bytes = wtns_bytes(z);
  bytes[76] = std::byte{2};
  write_file_bytes(dir / "two.wtns", bytes);
  files = {dir / "two.wtns"};
  CHECK(contains(bad_input_message([&] { plan_wtns_jobs(files, 19, "key.zkey"); }), "w[0] is not 1"));
  CHECK(check_wtns(dir / "A.wtns").num_witness == 19);
  files = {dir / "missing.wtns"};
  CHECK(contains(bad_input_message([&] { plan_wtns_jobs(files, 19, "key.zkey"); }), "cannot open"));
}
