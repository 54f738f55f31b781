// Public signals that snarkjs's verifier judges invalid rather than unreadable: integers outside [0, r).
// `snarkjs groth16 verify` checks every public signal against the curve's r before it looks at the proof and
// answers "Public inputs are not valid." (exit 1, the verdict on an invalid proof) for an integer - a decimal
// string with or without a minus sign, a 0x string, a JSON number holding an integer - that is negative or
// not below r; text that is no integer at all makes it throw instead, which proofline reports as unusable
// input (exit 2).
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include <proofline/groth16/json.hpp>

namespace proofline::apps {

struct OutOfFieldSignal {
  std::size_t index = 0;
  std::string value;  ///< as the file writes it
  bool negative = false;
};

/// `document` (public.json's array) with each JSON number as snarkjs reads it: JSON.parse makes it a double,
/// which its verifier takes as the integer it holds, so 7.0, 7e0 and 7.0000000000000001 are "7" and 2^53 + 1
/// is 2^53. A number that holds no integer (a fraction, or beyond a double's range: BigInt throws) is left as
/// written, for the reader to refuse.
groth16::json::Value numbers_as_javascript_reads(const groth16::json::Value& document);

/// `document` (public.json's array) with every integer outside [0, r) replaced by "0", so that the reader
/// still checks the rest of the file; `first` is set to the first such signal. `Fr` is the key's field.
template <class Fr>
groth16::json::Value without_out_of_field(const groth16::json::Value& document,
                                          std::optional<OutOfFieldSignal>& first);

}  // namespace proofline::apps
