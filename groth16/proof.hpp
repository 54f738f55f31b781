// A Groth16 proof (A in G1, B in G2, C in G1) and, on BLS12-381, its standard 192-byte compressed encoding: A
// (48 bytes) ‖ B (96 bytes) ‖ C (48 bytes), each point in the zcash/IETF compressed form
// (curve_encoding.hpp), as bellman, arkworks and Filecoin write it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include <proofline/arith/curves.hpp>
#include <proofline/groth16/fwd.hpp>

namespace proofline::groth16 {

/// A proof on either curve (Proof is BLS12-381's). The compressed encoding below is BLS12-381's; BN254 proofs
/// travel as snarkjs's proof.json (snarkjs_json.hpp).
template <class Curve>
struct BasicProof {
  typename Curve::G1Affine a{};
  typename Curve::G2Affine b{};
  typename Curve::G1Affine c{};

  friend bool operator==(const BasicProof&, const BasicProof&) = default;
};

inline constexpr std::size_t proof_encoded_size = 192;

/// The 192-byte encoding; the points must be on their curves (any point a prover made is).
std::array<std::uint8_t, proof_encoded_size> encode_proof(const Proof& proof);

/// Decodes and validates (length, flags, canonical coordinates, on the curve, in the subgroup). On failure
/// returns nullopt and, if `error` is given, a one-line reason such as "B: not in subgroup".
std::optional<Proof> try_decode_proof(std::span<const std::uint8_t> bytes, std::string* error = nullptr);

/// Like try_decode_proof but throws Error(bad_input, "proof: <reason>").
Proof decode_proof(std::span<const std::uint8_t> bytes);

}  // namespace proofline::groth16
