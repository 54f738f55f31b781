// BN254 (snarkjs's bn128) keys through the C ABI: a bn128 .zkey from a file and from memory, its witness as a
// .wtns, as scalars of its curve and from a callback, proofs that snarkjs's verifying key accepts (JSON and
// uncompressed points), scalars of the other curve refused naming both, and a BLS12-381 key beside it in
// the same pipeline.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <proofline/arith/bn254/fr.hpp>
#include <proofline/arith/curve_encoding.hpp>
#include <proofline/groth16/json.hpp>
#include <proofline/groth16/proof.hpp>
#include <proofline/groth16/snarkjs_json.hpp>
#include <proofline/groth16/wtns.hpp>

#include "capi_test_support.hpp"

namespace proofline::capi_test {

namespace {

std::string bn_fixture(const std::string& file) {
  return std::string(PROOFLINE_SNARKJS_FIXTURES_DIR) + "/bn128/chain_16/" + file;
}

std::string text_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

/// The bn128 fixture's witness as canonical little-endian scalars.
Scalars bn_scalars() {
  const std::vector<bn254::Fr> z = groth16::read_wtns<bn254::Fr>(bn_fixture("witness.wtns"));
  Scalars s;
  s.count = z.size();
  s.bytes.resize(z.size() * PL_SCALAR_BYTES);
  for (std::size_t i = 0; i < z.size(); ++i) z[i].to_bytes_le(s.bytes.data() + i * PL_SCALAR_BYTES);
  return s;
}

pl_status fill_bn(pl_witness_target* target, void* user_data) {
  const auto* s = static_cast<const Scalars*>(user_data);
  std::uint64_t z_length = 0;
  if (pl_status status = pl_witness_sizes(target, &z_length, nullptr, nullptr); status != PL_OK)
    return status;
  if (z_length != s->count) {
    pl_witness_fail(target, "z has the wrong length");
    return PL_ERR_INTERNAL;
  }
  return pl_witness_write(target, PL_VECTOR_Z, 0, s->bytes.data(), s->count);
}

/// What a witness callback's write of all of z returned, and the message it left on its thread.
struct WriteOutcome {
  const Scalars* scalars;
  pl_status status;
  std::string message;
};

pl_status write_and_note(pl_witness_target* target, void* user_data) {
  auto* outcome = static_cast<WriteOutcome*>(user_data);
  outcome->status =
      pl_witness_write(target, PL_VECTOR_Z, 0, outcome->scalars->bytes.data(), outcome->scalars->count);
  if (outcome->status != PL_OK) outcome->message = pl_last_error_message();
  return outcome->status;
}

std::string job_text(pl_status (*get)(pl_job*, char*, size_t, size_t*), pl_job* job) {
  std::size_t needed = 0;
  REQUIRE(get(job, nullptr, 0, &needed) == PL_ERR_BUFFER_TOO_SMALL);
  std::string text(needed, '\0');
  PL_REQUIRE_OK(get(job, text.data(), text.size(), &needed));
  text.resize(needed - 1);
  return text;
}

std::vector<std::uint8_t> be_bytes(const bn254::Fp& value) {
  std::vector<std::uint8_t> bytes(32);
  value.to_bytes_be(bytes.data());
  return bytes;
}

/// EIP-196/197's encoding of the proof snarkjs's JSON holds: A.x A.y B.x.c1 B.x.c0 B.y.c1 B.y.c0 C.x C.y.
std::vector<std::uint8_t> eip197(const groth16::BasicProof<Bn254>& proof) {
  std::vector<std::uint8_t> out;
  for (const bn254::Fp& value :
       {proof.a.x, proof.a.y, proof.b.x.c1, proof.b.x.c0, proof.b.y.c1, proof.b.y.c0, proof.c.x, proof.c.y}) {
    const auto bytes = be_bytes(value);
    out.insert(out.end(), bytes.begin(), bytes.end());
  }
  return out;
}

/// A bn128 job's result: a proof snarkjs's vk accepts, snarkjs's public.json, its points uncompressed.
void check_bn_result(pl_job* job, const pl_vk* vk) {
  PL_REQUIRE_OK(pl_job_wait(job, -1));
  PL_REQUIRE_OK(pl_job_outcome(job));
  pl_job_info info{};
  info.size = sizeof info;
  PL_REQUIRE_OK(pl_job_get_info(job, &info));
  CHECK(info.curve == PL_CURVE_BN254);
  CHECK(info.num_public == 2);
  const std::string proof = job_text(pl_job_proof_json, job), inputs = job_text(pl_job_public_json, job);
  CHECK(proof.find("\"curve\": \"bn128\"") != std::string::npos);
  CHECK(inputs == text_of(bn_fixture("public.json")));
  CHECK(pl_verify_json(vk, proof.c_str(), inputs.c_str()) == PL_OK);
  std::uint8_t scalars[4 * PL_SCALAR_BYTES];
  std::size_t count = 0;
  PL_REQUIRE_OK(pl_job_public_inputs(job, scalars, sizeof scalars, &count));
  REQUIRE(count == 2);
  const auto expected = groth16::read_snarkjs_public<bn254::Fr>(bn_fixture("public.json"));
  for (std::size_t i = 0; i < count; ++i) {
    std::uint8_t want[PL_SCALAR_BYTES];
    expected[i].to_bytes_le(want);
    CHECK(std::equal(want, want + PL_SCALAR_BYTES, scalars + i * PL_SCALAR_BYTES));
  }
  // The compressed 192 bytes are BLS12-381's; the uncompressed points are EIP-197's.
  std::uint8_t compressed[PL_PROOF_BYTES];
  CHECK(pl_job_proof(job, compressed, sizeof compressed) == PL_ERR_INVALID_ARGUMENT);
  CHECK(std::string(pl_last_error_message()).find("BN254") != std::string::npos);
  std::size_t needed = 0;
  CHECK(pl_job_proof_uncompressed(job, nullptr, 0, &needed) == PL_ERR_BUFFER_TOO_SMALL);
  CHECK(needed == PL_PROOF_UNCOMPRESSED_BYTES_BN254);
  std::vector<std::uint8_t> points(needed);
  PL_REQUIRE_OK(pl_job_proof_uncompressed(job, points.data(), points.size(), &needed));
  const auto parsed = groth16::snarkjs_proof_from_json<Bn254>(groth16::json::parse(proof));
  CHECK(points == eip197(parsed));
  // The points verify as bytes too; a changed coordinate does not.
  CHECK(pl_verify_uncompressed(vk, points.data(), points.size(), scalars, count) == PL_OK);
  points[40] ^= 1;
  CHECK(pl_verify_uncompressed(vk, points.data(), points.size(), scalars, count) == PL_ERR_PROOF_INVALID);
  CHECK(pl_verify_uncompressed(vk, points.data(), points.size() - 1, scalars, count) == PL_ERR_PROOF_INVALID);
}

}  // namespace

TEST_CASE("capi/bn254/a bn128 zkey proves wtns scalars and callback witnesses that snarkjs's vk accepts") {
  const pl_config config = cpu_config();
  pl_pipeline* pipeline = nullptr;
  PL_REQUIRE_OK(pl_pipeline_create(&config, &pipeline));
  pl_key* from_file = nullptr;
  pl_key* from_memory = nullptr;
  PL_REQUIRE_OK(
      pl_key_add_zkey_file(pipeline, bn_fixture("circuit_final.zkey").c_str(), nullptr, &from_file));
  const std::string image = text_of(bn_fixture("circuit_final.zkey"));
  pl_key_options named{};
  named.size = sizeof named;
  named.name = "bn-in-memory";
  PL_REQUIRE_OK(pl_key_add_zkey_memory(pipeline, image.data(), image.size(), &named, &from_memory));
  for (pl_key* key : {from_file, from_memory}) {
    std::int32_t curve = -1;
    PL_REQUIRE_OK(pl_key_curve(key, &curve));
    CHECK(curve == PL_CURVE_BN254);
  }
  std::uint64_t num_variables = 0, num_public = 0;
  PL_REQUIRE_OK(pl_key_sizes(from_file, &num_variables, &num_public, nullptr));
  const Scalars s = bn_scalars();
  CHECK(num_variables == s.count);
  CHECK(num_public == 2);

  // The key's own vk is snarkjs's verification_key.json, of curve bn128.
  pl_vk* vk = nullptr;
  PL_REQUIRE_OK(pl_vk_load_json_file(bn_fixture("verification_key.json").c_str(), &vk));
  pl_vk* key_vk = nullptr;
  PL_REQUIRE_OK(pl_key_verifying_key(from_memory, &key_vk));
  std::int32_t vk_curve = -1;
  PL_REQUIRE_OK(pl_vk_curve(key_vk, &vk_curve));
  CHECK(vk_curve == PL_CURVE_BN254);
  std::size_t needed = 0;
  REQUIRE(pl_vk_to_json(key_vk, nullptr, 0, &needed) == PL_ERR_BUFFER_TOO_SMALL);
  std::string vk_text(needed, '\0');
  PL_REQUIRE_OK(pl_vk_to_json(key_vk, vk_text.data(), vk_text.size(), &needed));
  vk_text.resize(needed - 1);
  CHECK(vk_text == text_of(bn_fixture("verification_key.json")));

  std::vector<pl_job*> jobs;
  for (pl_key* key : {from_file, from_memory}) {
    pl_job* job = nullptr;
    PL_REQUIRE_OK(pl_submit_wtns(pipeline, key, bn_fixture("witness.wtns").c_str(), nullptr, &job));
    jobs.push_back(job);
    PL_REQUIRE_OK(
        pl_submit_scalars_curve(pipeline, key, PL_CURVE_BN254, s.bytes.data(), s.count, nullptr, &job));
    jobs.push_back(job);
    PL_REQUIRE_OK(pl_submit_callback(pipeline, key, fill_bn, const_cast<Scalars*>(&s), PL_FILLS_WITNESS,
                                     nullptr, &job));
    jobs.push_back(job);
  }
  for (pl_job* job : jobs) {
    check_bn_result(job, vk);
    PL_REQUIRE_OK(pl_job_release(job));
  }
  PL_REQUIRE_OK(pl_vk_release(key_vk));
  PL_REQUIRE_OK(pl_vk_release(vk));
  PL_REQUIRE_OK(pl_key_release(from_memory));
  PL_REQUIRE_OK(pl_key_release(from_file));
  PL_REQUIRE_OK(pl_pipeline_destroy(pipeline));
}

TEST_CASE(
    "capi/bn254/scalars of the other curve are refused naming both and values are bounded by BN254's r") {
  const pl_config config = cpu_config();
  pl_pipeline* pipeline = nullptr;
  PL_REQUIRE_OK(pl_pipeline_create(&config, &pipeline));
  pl_key* bn = nullptr;
  pl_key* bls = nullptr;
  PL_REQUIRE_OK(pl_key_add_zkey_file(pipeline, bn_fixture("circuit_final.zkey").c_str(), nullptr, &bn));
  pl_key_options bls_name{};
  bls_name.size = sizeof bls_name;
  bls_name.name = "bls";
  PL_REQUIRE_OK(pl_key_add_zkey_file(pipeline, fixture("circuit_final.zkey").c_str(), &bls_name, &bls));
  const Scalars s = bn_scalars();
  const Scalars bls_scalars = fixture_scalars();
  pl_job* job = nullptr;

  // pl_submit_scalars takes BLS12-381's scalars: refused for the bn128 key, with the function to use.
  CHECK(pl_submit_scalars(pipeline, bn, s.bytes.data(), s.count, nullptr, &job) == PL_ERR_BAD_INPUT);
  CHECK(job == nullptr);
  std::string message = pl_last_error_message();
  CHECK(message.find("BLS12-381") != std::string::npos);
  CHECK(message.find("BN254") != std::string::npos);
  CHECK(message.find("pl_submit_scalars_curve") != std::string::npos);
  CHECK(pl_submit_scalars_curve(pipeline, bn, PL_CURVE_BLS12_381, s.bytes.data(), s.count, nullptr, &job) ==
        PL_ERR_BAD_INPUT);
  CHECK(pl_submit_scalars_curve(pipeline, bls, PL_CURVE_BN254, bls_scalars.bytes.data(), bls_scalars.count,
                                nullptr, &job) == PL_ERR_BAD_INPUT);
  message = pl_last_error_message();
  CHECK(message.find("key 'bls' is BLS12-381's") != std::string::npos);
  CHECK(pl_submit_scalars_curve(pipeline, bn, 7, s.bytes.data(), s.count, nullptr, &job) ==
        PL_ERR_INVALID_ARGUMENT);
  CHECK(std::string(pl_last_error_message()).find("curve = 7 is not a pl_curve") != std::string::npos);
  CHECK(job == nullptr);

  // BN254's r itself is below BLS12-381's r but not BN254's: the job fails, naming the scalar and whose r
  // it is not below (a BLS12-381 value is the usual slip, and "r" alone does not say which bound).
  Scalars at_r = s;
  for (std::size_t i = 0; i < PL_SCALAR_BYTES; ++i)
    at_r.bytes[3 * PL_SCALAR_BYTES + i] =
        static_cast<std::uint8_t>(bn254::FrParams::modulus.limb[i / 8] >> (8 * (i % 8)));
  const std::string bn_bound = "is not below r (BN254's scalar field modulus)";
  PL_REQUIRE_OK(
      pl_submit_scalars_curve(pipeline, bn, PL_CURVE_BN254, at_r.bytes.data(), at_r.count, nullptr, &job));
  PL_REQUIRE_OK(pl_job_wait(job, -1));
  CHECK(pl_job_outcome(job) == PL_ERR_BAD_INPUT);
  CHECK_MESSAGE(
      std::string(pl_last_error_message()).find("witness scalar 3 " + bn_bound) != std::string::npos,
      pl_last_error_message());
  PL_REQUIRE_OK(pl_job_release(job));
  // The same value through a witness callback's write, and as a public input to verify.
  WriteOutcome written{&at_r, PL_OK, {}};
  PL_REQUIRE_OK(pl_submit_callback(pipeline, bn, write_and_note, &written, PL_FILLS_WITNESS, nullptr, &job));
  PL_REQUIRE_OK(pl_job_wait(job, -1));
  CHECK(written.status == PL_ERR_BAD_INPUT);
  CHECK_MESSAGE(written.message.find("(z[3]) " + bn_bound) != std::string::npos, written.message);
  PL_REQUIRE_OK(pl_job_release(job));
  pl_vk* bn_vk = nullptr;
  PL_REQUIRE_OK(pl_vk_load_json_file(bn_fixture("verification_key.json").c_str(), &bn_vk));
  const std::vector<std::uint8_t> no_proof(PL_PROOF_UNCOMPRESSED_BYTES_BN254);
  CHECK(pl_verify_uncompressed(bn_vk, no_proof.data(), no_proof.size(),
                               at_r.bytes.data() + 2 * PL_SCALAR_BYTES, 2) == PL_ERR_BAD_INPUT);
  CHECK_MESSAGE(std::string(pl_last_error_message()).find("public input 1 " + bn_bound) != std::string::npos,
                std::string(pl_last_error_message()));
  PL_REQUIRE_OK(pl_vk_release(bn_vk));

  // A BLS12-381 .wtns for the bn128 key fails its job naming both curves.
  PL_REQUIRE_OK(pl_submit_wtns(pipeline, bn, fixture("witness.wtns").c_str(), nullptr, &job));
  PL_REQUIRE_OK(pl_job_wait(job, -1));
  CHECK(pl_job_outcome(job) == PL_ERR_BAD_INPUT);
  message = pl_last_error_message();
  CHECK(message.find("BLS12-381") != std::string::npos);
  CHECK(message.find("BN254") != std::string::npos);
  PL_REQUIRE_OK(pl_job_release(job));

  // The BLS12-381 key beside it still proves, and its uncompressed points are the compressed proof's.
  PL_REQUIRE_OK(pl_submit_scalars(pipeline, bls, bls_scalars.bytes.data(), bls_scalars.count, nullptr, &job));
  PL_REQUIRE_OK(pl_job_wait(job, -1));
  pl_vk* bls_vk = nullptr;
  PL_REQUIRE_OK(pl_vk_load_json_file(fixture("verification_key.json").c_str(), &bls_vk));
  CHECK(proof_verifies(job, bls_vk));
  pl_job_info info{};
  info.size = sizeof info;
  PL_REQUIRE_OK(pl_job_get_info(job, &info));
  CHECK(info.curve == PL_CURVE_BLS12_381);
  std::uint8_t compressed[PL_PROOF_BYTES];
  PL_REQUIRE_OK(pl_job_proof(job, compressed, sizeof compressed));
  std::vector<std::uint8_t> points(PL_PROOF_UNCOMPRESSED_BYTES_BLS12_381);
  std::size_t needed = 0;
  CHECK(pl_job_proof_uncompressed(job, points.data(), points.size() - 1, &needed) == PL_ERR_BUFFER_TOO_SMALL);
  CHECK(needed == points.size());
  PL_REQUIRE_OK(pl_job_proof_uncompressed(job, points.data(), points.size(), &needed));
  const groth16::Proof proof = groth16::decode_proof(compressed);
  G1Affine a, c;
  G2Affine b;
  REQUIRE(decode_point(std::span<const std::uint8_t>(points.data(), 96), a) == DecodeStatus::ok);
  REQUIRE(decode_point(std::span<const std::uint8_t>(points.data() + 96, 192), b) == DecodeStatus::ok);
  REQUIRE(decode_point(std::span<const std::uint8_t>(points.data() + 288, 96), c) == DecodeStatus::ok);
  CHECK(a == proof.a);
  CHECK(b == proof.b);
  CHECK(c == proof.c);
  std::uint8_t inputs[4 * PL_SCALAR_BYTES];
  std::size_t count = 0;
  PL_REQUIRE_OK(pl_job_public_inputs(job, inputs, sizeof inputs, &count));
  CHECK(pl_verify_uncompressed(bls_vk, points.data(), points.size(), inputs, count) == PL_OK);
  inputs[0] ^= 1;
  CHECK(pl_verify_uncompressed(bls_vk, points.data(), points.size(), inputs, count) == PL_ERR_PROOF_INVALID);
  PL_REQUIRE_OK(pl_job_release(job));
  PL_REQUIRE_OK(pl_vk_release(bls_vk));
  PL_REQUIRE_OK(pl_key_release(bls));
  PL_REQUIRE_OK(pl_key_release(bn));
  PL_REQUIRE_OK(pl_pipeline_destroy(pipeline));
}

}  // namespace proofline::capi_test
