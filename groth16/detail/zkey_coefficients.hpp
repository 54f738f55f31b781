// Internal: the coefficients section of a snarkjs .zkey (zkey.hpp) checked and sorted into A and B in CSR
// form. Each entry is { matrix u32 | constraint u32 | signal u32 | value (32 bytes, coef·R² mod r) }.
//
// The checks and the value conversions run in parallel (a key of 2^20 constraints has millions of entries);
// only the counting sort's placement, a few integer operations per entry, stays sequential, so the matrices
// keep the file's order within a row exactly as a sequential reader builds them. A bad entry is reported by
// its lowest index, whatever the schedule.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>

#include <proofline/groth16/constraint_system.hpp>

namespace proofline::groth16::detail {

/// Bytes per entry of the coefficients section.
inline constexpr std::uint64_t zkey_coefficient_bytes = 12 + 32;

struct ZkeyCoefficientLimits {
  std::uint64_t rows = 0;     ///< domainSize: every constraint index is below it
  std::uint64_t columns = 0;  ///< nVars: every signal index is below it
};

/// The lowest entry that breaks a limit, with why ("matrix 2 (only 0 = A and 1 = B exist)").
struct ZkeyCoefficientProblem {
  std::uint64_t index = 0;
  std::string what;
};

struct ZkeyCoefficientScan {
  std::uint64_t rows = 0;  ///< one past the highest constraint index (0 without entries)
  std::optional<ZkeyCoefficientProblem> problem;
};

/// Checks every entry (matrix 0 or 1, constraint and signal below their limits, value below r) and finds the
/// rows used. `entries` holds whole entries.
template <class Curve>
ZkeyCoefficientScan scan_zkey_coefficients(std::span<const std::byte> entries,
                                           const ZkeyCoefficientLimits& limits);

/// A and B from entries that passed the scan, `rows` rows each.
template <class Curve>
std::pair<BasicCsrMatrix<Curve>, BasicCsrMatrix<Curve>> zkey_coefficient_matrices(
    std::span<const std::byte> entries, std::uint64_t rows);

}  // namespace proofline::groth16::detail
