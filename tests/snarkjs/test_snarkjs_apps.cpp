// The programs: verify_proof's exit codes (0 valid, 1 invalid, 2 unusable input, one line each) and
// batch_prove --zkey --wtns --out, whose files verify_proof accepts.
#include <doctest/doctest.h>

#include <algorithm>

#include <proofline/arith/fr.hpp>
#include <proofline/groth16/binfile.hpp>
#include <proofline/groth16/detail/le_bytes.hpp>
#include <proofline/groth16/snarkjs_json.hpp>

#include "groth16/file_safety.hpp"
#include "groth16/helpers.hpp"
#include "snarkjs/helpers.hpp"
#include "support/run_program.hpp"

using namespace proofline;
using namespace proofline::groth16;
using namespace proofline::snarkjs_test;

namespace {

using Outcome = test_support::ProgramOutcome;
using test_support::run_program;

Outcome verify_proof(const std::filesystem::path& vk, const std::filesystem::path& pub,
                     const std::filesystem::path& proof) {
  return run_program(PROOFLINE_VERIFY_PROOF, vk.string() + " " + pub.string() + " " + proof.string());
}

std::size_t lines(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

void replace_first(std::string& text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("apps/verify_proof/exit codes 0 valid 1 invalid 2 unusable with one line each") {
  const auto vk = fixture("chain_16", "verification_key.json");
  const auto pub = fixture("chain_16", "public.json");
  const auto proof = fixture("chain_16", "proof.json");
  Outcome o = verify_proof(vk, pub, proof);
  CHECK(o.code == 0);
  CHECK(contains(o.out, "valid"));
  CHECK(lines(o.out) == 1);
  CHECK(verify_proof(vk, pub, fixture("chain_16", "proof_ref_rs0.json")).code == 0);

  groth16::test::TempDir dir;
  // Invalid: another public input, a valid point in the wrong place, a point off the curve, too few inputs,
  // the other circuit's proof.
  write_file_text(
      dir / "pub8.json",
      "[\n \"29049125087672762777949792943236458661345873421723313147801953791830564713830\",\n \"8\"\n]");
  o = verify_proof(vk, dir / "pub8.json", proof);
  CHECK(o.code == 1);
  CHECK(contains(o.out, "invalid: the pairing check failed"));
  CHECK(lines(o.out) == 1);
  const Proof good = read_snarkjs_proof(proof);
  Proof swapped = good;
  std::swap(swapped.a, swapped.c);
  write_snarkjs_proof(dir / "swapped.json", swapped);
  CHECK(verify_proof(vk, pub, dir / "swapped.json").code == 1);
  std::string text = file_text(proof);
  replace_first(text, "\"2007", "\"2008");
  write_file_text(dir / "offcurve.json", text);
  o = verify_proof(vk, pub, dir / "offcurve.json");
  CHECK(o.code == 1);
  CHECK(contains(o.out, "proof point A is not a valid G1 element"));
  write_file_text(dir / "pub1.json", "[\"7\"]");
  o = verify_proof(vk, dir / "pub1.json", proof);
  CHECK(o.code == 1);
  CHECK(contains(o.out, "has 1, the key expects 2"));
  CHECK(verify_proof(vk, fixture("chain_1024", "public.json"), fixture("chain_1024", "proof.json")).code ==
        1);

  // Unusable: missing file, not JSON, a bn128 proof, a vk for another curve, usage (a public value not below
  // r is snarkjs's invalid verdict instead).
  o = verify_proof(vk, pub, dir / "missing.json");
  CHECK(o.code == 2);
  CHECK(contains(o.err, "missing.json"));
  CHECK(lines(o.err) == 1);
  CHECK(o.out.empty());
  write_file_text(dir / "garbage.json", "{\"pi_a\": [1, 2");
  o = verify_proof(vk, pub, dir / "garbage.json");
  CHECK(o.code == 2);
  CHECK(contains(o.err, "garbage.json"));
  text = file_text(proof);
  replace_first(text, "bls12381", "bn128");
  write_file_text(dir / "bn128.json", text);
  o = verify_proof(vk, pub, dir / "bn128.json");
  CHECK(o.code == 2);
  CHECK(contains(o.err, "bn128"));
  text = file_text(vk);
  replace_first(text, "bls12381", "bn128");
  write_file_text(dir / "vk_bn128.json", text);
  CHECK(verify_proof(dir / "vk_bn128.json", pub, proof).code == 2);
  write_file_text(
      dir / "pub_r.json",
      "[\"52435875175126190479447740508185965837690552500527637822603658699938581184513\", \"7\"]");
  // A public signal equal to r: snarkjs's "Public inputs are not valid.", an invalid proof.
  CHECK(verify_proof(vk, dir / "pub_r.json", proof).code == 1);
  o = run_program(PROOFLINE_VERIFY_PROOF, vk.string());
  CHECK(o.code == 2);
  CHECK(contains(o.err, "expected 3 arguments"));
}

TEST_CASE("apps/batch_prove/zkey and wtns files give snarkjs proof and public files that verify") {
  groth16::test::TempDir dir;
  std::filesystem::copy_file(fixture("chain_16", "witness.wtns"), dir / "A.wtns");
  std::filesystem::copy_file(fixture("chain_16", "witness.wtns"), dir / "B.wtns");
  const auto zkey = fixture("chain_16", "circuit_final.zkey");
  const auto out = dir / "out";
  Outcome o =
      run_program(PROOFLINE_BATCH_PROVE, "--no-progress --threads 2 --backend cpu --verify --zkey " +
                                             zkey.string() + " --wtns " + (dir / "A.wtns").string() + " " +
                                             (dir / "B.wtns").string() + " --out " + out.string());
  INFO(o.out << o.err);
  REQUIRE(o.code == 0);
  for (const char* name : {"A", "B"}) {
    CAPTURE(name);
    const auto proof = out / (std::string(name) + ".proof.json");
    const auto pub = out / (std::string(name) + ".public.json");
    CHECK(file_text(pub) == file_text(fixture("chain_16", "public.json")));
    CHECK(verify_proof(fixture("chain_16", "verification_key.json"), pub, proof).code == 0);
  }
  CHECK_FALSE(file_text(out / "A.proof.json") == file_text(out / "B.proof.json"));  // fresh r, s per proof

  // Unusable input is exit 2 with one line, before anything is proved: a witness of another circuit, a
  // missing key, --zkey without witnesses.
  o = run_program(PROOFLINE_BATCH_PROVE, "--no-progress --zkey " + zkey.string() + " --wtns " +
                                             fixture("chain_1024", "witness.wtns").string() + " --out " +
                                             out.string());
  CHECK(o.code == 2);
  CHECK(contains(o.err, "the witness has 1027 values"));
  CHECK(lines(o.err) == 1);
  o = run_program(PROOFLINE_BATCH_PROVE, "--no-progress --zkey " + (dir / "none.zkey").string() + " --wtns " +
                                             (dir / "A.wtns").string());
  CHECK(o.code == 2);
  CHECK(contains(o.err, "none.zkey"));
  o = run_program(PROOFLINE_BATCH_PROVE, "--no-progress --zkey " + zkey.string());
  CHECK(o.code == 2);
  CHECK(contains(o.err, "--zkey needs witness files"));
  o = run_program(PROOFLINE_BATCH_PROVE, "--no-progress --zkey " + (dir / "A.wtns").string() + " --wtns " +
                                             (dir / "A.wtns").string());
  CHECK(o.code == 2);
  CHECK(contains(o.err, "not a .zkey file"));
}

TEST_CASE(
    "apps/batch_prove/a broken key or witness is exit 2 with one line naming the file and nothing is "
    "proved") {
  groth16::test::TempDir dir;
  const auto zkey = fixture("chain_16", "circuit_final.zkey");
  const auto wtns = file_bytes(fixture("chain_16", "witness.wtns"));
  write_file_bytes(dir / "good.wtns", wtns);
  const auto out = dir / "out";
  // The good witness comes first: a broken one after it must still stop the batch before any proof.
  const auto prove = [&](const std::filesystem::path& key, const std::string& bad_wtns) {
    return run_program(PROOFLINE_BATCH_PROVE, "--no-progress --threads 2 --backend cpu --zkey " +
                                                  key.string() + " --wtns " + (dir / "good.wtns").string() +
                                                  " " + (dir / bad_wtns).string() + " --out " + out.string());
  };
  const auto expect_refused = [&](const Outcome& o, const std::string& file, const std::string& problem) {
    INFO(o.out << o.err);
    CHECK(o.code == 2);
    CHECK(lines(o.err) == 1);
    CHECK(contains(o.err, file));
    CHECK(contains(o.err, problem));
    CHECK_FALSE(std::filesystem::exists(out / "good.proof.json"));
  };

  // Witnesses (the values start at byte 76, the header's prime at 28): truncated, a value equal to r, w[0] =
  // 0, another curve's field.
  write_file_bytes(dir / "short.wtns", std::vector<std::byte>(wtns.begin(), wtns.begin() + 300));
  expect_refused(prove(zkey, "short.wtns"), "short.wtns", "truncated");
  auto bytes = wtns;
  groth16::detail::store_bigint(bytes.data() + 76 + 5 * 32, Fr::modulus);
  write_file_bytes(dir / "r.wtns", bytes);
  expect_refused(prove(zkey, "r.wtns"), "r.wtns", "the value at index 5 is not below the field modulus r");
  bytes = wtns;
  bytes[76] = std::byte{0};
  write_file_bytes(dir / "zero.wtns", bytes);
  expect_refused(prove(zkey, "zero.wtns"), "zero.wtns", "w[0] is not 1");
  bytes = wtns;
  groth16::detail::store_bigint(
      bytes.data() + 28,
      BigInt<4>::from_hex("0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001"));
  write_file_bytes(dir / "bn.wtns", bytes);
  expect_refused(prove(zkey, "bn.wtns"), "bn.wtns",
                 "the witness is over BN254's scalar field, not BLS12-381's");

  // Keys: truncated, a wrong version, a query point off the curve (one bit of H's point 7).
  const auto key = file_bytes(zkey);
  write_file_bytes(dir / "half.zkey", std::vector<std::byte>(key.begin(), key.begin() + key.size() / 2));
  expect_refused(prove(dir / "half.zkey", "good.wtns"), "half.zkey", "truncated");
  bytes = key;
  bytes[4] = std::byte{2};
  write_file_bytes(dir / "v2.zkey", bytes);
  expect_refused(prove(dir / "v2.zkey", "good.wtns"), "v2.zkey", "unsupported .zkey version 2");
  bytes = key;
  {
    const BinFile file = BinFile::from_memory(nullptr, key, "k", "zkey", ".zkey", 1);
    const BinFile::Section& h = file.require(9, "H query");
    bytes[h.offset + 7 * sizeof(G1Affine)] ^= std::byte{1};
  }
  write_file_bytes(dir / "off.zkey", bytes);
  expect_refused(prove(dir / "off.zkey", "good.wtns"), "off.zkey",
                 "H query (section 9): point 7 is not on the curve");
}

TEST_CASE("apps/batch_prove/a refused batch takes back the output folders it made") {
  groth16::test::TempDir dir;
  write_file_text(dir / "bad.zkey", "junk");
  const auto wtns = fixture("chain_16", "witness.wtns");
  std::filesystem::create_directories(dir / "kept");
  const Outcome o = run_program(
      PROOFLINE_BATCH_PROVE, "--no-progress --backend cpu --zkey " + (dir / "bad.zkey").string() +
                                 " --wtns " + wtns.string() + " --out " + (dir / "kept/new/deep").string());
  CHECK(o.code == 2);
  CHECK_MESSAGE(contains(o.err, "not a .zkey file"), o.err);
  CHECK_FALSE(std::filesystem::exists(dir / "kept/new"));
  CHECK(std::filesystem::is_directory(dir / "kept"));  // there before: left
}

TEST_CASE("apps/batch_prove/an output that is a FIFO or a link to a device is refused and left as it is") {
  // Each output is written to a temporary file renamed over it: over a FIFO or a device (or a link to one,
  // /dev/stdout) that would put a regular file in its place (as root, in /dev too) and write nothing to it.
  // Such an output is refused before anything is proven (exit 2).
  groth16::test::TempDir dir;
  const auto zkey = fixture("chain_16", "circuit_final.zkey");
  const auto wtns = fixture("chain_16", "witness.wtns");
  const auto out = dir / "out";
  std::filesystem::create_directories(out);
  file_safety_test::make_fifo(out / "witness.proof.json");
  std::filesystem::create_symlink("/dev/null", out / "witness.public.json");
  const std::string prove = "--no-progress --threads 2 --backend cpu --zkey " + zkey.string() + " --wtns " +
                            wtns.string() + " --out ";
  Outcome o = run_program(PROOFLINE_BATCH_PROVE, prove + out.string());
  CHECK(o.code == 2);
  CHECK_MESSAGE(contains(o.err, "witness.proof.json' is a FIFO, not a regular file"), o.err);
  CHECK(std::filesystem::is_fifo(std::filesystem::symlink_status(out / "witness.proof.json")));
  std::filesystem::remove(out / "witness.proof.json");
  o = run_program(PROOFLINE_BATCH_PROVE, prove + out.string());
  CHECK(o.code == 2);
  CHECK_MESSAGE(contains(o.err, "witness.public.json' is a link to /dev/null (a stream or device"), o.err);
  CHECK(std::filesystem::is_symlink(std::filesystem::symlink_status(out / "witness.public.json")));
  // A link to a descriptor, as /dev/stdout is, whatever the descriptor is open on (a file here).
  std::filesystem::remove(out / "witness.public.json");
  std::filesystem::create_symlink("/proc/self/fd/1", out / "witness.public.json");
  o = run_program(PROOFLINE_BATCH_PROVE, prove + out.string());
  CHECK(o.code == 2);
  CHECK_MESSAGE(contains(o.err, "witness.public.json' is a link to /proc/self/fd/1"), o.err);
  CHECK(std::filesystem::is_symlink(std::filesystem::symlink_status(out / "witness.public.json")));
  // --report and --trace likewise.
  const auto other = dir / "other";
  file_safety_test::make_fifo(dir / "report.json");
  o = run_program(PROOFLINE_BATCH_PROVE,
                  prove + other.string() + " --report " + (dir / "report.json").string());
  CHECK(o.code == 2);
  CHECK_MESSAGE(contains(o.err, "report.json' is a FIFO, not a regular file"), o.err);
  CHECK(std::filesystem::is_fifo(std::filesystem::symlink_status(dir / "report.json")));
}
