// snarkjs Groth16 proving keys (.zkey, version 1) for curve bn128 (BN254) or bls12381, read into our
// BasicProvingKey (snarkjs's H convention), BasicConstraintSystem and BasicVerifyingKey of that curve:
// everything the pipeline's KeySpec needs to prove from a circom circuit's witness files. Layout
// (snarkjs/src/zkey_utils.js); the container is binfile.hpp's, all integers little-endian:
//
//   1 header:  u32 protocol (1 = Groth16)
//   2 Groth16: n8q u32 (32 or 48) | q | n8r u32 (32) | r | nVars u32 | nPublic u32 | domainSize u32 |
//              alpha1 | beta1 | beta2 | gamma2 | delta1 | delta2
//   3 IC:      (nPublic + 1) G1                       -> vk.ic
//   4 coeffs:  nCoef u32 | nCoef × { matrix u32 (0 = A, 1 = B) | constraint u32 | signal u32 | value (32 B) }
//                                                     -> cs.a, cs.b (C absent: c = a∘b)
//   5 A, 6 B1: nVars G1; 7 B2: nVars G2              -> pk.a_query, pk.b1_query, pk.b2_query
//   8 C:       (nVars − nPublic − 1) G1               -> pk.l_query
//   9 H:       domainSize G1 (odd-coset Lagrange basis) -> pk.h_query (HConvention::snarkjs)
//   10 contributions (the MPC transcript): not needed to prove, not read
//
// Points are affine, x‖y, each Fq coordinate n8q bytes little-endian in Montgomery form, G2 as
// x.c0‖x.c1‖y.c0‖y.c1, the point at infinity all zero: exactly our in-memory G1Affine / G2Affine. read_zkey
// reads each section once into a buffer of its own (binfile.hpp), never a mapping of the file: the key owns
// its points, so replacing, truncating or deleting the file while a prover uses the key changes nothing. Each
// section starts its buffer aligned, so every query is a zero-copy view into its section's bytes. parse_zkey
// over an image in memory views the sections aligned there (snarkjs's layout puts most at file offsets of 4,
// 8 or 12 mod 16) and copies the others once, in parallel (ZkeyFile reports both amounts).
//
// Coefficients are stored as coef·R² mod r (R = 2^256; zkey_new.js writeCoef). Our Fr keeps coef·R in its
// limbs, so the stored integer S becomes the element whose limbs are montmul(S, 1) = S·R⁻¹ = coef·R.
//
// Validation (every failure is Error(Errc::bad_input, "<path>: <what is wrong>")): magic, version, every
// section present once with exactly the size the header's counts give, the protocol (a PLONK or FFLONK key is
// named as such), the curve (q and r must be bn128's or BLS12-381's, and the caller's when it asks for one:
// a key of another field is refused naming it), counts that fit each other (nPublic < nVars, domainSize a
// power of two up to 2^28, every coefficient's matrix, constraint < domainSize, signal < nVars, value < r),
// and the points: the six header points always in full (reduced coordinates, on the curve, in the subgroup,
// not infinity, and δ1/δ2 and β1/β2 consistent by a pairing check), the queries as ZkeyOptions::points says.
// The full level checks each point's coordinates and curve equation, then the subgroups of whole queries at
// once and only for points not checked before (key_check.hpp: batched random combinations, a cache of checked
// keys).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string_view>
#include <variant>

#include <proofline/groth16/constraint_system.hpp>
#include <proofline/groth16/key_check.hpp>
#include <proofline/groth16/proving_key.hpp>
#include <proofline/groth16/verifying_key.hpp>

namespace proofline::groth16 {

/// How much of the query points a loader checks. All-zero points (infinity, which snarkjs writes for
/// variables that never appear in a matrix) pass every level.
enum class PointCheck {
  /// coordinates below p, on the curve (per point, TBB-parallel), in the prime-order subgroup (batched per
  /// query and remembered per key: key_check.hpp)
  full,
  on_curve,  ///< coordinates below p and on the curve (about 20 times cheaper than full)
  trusted,   ///< none: a key you made or checked before. Header points and sizes are still checked in full
};

struct ZkeyOptions {
  PointCheck points = PointCheck::full;
  /// Build the constraint system from the coefficients section (false: cs stays empty, e.g. to export a
  /// verifying key).
  bool constraint_system = true;
  /// The subgroup part of PointCheck::full: the cache of keys already checked.
  KeyCheckOptions key_check{};
};

struct ZkeyHeader {
  std::uint32_t num_variables = 0;  ///< nVars, z[0] = 1 included
  std::uint32_t num_public = 0;     ///< nPublic, not counting z[0]
  std::uint32_t domain_size = 0;
  std::uint32_t num_coefficients = 0;
  std::uint64_t num_rows = 0;  ///< rows of A and B: the constraints plus snarkjs's nPublic + 1 input rows
};

template <class Curve>
struct BasicZkeyFile {
  ZkeyHeader header;
  BasicProvingKey<Curve> pk;        ///< HConvention::snarkjs
  BasicConstraintSystem<Curve> cs;  ///< A and B, no C (c = a∘b, as snarkjs's prover computes it)
  BasicVerifyingKey<Curve> vk;      ///< alpha1, beta2, gamma2, delta2 from the header, ic from section 3
  /// Query bytes used in place, as views into the section buffers the file was read into (all of them) or
  /// into the image given to parse_zkey: no second copy. (The name predates reading: files used to be
  /// mapped.)
  std::uint64_t mapped_bytes = 0;
  std::uint64_t copied_bytes = 0;  ///< query bytes copied (sections of an image not aligned for our points)
  KeyCheckReport key_check;        ///< what the subgroup part of PointCheck::full did (nothing otherwise)
};

using ZkeyFile = BasicZkeyFile<Bls12_381>;

/// A key of the curve the file says.
using AnyZkeyFile = std::variant<BasicZkeyFile<Bls12_381>, BasicZkeyFile<Bn254>>;

/// A key of the caller's curve (BLS12-381 unless asked): a key of the other curve is refused, naming both.
template <class Curve = Bls12_381>
BasicZkeyFile<Curve> read_zkey(const std::filesystem::path& path, const ZkeyOptions& options = {});

/// A key of whichever curve the file's header names (bn128 or bls12381).
AnyZkeyFile read_any_zkey(const std::filesystem::path& path, const ZkeyOptions& options = {});

/// A verifying key of either curve.
using AnyVerifyingKey = std::variant<BasicVerifyingKey<Bls12_381>, BasicVerifyingKey<Bn254>>;

/// The verifying key of a key of either curve, as `snarkjs zkey export verificationkey` gives it, reading
/// only the file's header sections (1-3): cheap whatever the key's size. The header is checked as read_zkey
/// checks it, and the section table whole, but no query point is read.
AnyVerifyingKey read_zkey_verifying_key(const std::filesystem::path& path);

/// The same over an image in memory (fuzzers, tests). With an `owner`, aligned sections become views that
/// keep it alive; without one everything is copied. `name` stands for the path in messages.
template <class Curve = Bls12_381>
BasicZkeyFile<Curve> parse_zkey(std::shared_ptr<const void> owner, std::span<const std::byte> image,
                                std::string_view name, const ZkeyOptions& options = {});

/// parse_zkey for a key of whichever curve the image's header names.
AnyZkeyFile parse_any_zkey(std::shared_ptr<const void> owner, std::span<const std::byte> image,
                           std::string_view name, const ZkeyOptions& options = {});

/// The coefficient encoding in both directions (exposed for tests and writers of zkeys): the element whose
/// value is stored·R⁻² mod r, and the stored integer of an element. `stored` must be below r.
template <class F = Fr>
F zkey_coefficient_from_stored(const BigInt<4>& stored);
template <class F>
BigInt<4> zkey_coefficient_to_stored(const F& coefficient);

}  // namespace proofline::groth16
