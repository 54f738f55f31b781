#include <proofline/groth16/detail/batch_subgroup.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <proofline/cpu/msm.hpp>
#include <proofline/groth16/detail/point_checks.hpp>
#include <proofline/groth16/detail/ternary_rounds.hpp>
#include <proofline/groth16/os_random.hpp>
#include <proofline/util/error.hpp>

namespace proofline::groth16::detail {

namespace {

// Coefficients drawn per getrandom(2) call: one call per block keeps the draws parallel and cheap.
constexpr std::size_t coefficient_block = 16384;

// The widest group: 3^16/2 buckets (about 4 GB of G2 sums) is past any useful size already.
constexpr unsigned max_group_rounds = 15;

/// out[i] uniform in {−1, 0, 1} (as Fr: r − 1, 0, 1): 5 trits per random byte below 243 = 3^5, the other
/// bytes rejected, so every trit is exactly uniform.
void draw_ternary(std::span<Fr> out) {
  const Fr values[3] = {Fr::zero(), Fr::one(), -Fr::one()};
  tbb::parallel_for(std::size_t{0}, (out.size() + coefficient_block - 1) / coefficient_block,
                    [&](std::size_t block) {
                      const std::size_t begin = block * coefficient_block;
                      const std::size_t end = std::min(out.size(), begin + coefficient_block);
                      std::vector<std::uint8_t> bytes((end - begin) / 4 + 16);
                      std::size_t used = bytes.size();
                      for (std::size_t i = begin; i < end;) {
                        if (used == bytes.size()) {
                          os_random_bytes(bytes);
                          used = 0;
                        }
                        unsigned byte = bytes[used++];
                        if (byte >= 243) continue;
                        for (int t = 0; t < 5 && i < end; ++t, byte /= 3) out[i++] = values[byte % 3];
                      }
                    });
}

/// out[i] uniform in [−M, M], M = (3^k − 1)/2: a 32-bit draw below the largest multiple of 3^k is uniform
/// mod 3^k (the others are rejected), and the balanced base-3 digits of a uniform pattern are k independent
/// uniform trits, point i's coefficients in the group's k rounds.
void draw_patterns(std::span<std::int32_t> out, unsigned k) {
  const std::uint32_t count = 2 * ternary_bucket_count(k) + 1;  // 3^k
  const std::uint64_t limit = ((std::uint64_t{1} << 32) / count) * count;
  const auto half = static_cast<std::int64_t>(count / 2);
  tbb::parallel_for(std::size_t{0}, (out.size() + coefficient_block - 1) / coefficient_block,
                    [&](std::size_t block) {
                      const std::size_t begin = block * coefficient_block;
                      const std::size_t end = std::min(out.size(), begin + coefficient_block);
                      std::vector<std::uint32_t> words(end - begin + 16);
                      std::size_t used = words.size();
                      for (std::size_t i = begin; i < end;) {
                        if (used == words.size()) {
                          os_random_bytes({reinterpret_cast<std::uint8_t*>(words.data()), words.size() * 4});
                          used = 0;
                        }
                        const std::uint32_t word = words[used++];
                        if (word >= limit) continue;
                        out[i++] = static_cast<std::int32_t>(static_cast<std::int64_t>(word % count) - half);
                      }
                    });
}

/// The rounds split into groups of at most `widest`, as even as possible (the first ones one larger).
std::vector<unsigned> group_sizes(unsigned rounds, unsigned widest) {
  const unsigned groups = (rounds + widest - 1) / widest;
  std::vector<unsigned> sizes(groups, rounds / groups);
  for (unsigned g = 0; g < rounds % groups; ++g) ++sizes[g];
  return sizes;
}

/// Modelled cost of one group of k rounds over n points, in batched affine additions: the additions inside
/// the buckets (points beyond the first of each nonempty bucket), the sort and gather (about 0.3 of an
/// addition per point), and the reduction (2 additions per bucket, and its gathers).
double group_cost(std::size_t n, unsigned k) {
  const double points = static_cast<double>(n);
  const double buckets = ternary_bucket_count(k);
  const double nonempty = buckets * (1 - std::exp(-points / buckets));
  return points - nonempty + 0.3 * points + 2.5 * buckets;
}

template <class Affine>
bool blocked_impl(std::span<const Affine> points, unsigned rounds) {
  if (points.size() < batch_subgroup_min_points) return !first_outside_subgroup(points).has_value();
  if (points.size() >= ternary::kNegate)
    throw Error(Errc::invalid_argument, "batch_in_subgroup: 2^31 points or more");
  std::vector<std::int32_t> patterns(points.size());
  for (const unsigned k : group_sizes(rounds, batch_subgroup_group_rounds(points.size(), rounds))) {
    draw_patterns(patterns, k);
    for (const auto& sum : ternary_round_sums(points, std::span<const std::int32_t>(patterns), k))
      if (!in_subgroup(sum.to_jacobian().to_affine())) return false;
  }
  return true;
}

template <class Affine>
bool per_round_impl(std::span<const Affine> points, unsigned rounds) {
  if (points.size() < batch_subgroup_min_points) return !first_outside_subgroup(points).has_value();
  std::vector<Fr> coefficients(points.size());
  cpu::MsmOptions options;
  options.split_zero_one = true;  // the exact ±1 path (see the header): required, not an optimisation
  for (unsigned round = 0; round < rounds; ++round) {
    draw_ternary(coefficients);
    if (!in_subgroup(cpu::msm(points, coefficients, options).to_affine())) return false;
  }
  return true;
}

template <class Affine>
auto blocked_sums_impl(std::span<const Affine> points, std::span<const std::int8_t> trits, unsigned widest,
                       std::size_t task_points) {
  using Jacobian = decltype(points[0].to_jacobian());
  const std::size_t n = points.size();
  const auto rounds = static_cast<unsigned>(n == 0 ? 0 : trits.size() / n);
  std::vector<Jacobian> out;
  std::vector<std::int32_t> patterns(n);
  unsigned first = 0;
  for (const unsigned k : rounds == 0 ? std::vector<unsigned>{} : group_sizes(rounds, widest)) {
    for (std::size_t i = 0; i < n; ++i) {
      std::int32_t v = 0;
      for (unsigned j = k; j-- > 0;) v = 3 * v + trits[(first + j) * n + i];
      patterns[i] = v;
    }
    for (const auto& sum :
         ternary_round_sums(points, std::span<const std::int32_t>(patterns), k, task_points))
      out.push_back(sum.to_jacobian());
    first += k;
  }
  return out;
}

template <class Affine>
std::optional<std::uint64_t> first_outside_impl(std::span<const Affine> points) {
  constexpr std::uint64_t none = std::numeric_limits<std::uint64_t>::max();
  // The lowest failing index, so the answer does not depend on the schedule.
  const std::uint64_t bad = tbb::parallel_reduce(
      tbb::blocked_range<std::uint64_t>(0, points.size(), 256), none,
      [&](const tbb::blocked_range<std::uint64_t>& r, std::uint64_t found) {
        for (std::uint64_t i = r.begin(); i < r.end() && i < found; ++i)
          if (!points[i].is_infinity() && !in_subgroup(points[i])) return i;
        return found;
      },
      [](std::uint64_t x, std::uint64_t y) { return std::min(x, y); });
  if (bad == none) return std::nullopt;
  return bad;
}

}  // namespace

unsigned batch_subgroup_group_rounds(std::size_t points, unsigned rounds) {
  unsigned best = 1;
  double best_cost = std::numeric_limits<double>::infinity();
  for (unsigned widest = 1; widest <= std::min(rounds, max_group_rounds); ++widest) {
    double cost = 0;
    for (const unsigned k : group_sizes(rounds, widest)) cost += group_cost(points, k);
    if (cost < best_cost) {
      best_cost = cost;
      best = widest;
    }
  }
  return best;
}

bool batch_in_subgroup(std::span<const G1Affine> points, unsigned rounds) {
  return blocked_impl(points, rounds);
}
bool batch_in_subgroup(std::span<const G2Affine> points, unsigned rounds) {
  return blocked_impl(points, rounds);
}
bool batch_in_subgroup(std::span<const bn254::G2Affine> points, unsigned rounds) {
  return blocked_impl(points, rounds);
}

bool batch_in_subgroup_per_round(std::span<const G1Affine> points, unsigned rounds) {
  return per_round_impl(points, rounds);
}
bool batch_in_subgroup_per_round(std::span<const G2Affine> points, unsigned rounds) {
  return per_round_impl(points, rounds);
}

std::vector<G1Jacobian> blocked_round_sums(std::span<const G1Affine> points,
                                           std::span<const std::int8_t> trits, unsigned group_rounds,
                                           std::size_t task_points) {
  return blocked_sums_impl(points, trits, group_rounds, task_points);
}
std::vector<G2Jacobian> blocked_round_sums(std::span<const G2Affine> points,
                                           std::span<const std::int8_t> trits, unsigned group_rounds,
                                           std::size_t task_points) {
  return blocked_sums_impl(points, trits, group_rounds, task_points);
}

std::optional<std::uint64_t> first_outside_subgroup(std::span<const G1Affine> points) {
  return first_outside_impl(points);
}
std::optional<std::uint64_t> first_outside_subgroup(std::span<const G2Affine> points) {
  return first_outside_impl(points);
}
std::optional<std::uint64_t> first_outside_subgroup(std::span<const bn254::G2Affine> points) {
  return first_outside_impl(points);
}

}  // namespace proofline::groth16::detail
