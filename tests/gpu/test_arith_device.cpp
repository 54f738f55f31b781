// One source for host and device: the same field code compiled by nvcc must give the host's answers.
#include <doctest/doctest.h>

#include <random>

#include <proofline/arith/random.hpp>

#include "arith_kernels.hpp"

using namespace proofline;

namespace {

template <class F, class Draw>
std::vector<F> inputs_with_edges(std::mt19937_64& rng, std::size_t count, Draw draw) {
  std::vector<F> values = {F::zero(), F::one(), -F::one()};
  while (values.size() < count) values.push_back(draw(rng));
  return values;
}

template <class F, class Draw, class Run>
void check_device_matches_host(Draw draw, Run run_on_device) {
  std::random_device seed_source;
  const auto seed = (static_cast<std::uint64_t>(seed_source()) << 32) | seed_source();
  CAPTURE(seed);
  std::mt19937_64 rng(seed);
  const std::size_t count = 4099;  // not a multiple of the block size
  auto a = inputs_with_edges<F>(rng, count, draw);
  auto b = inputs_with_edges<F>(rng, count, draw);
  std::swap(b[0], b[5]);  // zero meets random values on both sides
  const auto device = run_on_device(a, b);
  std::size_t mismatches = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t j = (i + 1) % count;
    const F expected[gpu_test::kFieldOps] = {a[i] * b[i], a[i] + b[i], a[i] - b[i], a[i].inverse() * b[i],
                                             a[i] * b[i] - b[j] * a[j]};
    for (int k = 0; k < gpu_test::kFieldOps; ++k)
      mismatches += device[gpu_test::kFieldOps * i + k] != expected[k];
  }
  CHECK(mismatches == 0);
}

}  // namespace

TEST_CASE("gpu/arith/Fr operations on the device equal the host's") {
  check_device_matches_host<Fr>([](auto& rng) { return random_field<Fr>(rng); }, gpu_test::fr_ops_on_device);
}

TEST_CASE("gpu/arith/Fp operations on the device equal the host's") {
  check_device_matches_host<Fp>([](auto& rng) { return random_field<Fp>(rng); }, gpu_test::fp_ops_on_device);
}

TEST_CASE("gpu/arith/Fp2 operations on the device equal the host's") {
  check_device_matches_host<Fp2>(
      [](auto& rng) {
        return Fp2{random_field<Fp>(rng), random_field<Fp>(rng)};
      },
      gpu_test::fp2_ops_on_device);
}
