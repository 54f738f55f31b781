// R1CS in CSR form (the pre-compiled constraint evaluator, PCE): the three matrices A, B, C whose rows are
// the QAP's evaluation points and whose columns are the witness variables, and its evaluation a = A·z, b =
// B·z, c = C·z straight into caller-provided memory (the pipeline's pinned slots).
//
// Witness layout (snarkjs's and bellman's): z[0] = 1, z[1..num_public] are the public inputs, the rest are
// private. A row i is satisfied when (A·z)_i · (B·z)_i = (C·z)_i.
//
// Rows are everything the QAP sees, including the "input rows" that setups append so that the public-input
// polynomials are linearly independent (snarkjs appends A-rows {row m+s: z_s} for s = 0..num_public with B =
// C = 0; the synthetic generator does the same). A proving key's domain must hold every row.
//
// C may be absent: snarkjs zkeys store only A and B, since for a satisfying witness c_i = a_i·b_i on every
// row. Without C, evaluate() writes c = a∘b (pointwise), which is exactly what snarkjs's prover does, and
// every row counts as satisfied (there is nothing to check it against; check the .r1cs instead).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include <proofline/arith/curves.hpp>
#include <proofline/groth16/fwd.hpp>
#include <proofline/groth16/shared_array.hpp>
#include <proofline/util/error.hpp>

namespace proofline::groth16 {

/// Compressed sparse rows: row i holds the entries [row_offsets[i], row_offsets[i + 1]) of columns and
/// values. Values are Fr elements (Montgomery form, as everywhere in our code); columns are variable indices.
template <class Curve>
struct BasicCsrMatrix {
  SharedArray<std::uint64_t> row_offsets;  ///< rows + 1 entries, starting at 0, non-decreasing
  SharedArray<std::uint32_t> columns;      ///< one per nonzero, < num_variables
  SharedArray<typename Curve::Fr> values;  ///< one per nonzero

  std::uint64_t rows() const noexcept { return row_offsets.empty() ? 0 : row_offsets.size() - 1; }
  std::uint64_t nonzeros() const noexcept { return columns.size(); }
};

template <class Curve>
struct BasicConstraintSystem {
  using CsrMatrix = BasicCsrMatrix<Curve>;

  std::uint64_t num_variables = 0;  ///< witness length, z[0] = 1 included (at most 2^32: u32 columns)
  std::uint64_t num_public = 0;     ///< public inputs z[1..num_public], not counting z[0]
  CsrMatrix a;
  CsrMatrix b;
  std::optional<CsrMatrix> c;  ///< absent: c = a∘b (see above)

  /// Rows of the matrices (constraints plus any input rows).
  std::uint64_t num_constraints() const noexcept { return a.rows(); }
  std::uint64_t nonzeros() const noexcept { return a.nonzeros() + b.nonzeros() + (c ? c->nonzeros() : 0); }
  /// Bytes of the CSR arrays (what a resident PCE occupies).
  std::uint64_t size_bytes() const noexcept;
};

using CsrMatrix = BasicCsrMatrix<Bls12_381>;

/// Checks the structure: num_public < num_variables <= 2^32, equal row counts, offsets that start at 0, never
/// decrease and end at the nonzero count, as many values as columns, every column < num_variables. Values
/// are checked to be canonical Fr elements when `check_values` is set. O(rows + nonzeros), TBB-parallel.
/// Throws Error(code, "<context>: <what is wrong>").
template <class Curve>
void validate(const BasicConstraintSystem<Curve>& cs, Errc code = Errc::invalid_argument,
              std::string_view context = "constraint system", bool check_values = true);

/// Throws Error(invalid_argument) unless z has num_variables elements and z[0] = 1.
template <class Curve>
void check_witness_shape(const BasicConstraintSystem<Curve>& cs, std::span<const typename Curve::Fr> z);

/// The public inputs z[1..num_public] of a witness.
inline std::span<const Fr> public_inputs(std::span<const Fr> z, std::uint64_t num_public) {
  return z.subspan(1, num_public);
}
inline std::span<const bn254::Fr> public_inputs(std::span<const bn254::Fr> z, std::uint64_t num_public) {
  return z.subspan(1, num_public);
}

/// a = A·z, b = B·z, c = C·z (c = a∘b without C) for every row; entries from num_constraints() on are set to
/// zero. a, b, c must have the same size, at least num_constraints() (normally the domain size), and must
/// not overlap z or each other. TBB-parallel over blocks of rows, streaming the matrices and the outputs in
/// order; it allocates nothing. Throws Error(invalid_argument) for a wrong z size or short outputs (the
/// structure of cs is trusted: validate() it once when it comes from outside).
template <class Curve>
void evaluate(const BasicConstraintSystem<Curve>& cs, std::span<const typename Curve::Fr> z,
              std::span<typename Curve::Fr> a, std::span<typename Curve::Fr> b,
              std::span<typename Curve::Fr> c);

/// The lowest row i with (A·z)_i·(B·z)_i != (C·z)_i, or nullopt if every row holds (always nullopt without
/// C). Throws like evaluate for a wrong z size.
template <class Curve>
std::optional<std::uint64_t> first_unsatisfied_row(const BasicConstraintSystem<Curve>& cs,
                                                   std::span<const typename Curve::Fr> z);

/// The same over vectors already evaluated (a = A·z, b = B·z, c = C·z): the lowest i < a.size() with
/// a_i·b_i != c_i, or nullopt. b and c hold at least a.size() values. TBB-parallel.
std::optional<std::uint64_t> first_unsatisfied_row(std::span<const Fr> a, std::span<const Fr> b,
                                                   std::span<const Fr> c);
std::optional<std::uint64_t> first_unsatisfied_row(std::span<const bn254::Fr> a, std::span<const bn254::Fr> b,
                                                   std::span<const bn254::Fr> c);

template <class Curve>
bool is_satisfied(const BasicConstraintSystem<Curve>& cs, std::span<const typename Curve::Fr> z) {
  return !first_unsatisfied_row(cs, z).has_value();
}

}  // namespace proofline::groth16
