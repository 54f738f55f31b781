#include "snarkjs_verify.hpp"

#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <proofline/arith/int_text.hpp>
#include <proofline/groth16/json.hpp>
#include <proofline/groth16/snarkjs_json.hpp>
#include <proofline/groth16/verifier.hpp>
#include <proofline/groth16/verifying_key.hpp>
#include <proofline/util/text.hpp>

#include "public_signal_range.hpp"

namespace proofline::apps {

namespace {

namespace json = groth16::json;

/// Whether `value` is a decimal string that reads as zero (as the format's reader reads numbers).
bool is_zero(const json::Value& value) {
  if (!value.is_string()) return false;
  const auto x = field_from_decimal<Fp>(value.as_string());
  return x && x->is_zero();
}

bool is_one(const json::Value& value) {
  if (!value.is_string()) return false;
  const auto x = field_from_decimal<Fp>(value.as_string());
  return x && x->is_one();
}

/// A coordinate: one Fp string (G1) or a pair of them (G2), and the predicate on each element.
bool all_of(const json::Value& coordinate, std::size_t width, bool (*check)(const json::Value&)) {
  if (width == 1) return check(coordinate);
  if (!coordinate.is_array() || coordinate.size() != width) return false;
  for (std::size_t i = 0; i < width; ++i)
    if (!check(coordinate.at(i))) return false;
  return true;
}

/// (0, 0) with z = 1: the format can write it, but it is no point of the curve, and the reader cannot hold it
/// (an affine (0, 0) is our point at infinity), so it refuses it even when reading for a verdict.
bool is_affine_zero(const json::Value& point, std::size_t width) {
  if (!point.is_array() || point.size() != 3) return false;
  const json::Value& z = point.at(std::size_t{2});
  const bool z_is_one = width == 1 ? is_one(z)
                                   : z.is_array() && z.size() == 2 && is_one(z.at(std::size_t{0})) &&
                                         is_zero(z.at(std::size_t{1}));
  return z_is_one && all_of(point.at(std::size_t{0}), width, is_zero) &&
         all_of(point.at(std::size_t{1}), width, is_zero);
}

/// The proof's file as the reader takes it, with an affine (0, 0) point replaced by the point at infinity so
/// the rest of the file is still checked; `invalid` says which point that was.
json::Value without_affine_zero(json::Value proof, std::optional<groth16::VerifyStatus>& invalid) {
  if (!proof.is_object()) return proof;
  const std::pair<const char*, groth16::VerifyStatus> points[] = {{"pi_a", groth16::VerifyStatus::a_invalid},
                                                                  {"pi_b", groth16::VerifyStatus::b_invalid},
                                                                  {"pi_c", groth16::VerifyStatus::c_invalid}};
  for (const auto& [name, status] : points) {
    const json::Value* point = proof.find(name);
    const bool g2 = std::string_view(name) == "pi_b";
    if (point == nullptr || !is_affine_zero(*point, g2 ? 2 : 1)) continue;
    const json::Value zero = g2 ? json::Value::array({"0", "0"}) : json::Value("0");
    const json::Value one = g2 ? json::Value::array({"1", "0"}) : json::Value("1");
    proof.set(name, json::Value::array({zero, one, zero}));
    if (!invalid) invalid = status;
  }
  return proof;
}

int invalid(const std::string& reason) {
  std::printf("invalid: %s\n", reason.c_str());
  return 1;
}

template <class Curve>
int verify_as(const SnarkjsProofFiles& files, const json::Value& vk_document) {
  using Fr = typename Curve::Fr;
  const auto vk = groth16::snarkjs_verifying_key_from_json<Curve>(vk_document, files.vk);
  // An integer outside [0, r) among the public signals is snarkjs's "Public inputs are not valid.": a
  // verdict, not an unusable file. The other signals and the proof are still read, so a file set proofline
  // cannot use is reported as such whatever its signals.
  std::optional<OutOfFieldSignal> out_of_field;
  const std::vector<Fr> inputs = groth16::snarkjs_public_from_json<Fr>(
      without_out_of_field<Fr>(numbers_as_javascript_reads(groth16::read_json_file(files.pub)), out_of_field),
      files.pub);
  // Points off the curve or outside the subgroup make an invalid proof (exit 1), not an unusable file:
  // read the shape only and let verify_status judge them.
  std::optional<groth16::VerifyStatus> zero_point;
  const json::Value document = without_affine_zero(groth16::read_json_file(files.proof), zero_point);
  const auto proof =
      groth16::snarkjs_proof_from_json<Curve>(document, files.proof, groth16::ProofPointCheck::shape_only);
  if (out_of_field)
    return invalid("public signal [" + std::to_string(out_of_field->index) + "] of " + files.pub + ", " +
                   quote_for_message(out_of_field->value, 100) +
                   (out_of_field->negative ? ", is negative" : ", is not below r") + " (" +
                   std::string(curve_name(Curve::id)) +
                   "'s scalar field; snarkjs: \"Public inputs are not valid.\")");
  const groth16::VerifyStatus status = groth16::verify_status(groth16::prepare(vk), inputs, proof);
  if (status == groth16::VerifyStatus::wrong_input_count)
    return invalid(std::string(groth16::to_string(status)) + " (" + files.pub + " has " +
                   std::to_string(inputs.size()) + ", the key expects " + std::to_string(vk.num_public()) +
                   ")");
  if (zero_point)
    return invalid(std::string(groth16::to_string(*zero_point)) + ": (0, 0) is not on the curve");
  if (status != groth16::VerifyStatus::ok) return invalid(groth16::to_string(status));
  std::printf("valid: the proof verifies for %zu public input%s\n", inputs.size(),
              inputs.size() == 1 ? "" : "s");
  return 0;
}

}  // namespace

int verify_snarkjs_proof(const SnarkjsProofFiles& files) {
  // The key names the curve (bn128 or bls12381); the proof, where it names one, must name the same.
  const json::Value vk_document = groth16::read_json_file(files.vk);
  return with_curve(groth16::snarkjs_curve(vk_document, files.vk),
                    [&]<class Curve>() { return verify_as<Curve>(files, vk_document); });
}

}  // namespace proofline::apps
