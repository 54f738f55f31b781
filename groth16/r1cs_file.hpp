// circom's constraint files (.r1cs, version 1; r1csfile/src/r1csfile.js) read into our ConstraintSystem. All
// integers little-endian; the container is binfile.hpp's.
//
//   section 1, header: n8 u32 | prime (n8 bytes) | nWires u32 | nPubOut u32 | nPubIn u32 | nPrvIn u32 |
//                      nLabels u64 | nConstraints u32
//   section 2, constraints: nConstraints × three linear combinations A, B, C, each
//                      nTerms u32 | nTerms × { wireId u32 | coefficient (n8 bytes, canonical, below r) }
//   section 3, wire-to-label map: nWires × u64 (checked for its size only; required with
//                      R1csOptions::snarkjs_input_rows, since it is what bounds nWires by the file's size)
//   sections 4, 5: custom gates (PLONK only): refused
//
// A constraint holds when <A, w>·<B, w> = <C, w>; wire 0 is the constant 1, then the public outputs, the
// public inputs and the rest, so num_public = nPubOut + nPubIn (snarkjs's nPublic). Every failure is
// Error(Errc::bad_input, "<path>: <what is wrong>"): wrong magic or version, truncation, a prime other than
// bn128's or BLS12-381's r (another field is named), a wire out of range, a coefficient not below r.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string_view>

#include <proofline/groth16/constraint_system.hpp>

namespace proofline::groth16 {

struct R1csHeader {
  std::uint32_t num_wires = 0;  ///< nVars: witness length, wire 0 included
  std::uint32_t num_public_outputs = 0;
  std::uint32_t num_public_inputs = 0;
  std::uint32_t num_private_inputs = 0;
  std::uint64_t num_labels = 0;
  std::uint32_t num_constraints = 0;
  CurveId curve = CurveId::bls12_381;  ///< the curve whose scalar field the file's prime is

  std::uint64_t num_public() const noexcept { return std::uint64_t{num_public_outputs} + num_public_inputs; }
};

struct R1csOptions {
  /// Append snarkjs's input rows after the constraints: one A-row {s: 1} for every s = 0..num_public, B = C =
  /// 0. `groth16 setup` adds exactly these to make the public-input polynomials independent, so with this set
  /// the A and B matrices equal the ones a .zkey's coefficient section holds (read_zkey), row for row.
  bool snarkjs_input_rows = false;
};

template <class Curve>
struct BasicR1csFile {
  R1csHeader header;
  BasicConstraintSystem<Curve> cs;  ///< A, B and C, num_variables = nWires, num_public = nPubOut + nPubIn
};

using R1csFile = BasicR1csFile<Bls12_381>;

/// The circuit of the caller's curve (BLS12-381 unless asked); a circuit over the other curve's field is
/// refused, naming both.
template <class Curve = Bls12_381>
BasicR1csFile<Curve> read_r1cs(const std::filesystem::path& path, const R1csOptions& options = {});

/// The curve whose scalar field the circuit is over (reads and checks the header only).
CurveId r1cs_curve(const std::filesystem::path& path);

/// The same from a file image in memory (fuzzers, tests); `name` stands for the path in messages.
template <class Curve = Bls12_381>
BasicR1csFile<Curve> parse_r1cs(std::span<const std::byte> image, std::string_view name,
                                const R1csOptions& options = {});

}  // namespace proofline::groth16
