// Randomness from the operating system's CSPRNG (getrandom(2)), for the proof's blinding factors r and s. No
// seed, no user-space generator: a prover that reused or predicted r and s would leak its witness.
#pragma once

#include <cstdint>
#include <span>

#include <proofline/arith/bn254/fr.hpp>
#include <proofline/arith/fr.hpp>

namespace proofline::groth16 {

/// Fills `out` from getrandom(2) (blocking until the kernel's pool is initialised, retrying interrupted and
/// short reads). Throws Error(io) if the kernel refuses.
void os_random_bytes(std::span<std::uint8_t> out);

/// A uniform element of the scalar field F (either curve's Fr): draws of r's bit length from os_random_bytes,
/// rejected until below r.
template <class F>
F os_random_scalar();

/// os_random_scalar<Fr>() of BLS12-381 (about 1 in 11 draws is rejected).
Fr os_random_fr();

}  // namespace proofline::groth16
