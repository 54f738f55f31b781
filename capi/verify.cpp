// pl_vk and pl_verify*: verifying keys from snarkjs's JSON (bn128 or bls12381, as the file says), and proofs
// checked as 192 bytes (BLS12-381) or snarkjs JSON (either curve).
#include <cstring>
#include <optional>
#include <span>
#include <string_view>
#include <variant>
#include <vector>

#include <proofline/arith/curve_encoding.hpp>
#include <proofline/capi/detail/objects.hpp>
#include <proofline/capi/detail/registry.hpp>
#include <proofline/capi/detail/scalars.hpp>
#include <proofline/capi/detail/text_out.hpp>
#include <proofline/groth16/snarkjs_json.hpp>
#include <proofline/groth16/verifier.hpp>

namespace proofline::capi {

void copy_text(const std::string& text, char* out, std::size_t length, std::size_t* needed) {
  if (needed != nullptr) *needed = text.size() + 1;
  if (out == nullptr || length < text.size() + 1)
    throw_status(PL_ERR_BUFFER_TOO_SMALL, "the text needs " + std::to_string(text.size() + 1) +
                                              " bytes with its NUL, out holds " +
                                              std::to_string(out == nullptr ? 0 : length));
  std::memcpy(out, text.data(), text.size());
  out[text.size()] = '\0';
}

namespace {

template <class Curve>
pl_vk* add_vk(groth16::BasicVerifyingKey<Curve> vk) {
  auto shared = std::make_shared<const groth16::BasicVerifyingKey<Curve>>(std::move(vk));
  auto prepared = groth16::prepare(*shared);
  return handle_of<pl_vk>(
      Registry<Vk>::instance().add(std::make_shared<Vk>(Vk{CurveVk<Curve>{shared, std::move(prepared)}})));
}

/// A key from snarkjs's verification_key.json, of the curve it names.
pl_vk* add_vk_json(const groth16::json::Value& document, std::string_view context) {
  return with_curve(groth16::snarkjs_curve(document, context), [&]<class Curve>() {
    return add_vk(groth16::snarkjs_verifying_key_from_json<Curve>(document, context));
  });
}

/// Why `given` public inputs fail against a key that expects another count.
template <class Curve>
std::string wrong_count(const CurveVk<Curve>& vk, std::size_t given) {
  return "the proof does not verify: " +
         std::string(groth16::to_string(groth16::VerifyStatus::wrong_input_count)) + " (" +
         std::to_string(given) + " given, the key expects " + std::to_string(vk.vk->num_public()) + ")";
}

template <class Curve>
pl_status verdict(const CurveVk<Curve>& vk, std::span<const typename Curve::Fr> inputs,
                  const groth16::BasicProof<Curve>& proof) {
  const groth16::VerifyStatus status = groth16::verify_status(vk.prepared, inputs, proof);
  if (status == groth16::VerifyStatus::ok) return PL_OK;
  if (status == groth16::VerifyStatus::wrong_input_count)
    return fail(PL_ERR_PROOF_INVALID, wrong_count(vk, inputs.size()));
  return fail(PL_ERR_PROOF_INVALID, "the proof does not verify: " + std::string(groth16::to_string(status)));
}

/// proof.json and public.json checked against a key of their curve (the proof must name the key's).
template <class Curve>
pl_status verdict_json(const CurveVk<Curve>& vk, const char* proof_json, const char* public_json) {
  const auto inputs = groth16::snarkjs_public_from_json<typename Curve::Fr>(
      groth16::json::parse(public_json, "public.json"), "public.json");
  // Points off the curve or outside the subgroup are an invalid proof, not unusable text: read the shape
  // and let the verifier judge them.
  const auto proof = groth16::snarkjs_proof_from_json<Curve>(
      groth16::json::parse(proof_json, "proof.json"), "proof.json", groth16::ProofPointCheck::shape_only);
  return verdict(vk, std::span<const typename Curve::Fr>(inputs), proof);
}

/// A proof in the uncompressed encoding of its curve (pl_job_proof_uncompressed's); nullopt and the reason
/// when it does not decode.
std::optional<groth16::Proof> decode_uncompressed(const CurveVk<Bls12_381>&,
                                                  std::span<const std::uint8_t> bytes, std::string& why) {
  constexpr std::size_t g1 = g1_uncompressed_size, g2 = g2_uncompressed_size;
  if (bytes.size() != 2 * g1 + g2) {
    why = "length " + std::to_string(bytes.size()) + ", expected " + std::to_string(2 * g1 + g2);
    return std::nullopt;
  }
  groth16::Proof proof;
  const std::pair<const char*, DecodeStatus> parts[] = {
      {"A", decode_point(bytes.subspan(0, g1), proof.a)},
      {"B", decode_point(bytes.subspan(g1, g2), proof.b)},
      {"C", decode_point(bytes.subspan(g1 + g2, g1), proof.c)}};
  for (const auto& [name, status] : parts)
    if (status != DecodeStatus::ok) {
      why = std::string(name) + ": " + proofline::to_string(status);
      return std::nullopt;
    }
  return proof;
}

std::optional<groth16::BasicProof<Bn254>> decode_uncompressed(const CurveVk<Bn254>&,
                                                              std::span<const std::uint8_t> bytes,
                                                              std::string& why) {
  return groth16::try_decode_bn254_proof(bytes, &why);
}

/// The caller's public inputs as field elements; PL_ERR_BAD_INPUT names the first not below r.
template <class F>
std::vector<F> read_public_inputs(const std::uint8_t* public_inputs, std::size_t num_public) {
  const std::size_t bad = first_non_canonical<F>(public_inputs, num_public);
  if (bad != num_public)
    throw_status(PL_ERR_BAD_INPUT,
                 "public input " + std::to_string(bad) + " " + not_below_r(curve_of_scalar<F>()));
  std::vector<F> inputs(num_public);
  scalars_to_fr(public_inputs, std::span<F>(inputs));
  return inputs;
}

/// Checks the caller's public inputs (below the key's r) and the uncompressed proof against `vk`.
template <class Curve>
pl_status verify_uncompressed(const CurveVk<Curve>& vk, std::span<const std::uint8_t> proof,
                              const std::uint8_t* public_inputs, std::size_t num_public) {
  using F = typename Curve::Fr;
  // The count first: the caller's buffer holds num_public inputs only if that is what the key expects.
  if (num_public != vk.vk->num_public()) return fail(PL_ERR_PROOF_INVALID, wrong_count(vk, num_public));
  const std::vector<F> inputs = read_public_inputs<F>(public_inputs, num_public);
  std::string why;
  const auto decoded = decode_uncompressed(vk, proof, why);
  if (!decoded) return fail(PL_ERR_PROOF_INVALID, "the proof does not decode: " + why);
  return verdict(vk, std::span<const F>(inputs), *decoded);
}

}  // namespace

}  // namespace proofline::capi

using namespace proofline;
using namespace proofline::capi;

extern "C" {

PL_API pl_status pl_vk_load_json_file(const char* path, pl_vk** out) {
  return guarded("pl_vk_load_json_file", [&] {
    require(out, "out");
    *out = nullptr;
    require(path, "path");
    *out = add_vk_json(groth16::read_json_file(path), path);
    return PL_OK;
  });
}

PL_API pl_status pl_vk_load_json(const char* text, size_t length, pl_vk** out) {
  return guarded("pl_vk_load_json", [&] {
    require(out, "out");
    *out = nullptr;
    require(text, "text");
    const std::string_view json(text, length);
    *out = add_vk_json(groth16::json::parse(json, "verification key"), "verification key");
    return PL_OK;
  });
}

PL_API pl_status pl_vk_to_json(const pl_vk* vk, char* out, size_t length, size_t* needed) {
  return guarded("pl_vk_to_json", [&] {
    const std::shared_ptr<Vk> v = lookup<Vk>(vk, "vk");
    const std::string text = std::visit(
        [](const auto& key) {
          return groth16::snarkjs_stringify(groth16::snarkjs_verifying_key_to_json(*key.vk));
        },
        v->key);
    copy_text(text, out, length, needed);
    return PL_OK;
  });
}

PL_API pl_status pl_vk_curve(const pl_vk* vk, int32_t* curve) {
  return guarded("pl_vk_curve", [&] {
    require(curve, "curve");
    const std::shared_ptr<Vk> v = lookup<Vk>(vk, "vk");
    *curve = std::holds_alternative<CurveVk<Bn254>>(v->key) ? PL_CURVE_BN254 : PL_CURVE_BLS12_381;
    return PL_OK;
  });
}

PL_API pl_status pl_vk_release(pl_vk* vk) {
  return guarded("pl_vk_release", [&] {
    take<Vk>(vk, "vk");
    return PL_OK;
  });
}

PL_API pl_status pl_verify(const pl_vk* vk, const uint8_t* proof, size_t proof_length,
                           const uint8_t* public_inputs, size_t num_public) {
  return guarded("pl_verify", [&] {
    const std::shared_ptr<Vk> v = lookup<Vk>(vk, "vk");
    require(proof, "proof");
    if (num_public != 0) require(public_inputs, "public_inputs");
    const auto* bls = std::get_if<CurveVk<Bls12_381>>(&v->key);
    if (bls == nullptr)
      throw_status(PL_ERR_INVALID_ARGUMENT,
                   "the 192-byte proof encoding is BLS12-381's; a bn128 key verifies with pl_verify_json");
    if (proof_length != groth16::proof_encoded_size)
      throw_status(PL_ERR_INVALID_ARGUMENT, "proof_length is " + std::to_string(proof_length) +
                                                ", a proof has " +
                                                std::to_string(groth16::proof_encoded_size) + " bytes");
    // The count first: the caller's buffer holds num_public inputs only if that is what the key expects.
    if (num_public != bls->vk->num_public())
      return fail(PL_ERR_PROOF_INVALID, "pl_verify: " + wrong_count(*bls, num_public));
    const std::vector<Fr> inputs = read_public_inputs<Fr>(public_inputs, num_public);
    std::string why;
    const std::optional<groth16::Proof> decoded = groth16::try_decode_proof({proof, proof_length}, &why);
    if (!decoded) return fail(PL_ERR_PROOF_INVALID, "pl_verify: the proof does not decode: " + why);
    const pl_status status = verdict(*bls, std::span<const Fr>(inputs), *decoded);
    return status == PL_OK ? PL_OK : fail(status, std::string("pl_verify: ") + pl_last_error_message());
  });
}

PL_API pl_status pl_verify_uncompressed(const pl_vk* vk, const uint8_t* proof, size_t proof_length,
                                        const uint8_t* public_inputs, size_t num_public) {
  return guarded("pl_verify_uncompressed", [&] {
    const std::shared_ptr<Vk> v = lookup<Vk>(vk, "vk");
    require(proof, "proof");
    if (num_public != 0) require(public_inputs, "public_inputs");
    const std::span<const std::uint8_t> bytes(proof, proof_length);
    const pl_status status = std::visit(
        [&](const auto& key) { return verify_uncompressed(key, bytes, public_inputs, num_public); }, v->key);
    return status == PL_OK ? PL_OK
                           : fail(status, std::string("pl_verify_uncompressed: ") + pl_last_error_message());
  });
}

PL_API pl_status pl_verify_json(const pl_vk* vk, const char* proof_json, const char* public_json) {
  return guarded("pl_verify_json", [&] {
    const std::shared_ptr<Vk> v = lookup<Vk>(vk, "vk");
    require(proof_json, "proof_json");
    require(public_json, "public_json");
    const pl_status status =
        std::visit([&](const auto& key) { return verdict_json(key, proof_json, public_json); }, v->key);
    return status == PL_OK ? PL_OK : fail(status, std::string("pl_verify_json: ") + pl_last_error_message());
  });
}

}  // extern "C"
