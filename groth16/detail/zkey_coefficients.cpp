#include <proofline/groth16/detail/zkey_coefficients.hpp>

#include <algorithm>
#include <limits>
#include <memory>
#include <span>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <proofline/groth16/detail/large_memory.hpp>
#include <proofline/groth16/detail/le_bytes.hpp>
#include <proofline/groth16/zkey.hpp>

namespace proofline::groth16::detail {

namespace {

// Entries per parallel task: each costs a few field multiplications at most.
constexpr std::size_t entry_grain = 8192;
constexpr std::uint64_t none = std::numeric_limits<std::uint64_t>::max();

struct Entry {
  std::uint32_t matrix, row, column;
  const std::byte* value;
};

Entry entry_at(std::span<const std::byte> entries, std::uint64_t i) {
  const std::byte* p = entries.data() + i * zkey_coefficient_bytes;
  return Entry{load_u32(p), load_u32(p + 4), load_u32(p + 8), p + 12};
}

/// Why an entry breaks the limits, or nothing (no allocation then: this runs for every entry).
template <class Fr>
std::optional<std::string> problem_of(const Entry& e, const ZkeyCoefficientLimits& limits) {
  if (e.matrix > 1) return "matrix " + std::to_string(e.matrix) + " (only 0 = A and 1 = B exist)";
  if (e.row >= limits.rows)
    return "constraint " + std::to_string(e.row) +
           " is not below domainSize = " + std::to_string(limits.rows);
  if (e.column >= limits.columns)
    return "signal " + std::to_string(e.column) + " is not below nVars = " + std::to_string(limits.columns);
  if (!Fr::is_canonical(load_bigint<4>(e.value))) return std::string("the value is not below r");
  return std::nullopt;
}

/// A shared view of the vector's elements, which it keeps alive (no copy).
template <class T>
SharedArray<T> share(LargeVector<T>&& owned) {
  auto holder = std::make_shared<const LargeVector<T>>(std::move(owned));
  return SharedArray<T>(std::span<const T>(holder->data(), holder->size()), holder);
}

struct ScanPart {
  std::uint64_t first_bad = none;
  std::uint64_t rows = 0;
};

}  // namespace

template <class Curve>
ZkeyCoefficientScan scan_zkey_coefficients(std::span<const std::byte> entries,
                                           const ZkeyCoefficientLimits& limits) {
  using Fr = typename Curve::Fr;
  const std::uint64_t n = entries.size() / zkey_coefficient_bytes;
  const ScanPart total = tbb::parallel_reduce(
      tbb::blocked_range<std::uint64_t>(0, n, entry_grain), ScanPart{},
      [&](const tbb::blocked_range<std::uint64_t>& r, ScanPart part) {
        for (std::uint64_t i = r.begin(); i < r.end() && i < part.first_bad; ++i) {
          const Entry e = entry_at(entries, i);
          if (problem_of<Fr>(e, limits)) {
            part.first_bad = i;
            break;
          }
          part.rows = std::max<std::uint64_t>(part.rows, std::uint64_t{e.row} + 1);
        }
        return part;
      },
      [](const ScanPart& x, const ScanPart& y) {
        return ScanPart{std::min(x.first_bad, y.first_bad), std::max(x.rows, y.rows)};
      });
  ZkeyCoefficientScan scan;
  scan.rows = total.rows;
  if (total.first_bad != none)
    scan.problem =
        ZkeyCoefficientProblem{total.first_bad, *problem_of<Fr>(entry_at(entries, total.first_bad), limits)};
  return scan;
}

template <class Curve>
std::pair<BasicCsrMatrix<Curve>, BasicCsrMatrix<Curve>> zkey_coefficient_matrices(
    std::span<const std::byte> entries, std::uint64_t rows) {
  using Fr = typename Curve::Fr;
  const std::uint64_t n = entries.size() / zkey_coefficient_bytes;
  // A counting sort by row that keeps the file's order within a row: counts, offsets, then each entry's
  // place, sequentially (cheap); the values, which cost field multiplications, are converted in parallel.
  LargeVector<std::uint64_t> offsets[2] = {LargeVector<std::uint64_t>(rows + 1, 0),
                                           LargeVector<std::uint64_t>(rows + 1, 0)};
  for (std::uint64_t i = 0; i < n; ++i) {
    const Entry e = entry_at(entries, i);
    ++offsets[e.matrix][e.row + 1];
  }
  for (auto& o : offsets)
    for (std::uint64_t row = 0; row < rows; ++row) o[row + 1] += o[row];
  LargeVector<std::uint32_t> columns[2] = {LargeVector<std::uint32_t>(offsets[0][rows]),
                                           LargeVector<std::uint32_t>(offsets[1][rows])};
  LargeVector<std::uint64_t> source[2] = {LargeVector<std::uint64_t>(offsets[0][rows]),
                                          LargeVector<std::uint64_t>(offsets[1][rows])};
  {
    LargeVector<std::uint64_t> next[2] = {offsets[0], offsets[1]};
    for (std::uint64_t i = 0; i < n; ++i) {
      const Entry e = entry_at(entries, i);
      const std::uint64_t at = next[e.matrix][e.row]++;
      columns[e.matrix][at] = e.column;
      source[e.matrix][at] = i;
    }
  }
  LargeVector<Fr> values[2] = {LargeVector<Fr>(offsets[0][rows]), LargeVector<Fr>(offsets[1][rows])};
  for (int m = 0; m < 2; ++m)
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, values[m].size(), entry_grain),
                      [&](const tbb::blocked_range<std::size_t>& r) {
                        for (std::size_t at = r.begin(); at < r.end(); ++at)
                          values[m][at] = zkey_coefficient_from_stored<Fr>(
                              load_bigint<4>(entry_at(entries, source[m][at]).value));
                      });
  const auto take = [&](int m) {
    return BasicCsrMatrix<Curve>{share(std::move(offsets[m])), share(std::move(columns[m])),
                                 share(std::move(values[m]))};
  };
  return {take(0), take(1)};
}

#define PROOFLINE_ZKEY_COEFFICIENTS_FOR(Curve)                                                       \
  template ZkeyCoefficientScan scan_zkey_coefficients<Curve>(std::span<const std::byte>,             \
                                                             const ZkeyCoefficientLimits&);          \
  template std::pair<BasicCsrMatrix<Curve>, BasicCsrMatrix<Curve>> zkey_coefficient_matrices<Curve>( \
      std::span<const std::byte>, std::uint64_t);
PROOFLINE_ZKEY_COEFFICIENTS_FOR(Bls12_381)
PROOFLINE_ZKEY_COEFFICIENTS_FOR(Bn254)
#undef PROOFLINE_ZKEY_COEFFICIENTS_FOR

}  // namespace proofline::groth16::detail
