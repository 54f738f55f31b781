// Text forms of big integers and field elements: hexadecimal (debugging, test vectors) and decimal (the
// snarkjs JSON formats write every number as a decimal string). Host only.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <proofline/arith/bigint.hpp>
#include <proofline/arith/fp.hpp>
#include <proofline/arith/fr.hpp>

namespace proofline {

/// "0x" followed by lowercase digits without leading zeros ("0x0" for zero).
template <std::size_t N>
std::string to_hex(const BigInt<N>& value);

template <std::size_t N>
std::string to_decimal(const BigInt<N>& value);

/// Parses decimal digits (no sign, no spaces); nullopt if empty, not decimal, or wider than N limbs.
template <std::size_t N>
std::optional<BigInt<N>> parse_decimal(std::string_view text);

/// Parses "0x..." or bare hexadecimal; nullopt on bad digits or overflow.
template <std::size_t N>
std::optional<BigInt<N>> parse_hex(std::string_view text);

/// Field element from its canonical decimal form; nullopt unless 0 <= value < modulus.
template <class Field>
std::optional<Field> field_from_decimal(std::string_view text) {
  const auto value = parse_decimal<Field::N>(text);
  if (!value || !Field::is_canonical(*value)) return std::nullopt;
  return Field::from_canonical(*value);
}

template <class Field>
std::string field_to_decimal(const Field& element) {
  return to_decimal(element.canonical());
}

}  // namespace proofline
