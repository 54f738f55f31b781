#include <proofline/groth16/proof_json.hpp>

#include <proofline/groth16/point_json.hpp>
#include <proofline/util/error.hpp>

namespace proofline::groth16 {

namespace {

void expect_string(const json::Value& object, std::string_view key, std::string_view expected,
                   std::string_view context) {
  const json::Value* value = object.find(key);
  if (value == nullptr || !value->is_string() || value->as_string() != expected)
    throw Error(Errc::bad_input, std::string(context) + ": \"" + std::string(key) + "\" must be \"" +
                                     std::string(expected) + "\"");
}

const json::Value& member(const json::Value& object, std::string_view key, std::string_view context) {
  const json::Value* value = object.find(key);
  if (value == nullptr)
    throw Error(Errc::bad_input, std::string(context) + ": missing member \"" + std::string(key) + "\"");
  return *value;
}

}  // namespace

json::Value proof_to_json(const Proof& proof) {
  return json::Value::object({{"protocol", "groth16"},
                              {"curve", "bls12-381"},
                              {"format", "proofline"},
                              {"a", to_json(proof.a)},
                              {"b", to_json(proof.b)},
                              {"c", to_json(proof.c)}});
}

Proof proof_from_json(const json::Value& value, std::string_view context) {
  if (!value.is_object()) throw Error(Errc::bad_input, std::string(context) + ": expected a JSON object");
  expect_string(value, "protocol", "groth16", context);
  expect_string(value, "curve", "bls12-381", context);
  expect_string(value, "format", "proofline", context);
  const std::string where(context);
  return Proof{g1_from_json(member(value, "a", context), where + ": a"),
               g2_from_json(member(value, "b", context), where + ": b"),
               g1_from_json(member(value, "c", context), where + ": c")};
}

std::string write_proof_json(const Proof& proof) {
  return json::dump(proof_to_json(proof)) + "\n";
}

Proof read_proof_json(std::string_view text, std::string_view context) {
  return proof_from_json(json::parse(text, context), context);
}

}  // namespace proofline::groth16
