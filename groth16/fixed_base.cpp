#include <proofline/groth16/fixed_base.hpp>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <string>
#include <vector>

#include <proofline/arith/curve_batch.hpp>
#include <proofline/util/error.hpp>

namespace proofline::groth16 {

namespace {

constexpr std::size_t scalar_block = 1024;  // points made affine together (one inversion)
constexpr unsigned scalar_bits = 256;  // windows cover 256 bits: Fr < 2^255 leaves room for the last carry

/// Signed base-2^w digits of a canonical scalar, least significant first, each in [−2^(w−1), 2^(w−1)].
/// Since the scalar is below 2^255 and the windows cover 256 bits, no carry leaves the top window.
void signed_digits(const BigInt<4>& value, unsigned w, unsigned windows, int* digits) {
  const std::uint32_t half = std::uint32_t{1} << (w - 1);
  std::uint32_t carry = 0;
  for (unsigned k = 0; k < windows; ++k) {
    const std::uint32_t raw = value.bits(std::size_t{k} * w, w) + carry;
    if (raw > half) {
      digits[k] = static_cast<int>(raw) - static_cast<int>(std::uint32_t{1} << w);
      carry = 1;
    } else {
      digits[k] = static_cast<int>(raw);
      carry = 0;
    }
  }
}

template <class Curve, class F>
void fixed_base_impl(const AffinePoint<Curve>& base, std::span<const F> scalars,
                     std::span<AffinePoint<Curve>> out, unsigned window_bits) {
  using Affine = AffinePoint<Curve>;
  using Jacobian = JacobianPoint<Curve>;
  using Xyzz = XyzzPoint<Curve>;
  if (scalars.size() != out.size())
    throw Error(Errc::invalid_argument, "cpu_fixed_base_mul: " + std::to_string(scalars.size()) +
                                            " scalars but " + std::to_string(out.size()) + " outputs");
  const unsigned w = window_bits == 0 ? fixed_base_window_bits(scalars.size()) : window_bits;
  if (w < 2 || w > 20)
    throw Error(Errc::invalid_argument,
                "cpu_fixed_base_mul: window width " + std::to_string(w) + " is outside 2..20");
  if (scalars.empty()) return;
  const unsigned windows = (scalar_bits + w - 1) / w;
  const std::size_t half = std::size_t{1} << (w - 1);

  // table[k·half + d − 1] = d·2^(w·k)·base.
  std::vector<Jacobian> window_base(windows);
  Jacobian running = base.to_jacobian();
  for (unsigned k = 0; k < windows; ++k) {
    window_base[k] = running;
    for (unsigned i = 0; i < w; ++i) running = running.dbl();
  }
  std::vector<Affine> table(std::size_t{windows} * half);
  tbb::parallel_for(tbb::blocked_range<unsigned>(0, windows, 1), [&](const tbb::blocked_range<unsigned>& r) {
    std::vector<Jacobian> multiples(half);
    for (unsigned k = r.begin(); k < r.end(); ++k) {
      Jacobian acc = window_base[k];
      multiples[0] = acc;
      for (std::size_t d = 1; d < half; ++d) {
        acc = acc.add(window_base[k]);
        multiples[d] = acc;
      }
      batch_to_affine(std::span<const Jacobian>(multiples),
                      std::span<Affine>(table.data() + std::size_t{k} * half, half));
    }
  });

  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, scalars.size(), scalar_block),
                    [&](const tbb::blocked_range<std::size_t>& r) {
                      std::vector<Xyzz> sums(r.size());
                      std::vector<int> digits(windows);
                      for (std::size_t i = r.begin(); i < r.end(); ++i) {
                        signed_digits(scalars[i].canonical(), w, windows, digits.data());
                        Xyzz acc = Xyzz::infinity();
                        for (unsigned k = 0; k < windows; ++k) {
                          const int d = digits[k];
                          if (d == 0) continue;
                          const std::size_t magnitude = static_cast<std::size_t>(d < 0 ? -d : d);
                          acc = acc.add_mixed(table[std::size_t{k} * half + magnitude - 1], d < 0);
                        }
                        sums[i - r.begin()] = acc;
                      }
                      batch_to_affine(std::span<const Xyzz>(sums), out.subspan(r.begin(), r.size()));
                    });
}

}  // namespace

unsigned fixed_base_window_bits(std::size_t count) noexcept {
  // Cost in mixed additions: count·ceil(256/w) for the scalars plus about 3·2^(w−1)·ceil(256/w) for the table
  // (additions and the affine conversion); pick the cheapest w up to 16.
  unsigned best = 2;
  double best_cost = 0;
  for (unsigned w = 2; w <= 16; ++w) {
    const double windows = (scalar_bits + w - 1) / w;
    const double cost =
        windows * (static_cast<double>(count) + 3.0 * static_cast<double>(std::size_t{1} << (w - 1)));
    if (w == 2 || cost < best_cost) {
      best = w;
      best_cost = cost;
    }
  }
  return best;
}

void cpu_fixed_base_mul(const G1Affine& base, std::span<const Fr> scalars, std::span<G1Affine> out,
                        unsigned window_bits) {
  fixed_base_impl(base, scalars, out, window_bits);
}

void cpu_fixed_base_mul(const G2Affine& base, std::span<const Fr> scalars, std::span<G2Affine> out,
                        unsigned window_bits) {
  fixed_base_impl(base, scalars, out, window_bits);
}

void cpu_fixed_base_mul(const bn254::G1Affine& base, std::span<const bn254::Fr> scalars,
                        std::span<bn254::G1Affine> out, unsigned window_bits) {
  fixed_base_impl(base, scalars, out, window_bits);
}

void cpu_fixed_base_mul(const bn254::G2Affine& base, std::span<const bn254::Fr> scalars,
                        std::span<bn254::G2Affine> out, unsigned window_bits) {
  fixed_base_impl(base, scalars, out, window_bits);
}

}  // namespace proofline::groth16
