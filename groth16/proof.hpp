// A Groth16 proof (A in G1, B in G2, C in G1) and its standard byte encodings:
// - BLS12-381: 192 bytes compressed, A (48 bytes) ‖ B (96 bytes) ‖ C (48 bytes), each point in the zcash/IETF
//   compressed form (curve_encoding.hpp), as bellman, arkworks and Filecoin write it;
// - BN254: 256 bytes uncompressed, A (64) ‖ B (128) ‖ C (64) as Ethereum's EIP-196/197 precompiles take
//   points (32-byte big-endian coordinates, an Fp2 as imaginary ‖ real, infinity as zeros), the order of
//   snarkjs's Solidity verifier's calldata.
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

/// A proof on either curve (Proof is BLS12-381's).
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

inline constexpr std::size_t bn254_proof_encoded_size = 256;

/// BN254's 256-byte EIP-196/197 encoding; the points must be on their curves.
std::array<std::uint8_t, bn254_proof_encoded_size> encode_proof(const BasicProof<Bn254>& proof);

/// Decodes and validates (length, coordinates below p, on the curve, B in the subgroup). On failure returns
/// nullopt and, if `error` is given, a one-line reason such as "B: not on the curve".
std::optional<BasicProof<Bn254>> try_decode_bn254_proof(std::span<const std::uint8_t> bytes,
                                                        std::string* error = nullptr);
/// Like try_decode_bn254_proof but throws Error(bad_input, "proof: <reason>").
BasicProof<Bn254> decode_bn254_proof(std::span<const std::uint8_t> bytes);

}  // namespace proofline::groth16
