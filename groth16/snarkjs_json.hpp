// snarkjs's JSON files for Groth16 on bn128 (BN254) and bls12381: proof.json, public.json
// and verification_key.json, written byte for byte as snarkjs writes them (JSON.stringify(value, null, 1):
// one item per line, one space of indent per level, no trailing newline) and read back with full validation.
//
//   proof.json   {"pi_a": [x, y, "1"], "pi_b": [[x.c0, x.c1], [y.c0, y.c1], ["1", "0"]], "pi_c": [x, y, "1"],
//                 "protocol": "groth16", "curve": "bn128" | "bls12381"}
//   public.json  ["<z[1]>", ..., "<z[nPublic]>"]
//   verification_key.json  {"protocol", "curve", "nPublic", "vk_alpha_1", "vk_beta_2", "vk_gamma_2",
//                 "vk_delta_2", "vk_alphabeta_12", "IC"}
//
// Numbers are decimal strings of canonical (non-Montgomery) integers. Points are affine written as projective
// triples with z = 1; the point at infinity is ["0", "1", "0"] (G1) or [["0", "0"], ["1", "0"], ["0", "0"]]
// (G2), as ffjavascript writes it. Readers accept exactly these forms (z must be 1, or 0 for infinity).
// vk_alphabeta_12 = e(alpha1, beta2) as snarkjs computes it (on bn128 that pairing to a fixed power, see
// snarkjs_json.cpp) in ffjavascript's layout [[[c0.c0.c0, c0.c0.c1], [c0.c1.c0, c0.c1.c1],
// [c0.c2.c0, c0.c2.c1]], [[c1.c0.c0, ...], ...]]: computed by our pairing when writing, checked when reading.
//
// Readers throw Error(Errc::bad_input, "<context>: <what is wrong>"), context being the file name.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <proofline/arith/curve_pairing.hpp>
#include <proofline/arith/curves.hpp>
#include <proofline/groth16/json.hpp>
#include <proofline/groth16/proof.hpp>
#include <proofline/groth16/verifying_key.hpp>

namespace proofline::groth16 {

/// Whether a reader checks that proof points are on their curves and in the subgroups. A verifier that wants
/// to report "invalid proof" rather than "unusable file" for such points reads with `shape_only` and lets
/// verify_status() judge them.
enum class ProofPointCheck { full, shape_only };

/// The curve a snarkjs proof.json or verification_key.json names ("bn128" or "bls12381"); Error(bad_input)
/// for anything else.
CurveId snarkjs_curve(const json::Value& value, std::string_view context);

// ---- proof.json -----------------------------------------------------------------------------------------

template <class Curve>
json::Value snarkjs_proof_to_json(const BasicProof<Curve>& proof);
/// Checks protocol "groth16" and the curve's name.
template <class Curve = Bls12_381>
BasicProof<Curve> snarkjs_proof_from_json(const json::Value& value, std::string_view context = "proof.json",
                                          ProofPointCheck check = ProofPointCheck::full);

// ---- public.json ----------------------------------------------------------------------------------------

json::Value snarkjs_public_to_json(std::span<const Fr> public_inputs);
json::Value snarkjs_public_to_json(std::span<const bn254::Fr> public_inputs);
/// Every entry a decimal string below r (of F's curve).
template <class F = Fr>
std::vector<F> snarkjs_public_from_json(const json::Value& value, std::string_view context = "public.json");

// ---- verification_key.json ------------------------------------------------------------------------------

/// Computes vk_alphabeta_12 = e(alpha1, beta2) with our pairing.
template <class Curve>
json::Value snarkjs_verifying_key_to_json(const BasicVerifyingKey<Curve>& vk);
/// Checks protocol "groth16", the curve's name, nPublic = |IC| − 1, every point (full), and vk_alphabeta_12
/// (when present) against e(alpha1, beta2).
template <class Curve = Bls12_381>
BasicVerifyingKey<Curve> snarkjs_verifying_key_from_json(const json::Value& value,
                                                         std::string_view context = "verification_key.json");

/// ffjavascript's JSON form of an Fp12 element (the vk_alphabeta_12 layout) and its inverse.
template <class Fp2>
json::Value snarkjs_fp12_to_json(const Fp12T<Fp2>& value);
template <class Curve = Bls12_381>
typename CurvePairing<Curve>::Gt snarkjs_fp12_from_json(const json::Value& value, std::string_view context);

// ---- text and files -------------------------------------------------------------------------------------

/// What snarkjs writes (no trailing newline): JSON.stringify(value, null, 1), except that an empty array is
/// "[", a newline and "]" (public.json of a circuit without public signals, written by snarkjs's bfj).
std::string snarkjs_stringify(const json::Value& value);

/// The text of a JSON file (at most 64 MiB) parsed; Error(bad_input, "<path>: ...") when it is missing,
/// unreadable, not a regular file (a FIFO or device is refused at once, never waited on), too large or not
/// JSON.
json::Value read_json_file(const std::filesystem::path& path);

/// The writers replace `path` atomically (write_file_atomically: a symbolic link there is replaced, not
/// followed).
template <class Curve>
void write_snarkjs_proof(const std::filesystem::path& path, const BasicProof<Curve>& proof);
void write_snarkjs_public(const std::filesystem::path& path, std::span<const Fr> public_inputs);
void write_snarkjs_public(const std::filesystem::path& path, std::span<const bn254::Fr> public_inputs);
template <class Curve>
void write_snarkjs_verifying_key(const std::filesystem::path& path, const BasicVerifyingKey<Curve>& vk);

template <class Curve = Bls12_381>
BasicProof<Curve> read_snarkjs_proof(const std::filesystem::path& path,
                                     ProofPointCheck check = ProofPointCheck::full);
template <class F = Fr>
std::vector<F> read_snarkjs_public(const std::filesystem::path& path);
template <class Curve = Bls12_381>
BasicVerifyingKey<Curve> read_snarkjs_verifying_key(const std::filesystem::path& path);

}  // namespace proofline::groth16
