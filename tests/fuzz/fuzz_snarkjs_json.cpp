// libFuzzer target: snarkjs's JSON readers (proof.json, public.json, verification_key.json) on arbitrary text
// must return a value or throw proofline::Error; what they return writes back and reads to the same value.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <proofline/groth16/json.hpp>
#include <proofline/groth16/snarkjs_json.hpp>
#include <proofline/util/error.hpp>

#include "fuzz/fuzz_support.hpp"

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
  try {
    const Proof proof = snarkjs_proof_from_json(value, "fuzz.json", ProofPointCheck::shape_only);
    if (!(snarkjs_proof_from_json(json::parse(snarkjs_stringify(snarkjs_proof_to_json(proof))), "again",
                                  ProofPointCheck::shape_only) == proof))
      __builtin_trap();
  } catch (const proofline::Error&) {
  }
  try {
    const auto inputs = snarkjs_public_from_json(value, "fuzz.json");
    if (snarkjs_public_from_json(json::parse(snarkjs_stringify(snarkjs_public_to_json(inputs)))) != inputs)
      __builtin_trap();
  } catch (const proofline::Error&) {
  }
  try {
    snarkjs_verifying_key_from_json(value, "fuzz.json");
  } catch (const proofline::Error&) {
  }
  return 0;
}
