// Writes snarkjs Groth16 proving keys (.zkey, version 1, curve bls12381 or bn128) from our keys and
// constraint system: large real-format workloads (a 2^22-row key) made in seconds from known-trapdoor keys
// (setup.hpp), without snarkjs's ceremony, for benchmarks of the tools that take .zkey + .wtns jobs, and for
// tests.
//
// The layout is zkey.hpp's (the reader); every section the reader and snarkjs's prover read is written, in
// snarkjs's encodings: points affine little-endian Montgomery (our in-memory layout, infinity all zero),
// coefficients as coef·R² mod r (zkey_coefficient_to_stored). Sections are written in the order 1..10:
//   1 protocol (Groth16), 2 the Groth16 header (q, r, nVars, nPublic, domainSize, α1, β1, β2, γ2, δ1, δ2),
//   3 IC (vk.ic), 4 the A and B coefficients of cs, row by row (A first, then B), 5 A, 6 B1, 7 B2, 8 C (the
//   L query), 9 H, 10 contributions: a zero circuit hash and no contributions.
// C is not written: a .zkey has no C matrix (snarkjs's prover takes c = a∘b, which holds on every row for a
// satisfying witness); C is in the key only through the C and IC points. The circuit hash of section 10 is
// left zero: snarkjs computes it during its own setup and reads it only to verify or extend a ceremony, which
// a known-trapdoor key has not had (`snarkjs zkey verify` refuses such a key; proving and exporting the
// verifying key do not read section 10).
//
// Only keys in snarkjs's H convention can be written: a .zkey's section 9 holds the n odd-coset Lagrange
// points snarkjs's prover pairs with its coset evaluations (proving_key.hpp). A generator7 key is refused.
//
// The file is written atomically (util/atomic_file.hpp: a temporary file renamed over `path`), streaming
// the query points straight from the key's arrays, so writing needs little memory beyond the coefficients.
#pragma once

#include <cstdint>
#include <filesystem>

#include <proofline/groth16/constraint_system.hpp>
#include <proofline/groth16/proving_key.hpp>
#include <proofline/groth16/verifying_key.hpp>

namespace proofline::groth16 {

/// Writes pk, vk (γ2 and IC; α1, β2, δ2 must equal pk's) and the A and B matrices of cs as a snarkjs .zkey at
/// `path` (mode 0644). Throws Error(invalid_argument, "<path>: <what is wrong>") for a key not in snarkjs's H
/// convention, a vk that is not pk's, a cs that does not fit the key (variable or public-input counts, rows
/// beyond the domain) or counts a .zkey cannot hold (u32 nVars and nCoef); Error(io) when writing fails.
/// The curve is the key's (the header's primes q and r, its point sizes).
template <class Curve>
void write_zkey(const std::filesystem::path& path, const BasicProvingKey<Curve>& pk,
                const BasicVerifyingKey<Curve>& vk, const BasicConstraintSystem<Curve>& cs);

/// The size in bytes of the file write_zkey writes (the same checks are not made).
template <class Curve>
std::uint64_t zkey_file_size(const BasicProvingKey<Curve>& pk, const BasicConstraintSystem<Curve>& cs);

}  // namespace proofline::groth16
