// Scalars at the boundary: canonical little-endian 32-byte integers below r, to and from our Montgomery Fr.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include <proofline/arith/fr.hpp>

namespace proofline::capi {

/// The index of the first of `count` scalars that is not below r, or count when all are.
std::size_t first_non_canonical(const std::uint8_t* scalars, std::size_t count) noexcept;

/// Converts `out.size()` canonical scalars (checked before) into out, in parallel for long vectors.
void scalars_to_fr(const std::uint8_t* scalars, std::span<Fr> out);

/// Writes each element as 32 canonical little-endian bytes.
void fr_to_scalars(std::span<const Fr> values, std::uint8_t* out) noexcept;

}  // namespace proofline::capi
