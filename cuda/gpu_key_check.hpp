// Subgroup membership of a proving key's points on the GPU, for the full check of a key that is loaded on a
// machine with one. Every point is tested exactly, one thread a point: BLS12-381's G1 and G2 by the
// endomorphism tests of arith/g1.hpp and arith/g2.hpp (a multiplication by the curve parameter, a few dozen
// doublings), BN254's G2 by [r]P = O; BN254's G1 has cofactor 1, so every point on its curve is in it. A
// 2^20-point query takes milliseconds where the CPU's batched check takes seconds.
#pragma once

#include <cstddef>
#include <optional>
#include <span>

#include <proofline/arith/curves.hpp>

namespace proofline::cuda {

/// The index of the first point of `points` outside its group's prime-order subgroup, or nullopt. The points
/// must be on their curve (the key readers check that first; infinity, the all-zero encoding, is in every
/// subgroup). They are copied to `device` (-1: the current one) a chunk at a time. Throws Error(cuda) when no
/// GPU can run it (or proofline was built without CUDA).
std::optional<std::size_t> first_outside_subgroup(std::span<const G1Affine> points, int device = -1);
std::optional<std::size_t> first_outside_subgroup(std::span<const G2Affine> points, int device = -1);
std::optional<std::size_t> first_outside_subgroup(std::span<const bn254::G1Affine> points, int device = -1);
std::optional<std::size_t> first_outside_subgroup(std::span<const bn254::G2Affine> points, int device = -1);

}  // namespace proofline::cuda
