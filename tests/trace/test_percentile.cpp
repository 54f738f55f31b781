#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include <proofline/trace/percentile.hpp>
#include <proofline/util/error.hpp>

using namespace proofline;
using namespace proofline::trace;

namespace {

/// Reference: walk the piecewise-linear curve through the points (k / (n - 1), x_k) until the segment that
/// holds q, without the closed-form index the library uses.
double reference_percentile(std::vector<double> values, double q) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  if (n == 1) return values[0];
  for (std::size_t k = 0; k + 1 < n; ++k) {
    const double q0 = static_cast<double>(k) / static_cast<double>(n - 1);
    const double q1 = static_cast<double>(k + 1) / static_cast<double>(n - 1);
    if (q <= q1) return values[k] + (values[k + 1] - values[k]) * (q - q0) / (q1 - q0);
  }
  return values.back();
}

}  // namespace

TEST_CASE("trace/percentile/matches known values") {
  // The values NumPy's default (linear) method gives for these inputs.
  const std::vector<double> five = {15, 20, 35, 40, 50};
  CHECK(percentile(five, 0.0) == 15);
  CHECK(percentile(five, 0.4) == doctest::Approx(29));
  CHECK(percentile(five, 0.5) == 35);
  CHECK(percentile(five, 0.99) == doctest::Approx(49.6));
  CHECK(percentile(five, 1.0) == 50);

  std::vector<double> hundred;
  for (int i = 100; i >= 1; --i) hundred.push_back(i);  // unsorted on purpose
  CHECK(percentile(hundred, 0.5) == doctest::Approx(50.5));
  CHECK(percentile(hundred, 0.9) == doctest::Approx(90.1));
  CHECK(percentile(hundred, 0.99) == doctest::Approx(99.01));

  CHECK(percentile(std::vector<double>{7}, 0.99) == 7);
  CHECK(percentile(std::vector<double>{1, 3}, 0.5) == 2);
  CHECK(percentile(std::vector<double>{2, 2, 2, 9}, 0.5) == 2);
}

TEST_CASE("trace/percentile/agrees with a reference on random data") {
  std::mt19937_64 rng(2024);
  std::uniform_real_distribution<double> unit(0, 1);
  for (int trial = 0; trial < 500; ++trial) {
    const std::size_t n = 1 + rng() % 200;
    std::vector<double> values(n);
    for (double& v : values)
      v = (rng() % 4 == 0) ? std::floor(unit(rng) * 5) : unit(rng) * 1000;  // with ties
    const double q = trial % 10 == 0 ? static_cast<double>(rng() % 3) / 2 : unit(rng);
    CAPTURE(n);
    CAPTURE(q);
    const double p = percentile(values, q);
    CHECK(p == doctest::Approx(reference_percentile(values, q)).epsilon(1e-12));
    CHECK(p >= *std::min_element(values.begin(), values.end()));
    CHECK(p <= *std::max_element(values.begin(), values.end()));
    CHECK(percentile(values, std::min(1.0, q + 0.05)) >= p);
  }
}

TEST_CASE("trace/percentile/rejects empty input and bad ranks") {
  CHECK_THROWS_AS(percentile(std::vector<double>{}, 0.5), Error);
  CHECK_THROWS_AS(percentile(std::vector<double>{1, 2}, -0.01), Error);
  CHECK_THROWS_AS(percentile(std::vector<double>{1, 2}, 1.01), Error);
  CHECK_THROWS_AS(percentile(std::vector<double>{1, 2}, std::nan("")), Error);
  CHECK_THROWS_AS(percentile(std::vector<double>{1, std::nan("")}, 0.5), Error);
}
