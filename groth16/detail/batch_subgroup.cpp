#include <proofline/groth16/detail/batch_subgroup.hpp>

#include <algorithm>
#include <limits>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <proofline/cpu/msm.hpp>
#include <proofline/groth16/os_random.hpp>

namespace proofline::groth16::detail {

namespace {

// Coefficients drawn per getrandom(2) call: one call per block keeps the draws parallel and cheap.
constexpr std::size_t coefficient_block = 16384;

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

template <class Affine>
bool batch_impl(std::span<const Affine> points, unsigned rounds) {
  if (points.size() < batch_subgroup_min_points) return !first_outside_subgroup(points).has_value();
  std::vector<Fr> coefficients(points.size());
  cpu::MsmOptions options;
  options.split_zero_one = true;  // the exact ±1 path (see the header): required, not an optimisation
  for (unsigned round = 0; round < rounds; ++round) {
    draw_ternary(coefficients);
    if (!is_in_subgroup(cpu::msm(points, coefficients, options))) return false;
  }
  return true;
}

template <class Affine>
std::optional<std::uint64_t> first_outside_impl(std::span<const Affine> points) {
  constexpr std::uint64_t none = std::numeric_limits<std::uint64_t>::max();
  // The lowest failing index, so the answer does not depend on the schedule.
  const std::uint64_t bad = tbb::parallel_reduce(
      tbb::blocked_range<std::uint64_t>(0, points.size(), 256), none,
      [&](const tbb::blocked_range<std::uint64_t>& r, std::uint64_t found) {
        for (std::uint64_t i = r.begin(); i < r.end() && i < found; ++i)
          if (!points[i].is_infinity() && !is_in_subgroup(points[i])) return i;
        return found;
      },
      [](std::uint64_t x, std::uint64_t y) { return std::min(x, y); });
  if (bad == none) return std::nullopt;
  return bad;
}

}  // namespace

bool batch_in_subgroup(std::span<const G1Affine> points, unsigned rounds) {
  return batch_impl(points, rounds);
}
bool batch_in_subgroup(std::span<const G2Affine> points, unsigned rounds) {
  return batch_impl(points, rounds);
}

std::optional<std::uint64_t> first_outside_subgroup(std::span<const G1Affine> points) {
  return first_outside_impl(points);
}
std::optional<std::uint64_t> first_outside_subgroup(std::span<const G2Affine> points) {
  return first_outside_impl(points);
}

}  // namespace proofline::groth16::detail
