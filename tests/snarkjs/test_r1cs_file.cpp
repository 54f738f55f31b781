// circom's .r1cs files into our ConstraintSystem: the constraints snarkjs exports, satisfied by circom's
// witness; every malformed file a clear error.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <tuple>

#include <proofline/arith/int_text.hpp>
#include <proofline/groth16/binfile.hpp>
#include <proofline/groth16/detail/le_bytes.hpp>
#include <proofline/groth16/json.hpp>
#include <proofline/groth16/r1cs_file.hpp>
#include <proofline/groth16/wtns.hpp>

#include "snarkjs/helpers.hpp"

using namespace proofline;
using namespace proofline::groth16;
using namespace proofline::snarkjs_test;

namespace {

std::map<std::uint32_t, Fr> row_of(const json::Value& lc) {
  std::map<std::uint32_t, Fr> out;
  for (const auto& [wire, value] : lc.as_object())
    out[static_cast<std::uint32_t>(std::stoul(wire))] = *field_from_decimal<Fr>(value.as_string());
  return out;
}

}  // namespace

TEST_CASE("groth16/r1cs/circom's constraints read as snarkjs exports them") {
  const R1csFile file = read_r1cs(fixture("chain_16", "circuit.r1cs"));
  const json::Value exported = json::parse(file_text(fixture("chain_16", "r1cs.json")));
  CHECK(file.header.num_wires == exported.at("nVars").as_u64());
  CHECK(file.header.num_public_outputs == 1);
  CHECK(file.header.num_public_inputs == 1);
  CHECK(file.header.num_private_inputs == 1);
  CHECK(file.header.num_labels == exported.at("nLabels").as_u64());
  CHECK(file.header.num_constraints == 16);
  CHECK(file.cs.num_variables == 19);
  CHECK(file.cs.num_public == 2);
  REQUIRE(file.cs.c.has_value());
  const json::Value& constraints = exported.at("constraints");
  REQUIRE(file.cs.num_constraints() == constraints.size());
  for (std::size_t i = 0; i < constraints.size(); ++i) {
    CAPTURE(i);
    CHECK(row_of(file.cs.a, i) == row_of(constraints.at(i).at(std::size_t{0})));
    CHECK(row_of(file.cs.b, i) == row_of(constraints.at(i).at(std::size_t{1})));
    CHECK(row_of(*file.cs.c, i) == row_of(constraints.at(i).at(std::size_t{2})));
  }
  // Constraint 0 of chain_16 as the .r1cs holds it: A = {3: r − 1}, so (−a)·a = b − c1.
  CHECK(row_of(file.cs.a, 0) == std::map<std::uint32_t, Fr>{{3, -Fr::one()}});
}

TEST_CASE("groth16/r1cs/circom's witness satisfies the constraints and a changed one does not") {
  for (const char* circuit : {"chain_16", "chain_1024"}) {
    CAPTURE(circuit);
    const R1csFile file = read_r1cs(fixture(circuit, "circuit.r1cs"));
    std::vector<Fr> z = read_wtns(fixture(circuit, "witness.wtns"));
    CHECK(is_satisfied(file.cs, z));
    z[5] += Fr::one();
    CHECK(first_unsatisfied_row(file.cs, z).has_value());
  }
}

TEST_CASE("groth16/r1cs/input rows are appended as snarkjs's setup appends them") {
  const R1csFile plain = read_r1cs(fixture("chain_16", "circuit.r1cs"));
  const R1csFile rows =
      read_r1cs(fixture("chain_16", "circuit.r1cs"), R1csOptions{.snarkjs_input_rows = true});
  REQUIRE(rows.cs.num_constraints() == plain.cs.num_constraints() + 3);
  for (std::uint64_t s = 0; s < 3; ++s) {
    CHECK(row_of(rows.cs.a, 16 + s) ==
          std::map<std::uint32_t, Fr>{{static_cast<std::uint32_t>(s), Fr::one()}});
    CHECK(row_of(rows.cs.b, 16 + s).empty());
    CHECK(row_of(*rows.cs.c, 16 + s).empty());
  }
  const std::vector<Fr> z = read_wtns(fixture("chain_16", "witness.wtns"));
  CHECK(is_satisfied(rows.cs,
                     z));  // z_s · 0 = 0 holds for any witness: the rows bind inputs, constrain nothing
}

TEST_CASE("groth16/r1cs/malformed files are clear errors") {
  const auto good = file_bytes(fixture("chain_16", "circuit.r1cs"));
  const BinFile layout = BinFile::from_memory(nullptr, good, "x", "r1cs", ".r1cs", 1);
  const std::uint64_t header_at = layout.require(1, "h").offset;
  const std::uint64_t constraints_at = layout.require(2, "c").offset;
  const auto error = [&](auto change) {
    auto bytes = good;
    change(bytes);
    return bad_input_message([&] { parse_r1cs(bytes, "bad.r1cs"); });
  };
  CHECK(contains(error([&](auto& b) { b[0] = std::byte{'x'}; }), "bad.r1cs: not a .r1cs file (wrong magic"));
  CHECK(contains(error([&](auto& b) { b[4] = std::byte{2}; }), "unsupported .r1cs version 2"));
  CHECK(contains(error([&](auto& b) { b.resize(b.size() - 100); }), "truncated"));
  CHECK(contains(
      error([&](auto& b) {
        groth16::detail::store_bigint(
            b.data() + header_at + 4,
            BigInt<4>::from_hex("0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001"));
      }),
      "bad.r1cs: the circuit is over BN254's scalar field, not BLS12-381's"));
  CHECK(contains(error([&](auto& b) { b[header_at] = std::byte{8}; }), "field elements of 8 bytes"));
  // Fewer wires than the inputs need, and than the wire map holds (that constraint 0, C = {2, 4}, uses wire 4
  // is checked below, on a file without the map).
  CHECK(contains(error([&](auto& b) { groth16::detail::store_u32(b.data() + header_at + 36, 3); }),
                 "do not fit in 3 wires"));
  CHECK(contains(error([&](auto& b) { groth16::detail::store_u32(b.data() + header_at + 36, 4); }),
                 "the wire-to-label map has 152 bytes, 4 wires need 32"));
  // The first coefficient of constraint 0 (A: nTerms, wire, value) set to r.
  CHECK(contains(
      error([&](auto& b) { groth16::detail::store_bigint(b.data() + constraints_at + 8, Fr::modulus); }),
      "constraint 0, A: the coefficient of wire 3 is not below r"));
  // A term count running past the section, and one constraint more than the section holds.
  CHECK(contains(error([&](auto& b) { groth16::detail::store_u32(b.data() + constraints_at, 1000000); }),
                 "truncated"));
  CHECK(contains(error([&](auto& b) { groth16::detail::store_u32(b.data() + header_at + 60, 17); }),
                 "truncated"));
  CHECK(contains(error([&](auto& b) { groth16::detail::store_u32(b.data() + header_at + 60, 15); }),
                 "unexpected bytes"));
  // Counts the file does not back: 2^31 wires, 2^30 of them public outputs, refused by the wire map's size
  // before any memory is sized by them; without the map, snarkjs's input rows are not made at all.
  const auto huge = [&](auto& b) {
    groth16::detail::store_u32(b.data() + header_at + 36, 1u << 31);
    groth16::detail::store_u32(b.data() + header_at + 40, 1u << 30);
  };
  CHECK(contains(error(huge), "the wire-to-label map has 152 bytes, 2147483648 wires need 17179869184"));
  BinFileWriter no_map("r1cs", 1);
  for (const auto& s : layout.sections()) {
    const auto p = layout.payload(s);
    if (s.type != 3) no_map.add_section(s.type, std::vector<std::byte>(p.begin(), p.end()));
  }
  auto unmapped = no_map.bytes();
  CHECK(parse_r1cs(unmapped, "nomap.r1cs").cs.num_constraints() == 16);
  CHECK(contains(
      bad_input_message([&] { parse_r1cs(unmapped, "nomap.r1cs", R1csOptions{.snarkjs_input_rows = true}); }),
      "nomap.r1cs: no wire-to-label map (section 3)"));
  // Without the map, the wires the constraints use are what checks nWires.
  groth16::detail::store_u32(
      unmapped.data() +
          BinFile::from_memory(nullptr, unmapped, "x", "r1cs", ".r1cs", 1).require(1, "h").offset + 36,
      4);
  CHECK(contains(bad_input_message([&] { parse_r1cs(unmapped, "nomap.r1cs"); }),
                 "constraint 0, C: wire 4 is not below nWires = 4"));
  // Custom gates (PLONK only).
  BinFileWriter writer("r1cs", 1);
  for (const auto& s : layout.sections()) {
    const auto p = layout.payload(s);
    writer.add_section(s.type, std::vector<std::byte>(p.begin(), p.end()));
  }
  writer.add_section(4, {});
  const auto custom = writer.bytes();
  CHECK(contains(bad_input_message([&] { parse_r1cs(custom, "custom.r1cs"); }), "custom gates"));
}
