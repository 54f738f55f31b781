// Curve points as JSON values with decimal-string coordinates (canonical integers, not Montgomery form), the
// building blocks of our proof JSON and of snarkjs's formats:
//   G1: ["x", "y"]                       G2: [["x.c0", "x.c1"], ["y.c0", "y.c1"]]
// The point at infinity is our in-memory (0, 0), written as zeros (it is not on the curve, so it is
// unambiguous). snarkjs's projective triples ([x, y, "1"]) are the interop layer's business: it adds or
// strips the third coordinate around these helpers.
#pragma once

#include <string_view>

#include <proofline/arith/fr.hpp>
#include <proofline/arith/g1.hpp>
#include <proofline/arith/g2.hpp>
#include <proofline/groth16/json.hpp>

namespace proofline::groth16 {

json::Value to_json(const Fp& value);
json::Value to_json(const Fr& value);
json::Value to_json(const G1Affine& point);
json::Value to_json(const G2Affine& point);

// Readers validate everything (shape, decimal digits, value below the modulus, on the curve, in the subgroup)
// and throw Error(bad_input, "<context>: <what is wrong>").
Fp fp_from_json(const json::Value& value, std::string_view context);
Fr fr_from_json(const json::Value& value, std::string_view context);
G1Affine g1_from_json(const json::Value& value, std::string_view context);
G2Affine g2_from_json(const json::Value& value, std::string_view context);

}  // namespace proofline::groth16
