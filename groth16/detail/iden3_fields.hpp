// Internal: the primes that appear in circom/snarkjs headers, so that a file for another curve is refused
// with a message that says which curve it is for.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>

#include <proofline/arith/curves.hpp>

namespace proofline::groth16::detail {

/// "bn128's scalar field r", "BLS12-381's base field q", ... or "an unknown prime 0x..." for a little-endian
/// prime of any length ("an unknown number of N bytes" past 128 hex digits, so a message stays short).
std::string describe_prime(std::span<const std::byte> prime_le);

/// The curve whose scalar field is r (32 little-endian bytes), if it is one of ours.
std::optional<CurveId> curve_of_scalar_prime(std::span<const std::byte> r_le);

/// The curve whose base field is q and scalar field is r, if both match one of ours.
std::optional<CurveId> curve_of_primes(std::span<const std::byte> q_le, std::span<const std::byte> r_le);

}  // namespace proofline::groth16::detail
