#include <proofline/groth16/proving_key.hpp>

#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <limits>
#include <string>

#include <proofline/groth16/detail/point_checks.hpp>

namespace proofline::groth16 {

namespace {

[[noreturn]] void fail(Errc code, std::string_view context, const std::string& what) {
  throw Error(code, std::string(context) + ": " + what);
}

void check_size(Errc code, std::string_view context, const char* name, std::uint64_t actual,
                std::uint64_t expected) {
  if (actual != expected)
    fail(code, context,
         std::string(name) + " has " + std::to_string(actual) + " points, expected " +
             std::to_string(expected));
}

template <class Affine>
void check_query_points(Errc code, std::string_view context, const char* name,
                        const SharedArray<Affine>& query) {
  const Affine* points = query.data();
  constexpr std::uint64_t none = std::numeric_limits<std::uint64_t>::max();
  const std::uint64_t bad = tbb::parallel_reduce(
      tbb::blocked_range<std::uint64_t>(0, query.size(), 1024), none,
      [&](const tbb::blocked_range<std::uint64_t>& r, std::uint64_t found) {
        for (std::uint64_t i = r.begin(); i < r.end() && i < found; ++i)
          if (!detail::is_valid_coordinates(points[i]) || !detail::on_curve(points[i])) return i;
        return found;
      },
      [](std::uint64_t x, std::uint64_t y) { return std::min(x, y); });
  if (bad != none)
    fail(code, context, std::string(name) + "[" + std::to_string(bad) + "] is not on the curve");
}

}  // namespace

template <class Curve>
void validate(const BasicProvingKey<Curve>& pk, Errc code, std::string_view context, bool check_queries) {
  if (pk.convention != HConvention::generator7 && pk.convention != HConvention::snarkjs)
    fail(code, context, "unknown H convention " + std::to_string(static_cast<unsigned>(pk.convention)));
  if (pk.log_domain_size < 1 || pk.log_domain_size > max_ntt_log_size)
    fail(code, context,
         "log2 domain size " + std::to_string(pk.log_domain_size) + " is outside 1.." +
             std::to_string(max_ntt_log_size));
  if (pk.num_variables == 0 || pk.num_variables > (std::uint64_t{1} << 32) ||
      pk.num_public >= pk.num_variables)
    fail(code, context,
         std::to_string(pk.num_public) + " public inputs and " + std::to_string(pk.num_variables) +
             " variables are not a valid shape");
  check_size(code, context, "the A query", pk.a_query.size(), pk.num_variables);
  check_size(code, context, "the B1 query", pk.b1_query.size(), pk.num_variables);
  check_size(code, context, "the B2 query", pk.b2_query.size(), pk.num_variables);
  check_size(code, context, "the H query", pk.h_query.size(), h_query_size(pk.convention, pk.domain_size()));
  check_size(code, context, "the L query", pk.l_query.size(), pk.num_private());
  detail::require_group_element(pk.alpha1, code, context, "alpha1");
  detail::require_group_element(pk.beta1, code, context, "beta1");
  detail::require_group_element(pk.delta1, code, context, "delta1");
  detail::require_group_element(pk.beta2, code, context, "beta2");
  detail::require_group_element(pk.delta2, code, context, "delta2");
  if (!check_queries) return;
  check_query_points(code, context, "the A query", pk.a_query);
  check_query_points(code, context, "the B1 query", pk.b1_query);
  check_query_points(code, context, "the B2 query", pk.b2_query);
  check_query_points(code, context, "the H query", pk.h_query);
  check_query_points(code, context, "the L query", pk.l_query);
}

template void validate(const BasicProvingKey<Bls12_381>&, Errc, std::string_view, bool);
template void validate(const BasicProvingKey<Bn254>&, Errc, std::string_view, bool);

}  // namespace proofline::groth16
