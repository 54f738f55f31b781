// Internal: subgroup membership of many points at once, by random linear combinations summed a group of
// rounds at a time, and the per-point search that names the first bad point when a combination fails.
//
// Soundness. E(Fp) = G1 ⊕ H1 with #H1 = h1 = 3·11²·10177²·859267²·52437899², and E'(Fp2) = G2 ⊕ H2 with
// h2 = 13²·23²·2713·11953·262069·(a 448-bit prime); gcd(h, r) = 1 and h is odd, so no point has order 2.
// BN254's G1 has cofactor 1 (nothing to check); its twist has #E'(Fp2) = r·h2 with h2 = 2p − r, odd and prime
// to r, so the same argument holds for its G2.
// Write P_i = Q_i + T_i (Q_i in the subgroup, T_i in H). For coefficients c_i, S = Σ c_i·P_i lies in the
// subgroup iff Σ c_i·T_i = O. If some T_k ≠ O, of order o ≥ 3, then for any values of the other
// coefficients that equation holds for c_k in at most one residue class mod o, so a coefficient drawn
// uniformly from a set of integers survives with probability at most the largest share of that set in one
// class mod o (about 1/o for wide coefficients). The catch on BLS12-381 is that o can be tiny (3 in
// G1, 13 in G2): however wide the coefficients (64, 128 bits), one combination lets an order-3 component
// through with probability 1/3, so a single "random 128-bit linear combination" is NOT a sound check here.
// What buys soundness is the number of independent combinations: with k rounds the false-accept
// probability is at most (max class share)^k. Coefficients uniform in {−1, 0, 1} have a class share of at
// most 1/3 for every o ≥ 3 (no two of them are congruent mod o), the same as the best any alphabet can do
// against o = 3, and they are the cheapest. 41 rounds give 3^−41 < 2^−64.9. Coefficients come fresh from
// getrandom(2) on every call: a key author who could predict them could hide a bad component.
//
// Cost. The rounds are computed in groups of a few (ternary_rounds.hpp): a point's coefficients in a group
// of k rounds form one of 3^k patterns, and each point is added once into its pattern's bucket, from which
// the group's k sums follow in about 3^k additions. With 4-6 groups that is 4-6 batched affine additions
// per point for all 41 rounds, against about 27 for 41 separate ±1 sums, and against the 128 doublings (G1)
// or 64 Fp2 doublings (G2) of the per-point endomorphism test (Scott's, g1.hpp / g2.hpp). The grouping
// changes how the sums are computed, not which: each round's coefficients are still an independent uniform
// vector in {−1, 0, 1}^n, since the k balanced base-3 digits of a uniform pattern are independent uniform
// trits.
//
// Every addition is exact (P + P doubles, P + (−P) drops out; r·P = O, false off the subgroup, is never
// used), so each sum is the integer combination the argument needs. The points must be on the curve with
// reduced coordinates (the group law assumes it): callers check that per point first.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include <proofline/arith/bn254/g2.hpp>
#include <proofline/arith/g1.hpp>
#include <proofline/arith/g2.hpp>

namespace proofline::groth16::detail {

/// Independent {−1, 0, 1} combinations per batched check: false accept below 3^−41 < 2^−64.
inline constexpr unsigned batch_subgroup_rounds = 41;

/// Below this many points the per-point test is as cheap as the rounds and is used instead.
inline constexpr std::size_t batch_subgroup_min_points = 64;

/// true when every point is in the prime-order subgroup, except with probability below 3^−rounds (false is
/// always right). Points must be on the curve with reduced coordinates; infinity is in the subgroup.
bool batch_in_subgroup(std::span<const G1Affine> points, unsigned rounds = batch_subgroup_rounds);
bool batch_in_subgroup(std::span<const G2Affine> points, unsigned rounds = batch_subgroup_rounds);
bool batch_in_subgroup(std::span<const bn254::G2Affine> points, unsigned rounds = batch_subgroup_rounds);

/// The lowest index of a point outside the subgroup (per-point endomorphism test, TBB-parallel), if any.
std::optional<std::uint64_t> first_outside_subgroup(std::span<const G1Affine> points);
std::optional<std::uint64_t> first_outside_subgroup(std::span<const G2Affine> points);
std::optional<std::uint64_t> first_outside_subgroup(std::span<const bn254::G2Affine> points);

/// Rounds per group for n points: the group count minimising the bucket additions (about one per point per
/// group) plus the reduction (about 3^k per group of k rounds). Soundness does not depend on it.
unsigned batch_subgroup_group_rounds(std::size_t points, unsigned rounds = batch_subgroup_rounds);

/// The same check by separate rounds through cpu::msm's ±1 path (about 2/3 of an addition per point per
/// round): the earlier method, kept for the benchmark's comparison.
bool batch_in_subgroup_per_round(std::span<const G1Affine> points, unsigned rounds = batch_subgroup_rounds);
bool batch_in_subgroup_per_round(std::span<const G2Affine> points, unsigned rounds = batch_subgroup_rounds);

/// Test hook: the round sums S_r = Σ_i trits[r·n + i]·points[i] (trits in {−1, 0, 1}, n = points.size(),
/// rounds = trits.size() / n) computed as batch_in_subgroup does: the rounds split as evenly as possible into
/// groups of at most group_rounds (in order), buckets summed in tasks of about task_points points.
std::vector<G1Jacobian> blocked_round_sums(std::span<const G1Affine> points,
                                           std::span<const std::int8_t> trits, unsigned group_rounds,
                                           std::size_t task_points);
std::vector<G2Jacobian> blocked_round_sums(std::span<const G2Affine> points,
                                           std::span<const std::int8_t> trits, unsigned group_rounds,
                                           std::size_t task_points);

}  // namespace proofline::groth16::detail
