// Builds a ConstraintSystem one constraint at a time: hand-written test systems, and readers of constraint
// formats that arrive row by row (circom's .r1cs). Large generated systems (synthetic.hpp) fill the CSR
// arrays directly instead.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>
#include <vector>

#include <proofline/arith/fr.hpp>
#include <proofline/groth16/constraint_system.hpp>

namespace proofline::groth16 {

/// coefficient · z[variable].
struct Term {
  std::uint32_t variable = 0;
  Fr coefficient = Fr::one();
};

class ConstraintSystemBuilder {
 public:
  /// `with_c`: whether the system keeps a C matrix (false: C is dropped and c = a∘b, like a snarkjs zkey).
  ConstraintSystemBuilder(std::uint64_t num_variables, std::uint64_t num_public, bool with_c = true);

  /// Appends the row (Σ a)·(Σ b) = (Σ c). Terms are stored as given (repeated variables are not merged).
  /// Throws Error(invalid_argument) for a variable >= num_variables, or for C terms when the system has no C.
  void add(std::span<const Term> a, std::span<const Term> b, std::span<const Term> c);
  void add(std::initializer_list<Term> a, std::initializer_list<Term> b, std::initializer_list<Term> c) {
    add(std::span<const Term>(a.begin(), a.size()), std::span<const Term>(b.begin(), b.size()),
        std::span<const Term>(c.begin(), c.size()));
  }

  /// Appends the input rows setups use (snarkjs's and bellman's): A = z[s], B = C = 0 for s = 0..num_public,
  /// which make the public-input polynomials linearly independent.
  void add_input_rows();

  std::uint64_t rows() const noexcept { return a_.offsets.size() - 1; }

  /// The system so far (validated); the builder is left empty.
  ConstraintSystem build();

 private:
  struct Matrix {
    std::vector<std::uint64_t> offsets{0};
    std::vector<std::uint32_t> columns;
    std::vector<Fr> values;
    void append(std::span<const Term> terms);
    CsrMatrix take();
  };

  void check(std::span<const Term> terms, const char* name) const;

  std::uint64_t num_variables_;
  std::uint64_t num_public_;
  bool with_c_;
  Matrix a_, b_, c_;
};

}  // namespace proofline::groth16
