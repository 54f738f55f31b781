// libFuzzer target: snarkjs's JSON readers (proof.json, public.json, verification_key.json) on arbitrary text
// must return a value or throw proofline::Error; what they return writes back and reads to the same value.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <proofline/groth16/json.hpp>
#include <proofline/groth16/snarkjs_json.hpp>
#include <proofline/util/error.hpp>

#include "fuzz/fuzz_support.hpp"

namespace {

template <class Curve>
void read_as(const proofline::groth16::json::Value& value) {
  using namespace proofline::groth16;
  try {
    const auto proof = snarkjs_proof_from_json<Curve>(value, "fuzz.json", ProofPointCheck::shape_only);
    if (!(snarkjs_proof_from_json<Curve>(json::parse(snarkjs_stringify(snarkjs_proof_to_json(proof))),
                                         "again", ProofPointCheck::shape_only) == proof))
      __builtin_trap();
  } catch (const proofline::Error&) {
  }
  try {
    using Fr = typename Curve::Fr;
    const auto inputs = snarkjs_public_from_json<Fr>(value, "fuzz.json");
    if (snarkjs_public_from_json<Fr>(
            json::parse(snarkjs_stringify(snarkjs_public_to_json(std::span<const Fr>(inputs))))) != inputs)
      __builtin_trap();
  } catch (const proofline::Error&) {
  }
  try {
    snarkjs_verifying_key_from_json<Curve>(value, "fuzz.json");
  } catch (const proofline::Error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace proofline::groth16;
  proofline::fuzz::single_thread();
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  json::Value value;
  try {
    value = json::parse(text, "fuzz.json");
  } catch (const proofline::Error&) {
    return 0;
  }
  // Both curves' readers on every document (each refuses the other's "curve"), and public.json in both
  // fields.
  proofline::with_curve(proofline::CurveId::bls12_381, [&]<class Curve>() { read_as<Curve>(value); });
  proofline::with_curve(proofline::CurveId::bn254, [&]<class Curve>() { read_as<Curve>(value); });
  return 0;
}
