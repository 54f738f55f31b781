// The coefficients section's parallel reader (groth16/detail/zkey_coefficients.hpp) against a plain
// sequential counting sort: the same A and B, entry for entry, on sections large enough for many parallel
// tasks, and the lowest bad entry named whatever the schedule.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include <proofline/arith/random.hpp>
#include <proofline/groth16/detail/le_bytes.hpp>
#include <proofline/groth16/detail/zkey_coefficients.hpp>
#include <proofline/groth16/zkey.hpp>

using namespace proofline;
using namespace proofline::groth16;
using namespace proofline::groth16::detail;

namespace {

struct Entry {
  std::uint32_t matrix, row, column;
  Fr value;
};

std::vector<Entry> random_entries(std::size_t count, std::uint32_t rows, std::uint32_t columns,
                                  std::mt19937_64& rng) {
  std::vector<Entry> out(count);
  for (Entry& e : out)
    e = Entry{static_cast<std::uint32_t>(rng() % 2), static_cast<std::uint32_t>(rng() % rows),
              static_cast<std::uint32_t>(rng() % columns), random_field<Fr>(rng)};
  return out;
}

std::vector<std::byte> encode(const std::vector<Entry>& entries) {
  std::vector<std::byte> out(entries.size() * zkey_coefficient_bytes);
  for (std::size_t i = 0; i < entries.size(); ++i) {
    std::byte* p = out.data() + i * zkey_coefficient_bytes;
    store_u32(p, entries[i].matrix);
    store_u32(p + 4, entries[i].row);
    store_u32(p + 8, entries[i].column);
    store_bigint(p + 12, zkey_coefficient_to_stored(entries[i].value));
  }
  return out;
}

/// The reader this one replaced: one entry after another, a counting sort by row in the file's order.
CsrMatrix sequential_matrix(const std::vector<Entry>& entries, std::uint32_t matrix, std::uint64_t rows) {
  std::vector<std::uint64_t> offsets(rows + 1, 0);
  for (const Entry& e : entries)
    if (e.matrix == matrix) ++offsets[e.row + 1];
  for (std::uint64_t r = 0; r < rows; ++r) offsets[r + 1] += offsets[r];
  std::vector<std::uint32_t> columns(offsets[rows]);
  std::vector<Fr> values(offsets[rows]);
  std::vector<std::uint64_t> next(offsets.begin(), offsets.end() - 1);
  for (const Entry& e : entries) {
    if (e.matrix != matrix) continue;
    const std::uint64_t at = next[e.row]++;
    columns[at] = e.column;
    values[at] = e.value;
  }
  return CsrMatrix{SharedArray<std::uint64_t>(std::move(offsets)),
                   SharedArray<std::uint32_t>(std::move(columns)), SharedArray<Fr>(std::move(values))};
}

void check_equal(const CsrMatrix& got, const CsrMatrix& want) {
  REQUIRE(got.rows() == want.rows());
  CHECK(std::equal(got.row_offsets.begin(), got.row_offsets.end(), want.row_offsets.begin()));
  CHECK(std::equal(got.columns.begin(), got.columns.end(), want.columns.begin(), want.columns.end()));
  CHECK(std::equal(got.values.begin(), got.values.end(), want.values.begin(), want.values.end()));
}

}  // namespace

TEST_CASE("groth16/zkey coefficients/the parallel reader builds the sequential reader's A and B") {
  std::mt19937_64 rng(11);
  // Rows beyond the last used one do not exist: the matrices end at the highest constraint + 1.
  for (const std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{1000}, std::size_t{100000}}) {
    CAPTURE(count);
    const std::vector<Entry> entries = random_entries(count, 5000, 3000, rng);
    const std::vector<std::byte> bytes = encode(entries);
    const ZkeyCoefficientScan scan =
        scan_zkey_coefficients<Bls12_381>(bytes, ZkeyCoefficientLimits{8192, 3000});
    REQUIRE_FALSE(scan.problem.has_value());
    std::uint64_t rows = 0;
    for (const Entry& e : entries) rows = std::max<std::uint64_t>(rows, std::uint64_t{e.row} + 1);
    CHECK(scan.rows == rows);
    const auto [a, b] = zkey_coefficient_matrices<Bls12_381>(bytes, scan.rows);
    check_equal(a, sequential_matrix(entries, 0, rows));
    check_equal(b, sequential_matrix(entries, 1, rows));
  }
}

TEST_CASE("groth16/zkey coefficients/the lowest bad entry is named whatever the schedule") {
  std::mt19937_64 rng(12);
  std::vector<Entry> entries = random_entries(200000, 4096, 1000, rng);
  const ZkeyCoefficientLimits limits{4096, 1000};
  std::vector<std::byte> bytes = encode(entries);
  // Bad entries far apart (other tasks) and the lowest one last in the file's second half.
  store_u32(bytes.data() + 190000 * zkey_coefficient_bytes + 8, 1000);
  store_u32(bytes.data() + 150001 * zkey_coefficient_bytes, 7);
  store_u32(bytes.data() + 120003 * zkey_coefficient_bytes + 4, 4096);
  for (int run = 0; run < 5; ++run) {
    const ZkeyCoefficientScan scan = scan_zkey_coefficients<Bls12_381>(bytes, limits);
    REQUIRE(scan.problem.has_value());
    CHECK(scan.problem->index == 120003);
    CHECK(scan.problem->what == "constraint 4096 is not below domainSize = 4096");
  }
  store_bigint(bytes.data() + 5 * zkey_coefficient_bytes + 12, Fr::modulus);
  const ZkeyCoefficientScan scan = scan_zkey_coefficients<Bls12_381>(bytes, limits);
  REQUIRE(scan.problem.has_value());
  CHECK(scan.problem->index == 5);
  CHECK(scan.problem->what == "the value is not below r");
}

TEST_CASE("groth16/zkey coefficients/BN254 values are checked against BN254's r") {
  std::mt19937_64 rng(13);
  std::vector<std::byte> bytes(zkey_coefficient_bytes);
  store_u32(bytes.data() + 4, 3);
  store_bigint(bytes.data() + 12, bn254::Fr::modulus);
  const ZkeyCoefficientScan bad = scan_zkey_coefficients<Bn254>(bytes, ZkeyCoefficientLimits{4, 4});
  REQUIRE(bad.problem.has_value());
  CHECK(bad.problem->what == "the value is not below r");
  const bn254::Fr value = random_field<bn254::Fr>(rng);
  store_bigint(bytes.data() + 12, zkey_coefficient_to_stored(value));
  const ZkeyCoefficientScan good = scan_zkey_coefficients<Bn254>(bytes, ZkeyCoefficientLimits{4, 4});
  REQUIRE_FALSE(good.problem.has_value());
  CHECK(good.rows == 4);
  const auto [a, b] = zkey_coefficient_matrices<Bn254>(bytes, good.rows);
  CHECK(a.nonzeros() == 1);
  CHECK(b.nonzeros() == 0);
  CHECK(a.values[0] == value);
}
