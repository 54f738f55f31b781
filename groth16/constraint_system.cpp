#include <proofline/groth16/constraint_system.hpp>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <limits>
#include <string>

namespace proofline::groth16 {

namespace {

// Rows per task: large enough that the scheduling cost vanishes next to a few thousand multiplications,
// small enough to balance rows of uneven length.
constexpr std::size_t row_grain = 4096;
constexpr std::size_t value_grain = 1 << 16;

/// (M·z)_row. Coefficients of one are common (bit decompositions, copies) and cost a comparison instead of a
/// multiplication.
template <class F>
inline F row_dot(const std::uint64_t* offsets, const std::uint32_t* columns, const F* values, const F* z,
                 std::size_t row) {
  F acc = F::zero();
  const F one = F::one();
  for (std::uint64_t k = offsets[row]; k < offsets[row + 1]; ++k) {
    const F& coefficient = values[k];
    const F& variable = z[columns[k]];
    acc += coefficient == one ? variable : coefficient * variable;
  }
  return acc;
}

template <class Curve>
struct MatrixPointers {
  using F = typename Curve::Fr;
  const std::uint64_t* offsets;
  const std::uint32_t* columns;
  const F* values;

  explicit MatrixPointers(const BasicCsrMatrix<Curve>& m)
      : offsets(m.row_offsets.data()), columns(m.columns.data()), values(m.values.data()) {}
  F dot(const F* z, std::size_t row) const { return row_dot(offsets, columns, values, z, row); }
};

template <class Curve>
void check_z(const BasicConstraintSystem<Curve>& cs, std::span<const typename Curve::Fr> z, const char* who) {
  if (z.size() != cs.num_variables)
    throw Error(Errc::invalid_argument, std::string(who) + ": the witness has " + std::to_string(z.size()) +
                                            " values for a system of " + std::to_string(cs.num_variables) +
                                            " variables");
}

[[noreturn]] void fail(Errc code, std::string_view context, const std::string& what) {
  throw Error(code, std::string(context) + ": " + what);
}

template <class Curve>
void validate_matrix(const BasicCsrMatrix<Curve>& m, const char* name, std::uint64_t rows,
                     std::uint64_t num_variables, Errc code, std::string_view context, bool check_values) {
  const std::string label = std::string("matrix ") + name;
  if (m.row_offsets.empty()) fail(code, context, label + " has no row offsets");
  if (m.rows() != rows)
    fail(code, context,
         label + " has " + std::to_string(m.rows()) + " rows, matrix A has " + std::to_string(rows));
  if (m.values.size() != m.columns.size())
    fail(code, context,
         label + " has " + std::to_string(m.columns.size()) + " columns but " +
             std::to_string(m.values.size()) + " values");
  if (m.row_offsets[0] != 0) fail(code, context, label + ": the first row offset is not 0");
  if (m.row_offsets[rows] != m.nonzeros())
    fail(code, context,
         label + ": the last row offset is " + std::to_string(m.row_offsets[rows]) +
             ", not the nonzero count " + std::to_string(m.nonzeros()));
  const std::uint64_t* offsets = m.row_offsets.data();
  const std::uint64_t bad_row = tbb::parallel_reduce(
      tbb::blocked_range<std::uint64_t>(0, rows, value_grain), std::numeric_limits<std::uint64_t>::max(),
      [&](const tbb::blocked_range<std::uint64_t>& r, std::uint64_t found) {
        for (std::uint64_t i = r.begin(); i < r.end() && i < found; ++i)
          if (offsets[i + 1] < offsets[i]) return i;
        return found;
      },
      [](std::uint64_t x, std::uint64_t y) { return std::min(x, y); });
  if (bad_row != std::numeric_limits<std::uint64_t>::max())
    fail(code, context, label + ": the row offsets decrease at row " + std::to_string(bad_row));
  const std::uint32_t* columns = m.columns.data();
  const std::uint64_t bad_column = tbb::parallel_reduce(
      tbb::blocked_range<std::uint64_t>(0, m.nonzeros(), value_grain),
      std::numeric_limits<std::uint64_t>::max(),
      [&](const tbb::blocked_range<std::uint64_t>& r, std::uint64_t found) {
        for (std::uint64_t k = r.begin(); k < r.end() && k < found; ++k)
          if (columns[k] >= num_variables) return k;
        return found;
      },
      [](std::uint64_t x, std::uint64_t y) { return std::min(x, y); });
  if (bad_column != std::numeric_limits<std::uint64_t>::max())
    fail(code, context,
         label + ": entry " + std::to_string(bad_column) + " names variable " +
             std::to_string(columns[bad_column]) + " of " + std::to_string(num_variables));
  if (!check_values) return;
  const auto* values = m.values.data();
  const std::uint64_t bad_value = tbb::parallel_reduce(
      tbb::blocked_range<std::uint64_t>(0, m.nonzeros(), value_grain),
      std::numeric_limits<std::uint64_t>::max(),
      [&](const tbb::blocked_range<std::uint64_t>& r, std::uint64_t found) {
        for (std::uint64_t k = r.begin(); k < r.end() && k < found; ++k)
          if (!Curve::Fr::is_canonical(values[k].montgomery())) return k;
        return found;
      },
      [](std::uint64_t x, std::uint64_t y) { return std::min(x, y); });
  if (bad_value != std::numeric_limits<std::uint64_t>::max())
    fail(code, context, label + ": entry " + std::to_string(bad_value) + " is not a reduced field element");
}

}  // namespace

template <class Curve>
std::uint64_t BasicConstraintSystem<Curve>::size_bytes() const noexcept {
  const auto matrix_bytes = [](const BasicCsrMatrix<Curve>& m) {
    return m.row_offsets.size_bytes() + m.columns.size_bytes() + m.values.size_bytes();
  };
  return matrix_bytes(a) + matrix_bytes(b) + (c ? matrix_bytes(*c) : 0);
}

template <class Curve>
void validate(const BasicConstraintSystem<Curve>& cs, Errc code, std::string_view context,
              bool check_values) {
  if (cs.num_variables == 0 || cs.num_variables > (std::uint64_t{1} << 32))
    fail(code, context, "the number of variables " + std::to_string(cs.num_variables) + " is not in 1..2^32");
  if (cs.num_public >= cs.num_variables)
    fail(code, context,
         std::to_string(cs.num_public) + " public inputs do not fit in " + std::to_string(cs.num_variables) +
             " variables (z[0] = 1 comes first)");
  if (cs.a.row_offsets.empty()) fail(code, context, "matrix A has no row offsets");
  const std::uint64_t rows = cs.a.rows();
  validate_matrix(cs.a, "A", rows, cs.num_variables, code, context, check_values);
  validate_matrix(cs.b, "B", rows, cs.num_variables, code, context, check_values);
  if (cs.c) validate_matrix(*cs.c, "C", rows, cs.num_variables, code, context, check_values);
}

template <class Curve>
void check_witness_shape(const BasicConstraintSystem<Curve>& cs, std::span<const typename Curve::Fr> z) {
  check_z(cs, z, "witness");
  if (!z[0].is_one()) throw Error(Errc::invalid_argument, "witness: z[0] must be 1");
}

template <class Curve>
void evaluate(const BasicConstraintSystem<Curve>& cs, std::span<const typename Curve::Fr> z,
              std::span<typename Curve::Fr> a, std::span<typename Curve::Fr> b,
              std::span<typename Curve::Fr> c) {
  using F = typename Curve::Fr;
  using Matrix = MatrixPointers<Curve>;
  check_z(cs, z, "evaluate");
  const std::uint64_t rows = cs.num_constraints();
  if (a.size() != b.size() || a.size() != c.size() || a.size() < rows)
    throw Error(Errc::invalid_argument, "evaluate: outputs of " + std::to_string(a.size()) + ", " +
                                            std::to_string(b.size()) + ", " + std::to_string(c.size()) +
                                            " values for " + std::to_string(rows) + " rows");
  const Matrix ma(cs.a), mb(cs.b);
  const std::optional<Matrix> mc = cs.c ? std::optional<Matrix>(*cs.c) : std::nullopt;
  const F* zp = z.data();
  F* ap = a.data();
  F* bp = b.data();
  F* cp = c.data();
  const std::uint64_t total = a.size();
  // One pass over all outputs: the rows past the constraints are zero-filled by the same tasks, so the
  // first touch of a fresh pinned slot is spread over the threads as well.
  tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, total, row_grain),
                    [&](const tbb::blocked_range<std::uint64_t>& r) {
                      const std::uint64_t end = std::min<std::uint64_t>(r.end(), rows);
                      std::uint64_t i = r.begin();
                      for (; i < end; ++i) {
                        ap[i] = ma.dot(zp, i);
                        bp[i] = mb.dot(zp, i);
                        cp[i] = mc ? mc->dot(zp, i) : ap[i] * bp[i];
                      }
                      for (; i < r.end(); ++i) ap[i] = bp[i] = cp[i] = F::zero();
                    });
}

template <class Curve>
std::optional<std::uint64_t> first_unsatisfied_row(const BasicConstraintSystem<Curve>& cs,
                                                   std::span<const typename Curve::Fr> z) {
  check_z(cs, z, "first_unsatisfied_row");
  if (!cs.c) return std::nullopt;
  const MatrixPointers<Curve> ma(cs.a), mb(cs.b), mc(*cs.c);
  const auto* zp = z.data();
  constexpr std::uint64_t none = std::numeric_limits<std::uint64_t>::max();
  const std::uint64_t row = tbb::parallel_reduce(
      tbb::blocked_range<std::uint64_t>(0, cs.num_constraints(), row_grain), none,
      [&](const tbb::blocked_range<std::uint64_t>& r, std::uint64_t found) {
        for (std::uint64_t i = r.begin(); i < r.end() && i < found; ++i)
          if (ma.dot(zp, i) * mb.dot(zp, i) != mc.dot(zp, i)) return i;
        return found;
      },
      [](std::uint64_t x, std::uint64_t y) { return std::min(x, y); });
  if (row == none) return std::nullopt;
  return row;
}

namespace {

template <class F>
std::optional<std::uint64_t> first_unsatisfied_row_any(std::span<const F> a, std::span<const F> b,
                                                       std::span<const F> c) {
  if (b.size() < a.size() || c.size() < a.size())
    throw Error(Errc::invalid_argument, "first_unsatisfied_row: b and c are shorter than a");
  constexpr std::uint64_t none = std::numeric_limits<std::uint64_t>::max();
  const std::uint64_t row = tbb::parallel_reduce(
      tbb::blocked_range<std::uint64_t>(0, a.size(), row_grain), none,
      [&](const tbb::blocked_range<std::uint64_t>& r, std::uint64_t found) {
        for (std::uint64_t i = r.begin(); i < r.end() && i < found; ++i)
          if (a[i] * b[i] != c[i]) return i;
        return found;
      },
      [](std::uint64_t x, std::uint64_t y) { return std::min(x, y); });
  if (row == none) return std::nullopt;
  return row;
}

}  // namespace

std::optional<std::uint64_t> first_unsatisfied_row(std::span<const Fr> a, std::span<const Fr> b,
                                                   std::span<const Fr> c) {
  return first_unsatisfied_row_any(a, b, c);
}
std::optional<std::uint64_t> first_unsatisfied_row(std::span<const bn254::Fr> a, std::span<const bn254::Fr> b,
                                                   std::span<const bn254::Fr> c) {
  return first_unsatisfied_row_any(a, b, c);
}

#define PROOFLINE_CONSTRAINT_SYSTEM_FOR(Curve)                                                        \
  template struct BasicConstraintSystem<Curve>;                                                       \
  template void validate(const BasicConstraintSystem<Curve>&, Errc, std::string_view, bool);          \
  template void check_witness_shape(const BasicConstraintSystem<Curve>&, std::span<const Curve::Fr>); \
  template void evaluate(const BasicConstraintSystem<Curve>&, std::span<const Curve::Fr>,             \
                         std::span<Curve::Fr>, std::span<Curve::Fr>, std::span<Curve::Fr>);           \
  template std::optional<std::uint64_t> first_unsatisfied_row(const BasicConstraintSystem<Curve>&,    \
                                                              std::span<const Curve::Fr>);
PROOFLINE_CONSTRAINT_SYSTEM_FOR(Bls12_381)
PROOFLINE_CONSTRAINT_SYSTEM_FOR(Bn254)
#undef PROOFLINE_CONSTRAINT_SYSTEM_FOR

}  // namespace proofline::groth16
