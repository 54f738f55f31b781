// Fixed-base scalar multiplication for setup: out[i] = [s_i]·B for one base B (a generator) and many scalars.
// Every point of a known-trapdoor key is such a multiple, so this is where setup spends its time.
//
// The CPU version is windowed: with window width w it tables d·2^(w·k)·B for every window k and signed digit
// d = 1..2^(w−1) (affine), then each scalar costs ceil(256/w) mixed additions, no doublings. Results are
// made affine in blocks with one inversion each. TBB-parallel over blocks of scalars.
//
// Setup calls it through FixedBaseBackend, so the GPU kernel (cuda::fixed_base_mul_g1/g2, same semantics) can
// replace it without groth16 depending on the GPU module:
//   backend.g1 = [](const G1Affine& b, std::span<const Fr> s, std::span<G1Affine> o) {
//     cuda::fixed_base_mul_g1(b, s, o);
//   };
#pragma once

#include <functional>
#include <span>

#include <proofline/arith/curves.hpp>

namespace proofline::groth16 {

/// out[i] = [scalars[i]]·base in affine form (infinity as (0, 0)); the spans have equal sizes.
template <class Curve>
using BasicFixedBaseMulG1 =
    std::function<void(const typename Curve::G1Affine& base, std::span<const typename Curve::Fr> scalars,
                       std::span<typename Curve::G1Affine> out)>;
template <class Curve>
using BasicFixedBaseMulG2 =
    std::function<void(const typename Curve::G2Affine& base, std::span<const typename Curve::Fr> scalars,
                       std::span<typename Curve::G2Affine> out)>;
using FixedBaseMulG1 = BasicFixedBaseMulG1<Bls12_381>;
using FixedBaseMulG2 = BasicFixedBaseMulG2<Bls12_381>;

/// Which fixed-base multiplication setup uses on `Curve`; an empty member means the CPU one below.
template <class Curve>
struct BasicFixedBaseBackend {
  BasicFixedBaseMulG1<Curve> g1;
  BasicFixedBaseMulG2<Curve> g2;
};
using FixedBaseBackend = BasicFixedBaseBackend<Bls12_381>;

/// The window width the CPU version picks for `count` scalars: the table (2^(w−1) points per window) stays
/// small next to the work, and w <= 16 bounds its memory (100 MB for G2).
unsigned fixed_base_window_bits(std::size_t count) noexcept;

/// CPU windowed fixed-base multiplication. window_bits: 2..20, 0 picks fixed_base_window_bits(count). Throws
/// Error(invalid_argument) for spans of different sizes or a window width out of range.
void cpu_fixed_base_mul(const G1Affine& base, std::span<const Fr> scalars, std::span<G1Affine> out,
                        unsigned window_bits = 0);
void cpu_fixed_base_mul(const G2Affine& base, std::span<const Fr> scalars, std::span<G2Affine> out,
                        unsigned window_bits = 0);
void cpu_fixed_base_mul(const bn254::G1Affine& base, std::span<const bn254::Fr> scalars,
                        std::span<bn254::G1Affine> out, unsigned window_bits = 0);
void cpu_fixed_base_mul(const bn254::G2Affine& base, std::span<const bn254::Fr> scalars,
                        std::span<bn254::G2Affine> out, unsigned window_bits = 0);

}  // namespace proofline::groth16
