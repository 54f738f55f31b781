// Our JSON form of a proof (snarkjs's proof.json is the interop layer's, built from the same point helpers):
//   {"protocol": "groth16", "curve": "bls12-381", "format": "proofline",
//    "a": ["x", "y"], "b": [["x.c0", "x.c1"], ["y.c0", "y.c1"]], "c": ["x", "y"]}
// with canonical decimal coordinates (point_json.hpp).
#pragma once

#include <string>
#include <string_view>

#include <proofline/groth16/json.hpp>
#include <proofline/groth16/proof.hpp>

namespace proofline::groth16 {

json::Value proof_to_json(const Proof& proof);
/// Checks protocol, curve and format and validates the points; throws Error(bad_input, "<context>: ...").
Proof proof_from_json(const json::Value& value, std::string_view context = "proof");

/// Text forms (pretty-printed, with a trailing newline).
std::string write_proof_json(const Proof& proof);
Proof read_proof_json(std::string_view text, std::string_view context = "proof");

}  // namespace proofline::groth16
