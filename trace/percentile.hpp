// Percentiles with linear interpolation between closest ranks (Hyndman & Fan type 7, NumPy's default): for n
// sorted values x[0..n-1] and q in [0, 1], h = (n - 1) q and the result is x[floor h] + (h - floor h) *
// (x[floor h + 1] - x[floor h]). So q = 0 is the minimum, q = 1 the maximum, and p50 of an even count is the
// mean of the middle two.
#pragma once

#include <span>

namespace proofline::trace {

/// Throws Error(invalid_argument) for no values, a NaN value or q outside [0, 1].
double percentile(std::span<const double> values, double q);
/// Same, for values already sorted ascending (not checked).
double percentile_sorted(std::span<const double> sorted, double q);

}  // namespace proofline::trace
