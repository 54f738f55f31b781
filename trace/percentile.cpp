#include <proofline/trace/percentile.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <proofline/util/error.hpp>

namespace proofline::trace {

double percentile_sorted(std::span<const double> sorted, double q) {
  if (sorted.empty()) throw Error(Errc::invalid_argument, "percentile of no values");
  if (!(q >= 0.0 && q <= 1.0))
    throw Error(Errc::invalid_argument, "percentile rank " + std::to_string(q) + " is outside [0, 1]");
  const double h = static_cast<double>(sorted.size() - 1) * q;
  const std::size_t lo = static_cast<std::size_t>(std::floor(h));
  if (lo + 1 >= sorted.size()) return sorted.back();
  const double fraction = h - static_cast<double>(lo);
  return sorted[lo] + fraction * (sorted[lo + 1] - sorted[lo]);
}

double percentile(std::span<const double> values, double q) {
  if (std::any_of(values.begin(), values.end(), [](double v) { return std::isnan(v); }))
    throw Error(Errc::invalid_argument, "percentile of values that include NaN");
  std::vector<double> sorted(values.begin(), values.end());
  std::sort(sorted.begin(), sorted.end());
  return percentile_sorted(sorted, q);
}

}  // namespace proofline::trace
