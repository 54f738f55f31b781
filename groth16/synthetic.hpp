// Synthetic circuits: satisfiable R1CS systems with known witnesses at any size (2^1 .. 2^28 rows),
// deterministic from a seed and shaped like real proving workloads, for tests and benchmarks.
//
// Shape: about 3 nonzeros per row across A, B and C (3.04 on average with the default mix), and a witness
// whose private variables are 20 % zeros, 50 % ones (bits) and 30 % full-width values (configurable). Public
// inputs are full width. By default the system fills the domain exactly: 2^log_size − num_public − 1
// constraints, then the num_public + 1 input rows (A = z_s, B = C = 0) that snarkjs-style and bellman-style
// setups need, so constraints + num_public + 1 = n.
//
// How satisfiability is achieved without solving anything. Private variable o = num_public + 1 + i belongs to
// constraint row i, and its type (zero, one, free or derived) is a hash of (seed, o):
//   zero:    (a·z_p) · (z_q)   = z_o   with q a zero-type variable (or B empty), so z_o = 0
//   one:     (z_p)   · (z_q)   = z_o   with p, q one-type variables (or z_0 = 1), so z_o = 1
//   free:    (z_o)   · (z_0)   = z_o   holds for any value: z_o is a free input, drawn from the witness seed
//   derived: (a·z_p [+ a'·z_p']) · (z_q) = z_o   with p, p', q free, public or one-type, a, a' random full
//            width: z_o is computed from values that are already known.
// Zero, one and free values never depend on other rows, and derived values depend only on them, so the whole
// witness comes from two parallel passes, and a different witness seed gives another valid witness of the
// same circuit (different publics and free inputs). Constraint rows are generated per block of rows from
// counter-based hashes, so the output is the same for any thread count. Full-width values (free and derived)
// are split evenly by default. The circuit is the same on either curve (arith/curves.hpp): the same structure
// and types from the same seeds, its coefficients and values drawn in that curve's Fr.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <proofline/arith/curves.hpp>
#include <proofline/groth16/constraint_system.hpp>

namespace proofline::groth16 {

/// Fractions of the private variables; the rest are full width.
struct WitnessMix {
  double zeros = 0.20;
  double ones = 0.50;
};

struct SyntheticOptions {
  unsigned log_size = 12;         ///< the domain 2^log_size the system is made for (1..28)
  std::uint64_t constraints = 0;  ///< 0: fill the domain, 2^log_size − num_public − 1
  std::uint64_t num_public = 1;
  WitnessMix mix{};
  double free_fraction = 0.5;      ///< share of the full-width private variables that are free inputs
  std::uint64_t seed = 1;          ///< the circuit (structure, coefficients, variable types)
  std::uint64_t witness_seed = 1;  ///< public inputs and free variables
};

template <class Curve>
struct BasicSyntheticCircuit {
  SyntheticOptions options{};
  BasicConstraintSystem<Curve> cs{};
  std::vector<typename Curve::Fr> witness{};  ///< for options.witness_seed
};
using SyntheticCircuit = BasicSyntheticCircuit<Bls12_381>;

/// Throws Error(invalid_argument) for a mix outside [0, 1], a domain outside 1..28, or constraints plus
/// input rows that do not fit the domain.
template <class Curve = Bls12_381>
BasicSyntheticCircuit<Curve> make_synthetic_circuit(const SyntheticOptions& options);

/// The number of constraint rows (options.constraints, or the domain's fill).
std::uint64_t synthetic_constraints(const SyntheticOptions& options);

/// Another witness of the circuit `options` describes (options.witness_seed is ignored): writes z into `out`
/// (num_variables elements, e.g. a pinned slot). cs must be that circuit's system.
template <class Curve>
void synthetic_witness_into(const BasicConstraintSystem<Curve>& cs, const SyntheticOptions& options,
                            std::uint64_t witness_seed, std::span<typename Curve::Fr> out);
template <class Curve>
std::vector<typename Curve::Fr> synthetic_witness(const BasicConstraintSystem<Curve>& cs,
                                                  const SyntheticOptions& options,
                                                  std::uint64_t witness_seed);

/// A file-name-safe name of the circuit (not the witness), e.g. "synthetic-n12-c4094-p1-s1-z200-o500-f500".
std::string synthetic_circuit_name(const SyntheticOptions& options);

}  // namespace proofline::groth16
