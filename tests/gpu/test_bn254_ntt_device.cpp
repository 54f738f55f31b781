// The GPU NTT and H for BN254's Fr (BasicNttEngine<bn254::Fr>, snarkjs's bn128 convention: root 5^t of
// order 2^28, the odd coset) against the CPU reference (cpu/ntt.cpp, cpu/h_poly.cpp) bit for bit, on fresh
// random inputs each run (with 0, 1 and -1 at the front).
//
//   2^10..2^20: every direction x order (NN, NR, RN, RR) x coset combination.
//   2^22, 2^24: four combinations against the CPU and every combination as a round trip on the GPU.
//   H: 2^1..2^24 against cpu::compute_h (below 2^10 the one-block kernel), random and satisfied (c = a·b);
//   an engine with top diagonals too.
// PROOFLINE_GPU_TEST_MAX_LOG (default 26) lowers the largest size for quick runs.
#include <doctest/doctest.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include <proofline/arith/bn254/fr.hpp>
#include <proofline/arith/domain.hpp>
#include <proofline/cpu/h_poly.hpp>
#include <proofline/cpu/ntt.hpp>
#include <proofline/cuda/device_buffer.hpp>
#include <proofline/cuda/gpu_ntt.hpp>
#include <proofline/cuda/stream.hpp>
#include <proofline/util/error.hpp>

#include "support/field_vectors.hpp"
#include "support/ntt_orders.hpp"

using namespace proofline;
using namespace proofline::test_support;

namespace {

using Engine = cuda::BasicNttEngine<bn254::Fr>;
using Vector = std::vector<bn254::Fr>;

int max_log_for_tests() {
  const char* text = std::getenv("PROOFLINE_GPU_TEST_MAX_LOG");
  return std::min(text != nullptr ? std::atoi(text) : 26, 24);
}

Vector random_vector(std::uint64_t seed, std::size_t n) {
  Vector out = random_scalars_parallel<bn254::Fr>(seed, n);
  const bn254::Fr edges[3] = {bn254::Fr::zero(), bn254::Fr::one(),
                              -bn254::Fr::one()};  // as many as fit (2^1 has two)
  for (std::size_t i = 0; i < std::min<std::size_t>(3, n); ++i) out[i] = edges[i];
  return out;
}

const Engine& engine() {
  static const Engine instance(0, cuda::NttEngineOptions{.max_log_n = std::max(max_log_for_tests(), 20)});
  return instance;
}

std::string describe(unsigned log_n, NttDirection direction, NttOrder order, bool coset) {
  return "bn254 2^" + std::to_string(log_n) + " " + direction_name(direction) + " " + order_name(order) +
         (coset ? " coset" : "");
}

Vector gpu_ntt(const Vector& input, const bn254::Domain& domain, NttDirection direction, NttOrder order,
               bool coset) {
  cuda::Stream stream;
  cuda::DeviceBuffer<bn254::Fr> data(input.size());
  data.upload(input.data(), input.size(), stream);
  engine().enqueue_ntt(data.data(), domain, direction, order, coset, stream.get());
  Vector out(input.size());
  data.download(out.data(), out.size(), stream);
  stream.synchronize();
  return out;
}

Vector cpu_ntt(Vector values, const bn254::Domain& domain, NttDirection direction, NttOrder order,
               bool coset) {
  cpu::ntt(values, domain, direction, order, coset);
  return values;
}

void check_combination(const Vector& input, const bn254::Domain& domain, NttDirection direction,
                       NttOrder order, bool coset) {
  const std::string what = describe(domain.log_size(), direction, order, coset);
  CAPTURE(what);
  CHECK(count_mismatches(gpu_ntt(input, domain, direction, order, coset),
                         cpu_ntt(input, domain, direction, order, coset)) == 0);
}

/// Forward then inverse with the orders swapped back, on the GPU: the input again.
void check_round_trips(const Vector& input, const bn254::Domain& domain) {
  cuda::Stream stream;
  cuda::DeviceBuffer<bn254::Fr> data(input.size());
  for (const NttOrder order : kAllOrders)
    for (const bool coset : {false, true}) {
      const NttOrder back = order == NttOrder::NR   ? NttOrder::RN
                            : order == NttOrder::RN ? NttOrder::NR
                                                    : order;
      const std::string what =
          describe(domain.log_size(), NttDirection::forward, order, coset) + " then back";
      CAPTURE(what);
      data.upload(input.data(), input.size(), stream);
      engine().enqueue_ntt(data.data(), domain, NttDirection::forward, order, coset, stream.get());
      engine().enqueue_ntt(data.data(), domain, NttDirection::inverse, back, coset, stream.get());
      Vector out(input.size());
      data.download(out.data(), out.size(), stream);
      stream.synchronize();
      CHECK(count_mismatches(out, input) == 0);
    }
}

void check_h(const Engine& with, unsigned log_n, bool satisfied) {
  const auto domain = bn254::Domain::make(log_n, HConvention::snarkjs);
  const std::uint64_t seed = test_seed();
  CAPTURE(seed);
  CAPTURE(log_n);
  CAPTURE(satisfied);
  const Vector a = random_vector(seed, domain.size()), b = random_vector(seed + 1, domain.size());
  Vector c = random_vector(seed + 2, domain.size());
  if (satisfied) tbb::parallel_for(std::size_t{0}, c.size(), [&](std::size_t i) { c[i] = a[i] * b[i]; });
  cuda::Stream stream;
  cuda::DeviceBuffer<bn254::Fr> da(domain.size()), db(domain.size()), dc(domain.size());
  da.upload(a.data(), a.size(), stream);
  db.upload(b.data(), b.size(), stream);
  dc.upload(c.data(), c.size(), stream);
  with.enqueue_h(da.data(), db.data(), dc.data(), domain, stream.get());
  Vector actual(domain.size());
  da.download(actual.data(), actual.size(), stream);
  stream.synchronize();
  Vector ea = a, eb = b, ec = c;
  cpu::compute_h(ea, eb, ec, domain);
  CHECK(count_mismatches(actual, ea) == 0);
}

}  // namespace

TEST_CASE("gpu/bn254/NTT every order direction and coset equals the CPU NTT from 2^10 to 2^20") {
  for (unsigned log_n = 10; log_n <= 20; ++log_n) {
    const auto domain = bn254::Domain::make(log_n, HConvention::snarkjs);
    const std::uint64_t seed = test_seed();
    CAPTURE(seed);
    const Vector input = random_vector(seed, domain.size());
    for (const NttDirection direction : {NttDirection::forward, NttDirection::inverse})
      for (const NttOrder order : kAllOrders)
        for (const bool coset : {false, true}) check_combination(input, domain, direction, order, coset);
  }
}

TEST_CASE("gpu/bn254/NTT at 2^22 and 2^24 equals the CPU NTT and every combination round-trips") {
  for (const unsigned log_n : {22u, 24u}) {
    if (static_cast<int>(log_n) > max_log_for_tests()) continue;
    const auto domain = bn254::Domain::make(log_n, HConvention::snarkjs);
    const std::uint64_t seed = test_seed();
    CAPTURE(seed);
    const Vector input = random_vector(seed, domain.size());
    check_combination(input, domain, NttDirection::forward, NttOrder::NR, false);
    check_combination(input, domain, NttDirection::forward, NttOrder::RN, true);
    check_combination(input, domain, NttDirection::inverse, NttOrder::NR, true);
    check_combination(input, domain, NttDirection::inverse, NttOrder::NN, false);
    check_round_trips(input, domain);
  }
}

TEST_CASE("gpu/bn254/H equals the CPU compute_h from 2^1 to 2^24") {
  for (const unsigned log_n : {1u, 2u, 3u, 5u, 8u, 9u, 10u, 11u, 12u, 16u, 20u, 22u, 24u}) {
    if (static_cast<int>(log_n) > max_log_for_tests()) continue;
    check_h(engine(), log_n, false);
    if (log_n <= 20) check_h(engine(), log_n, true);
  }
}

TEST_CASE("gpu/bn254/an NTT engine with full tables gives the same H and refuses generator7") {
  const int top = std::min(max_log_for_tests(), 22);
  cuda::NttEngineOptions options{.max_log_n = std::max(top, 20)};
  for (const int log_n : {11, 16, 20, top}) options.top_diagonals.push_back({log_n, HConvention::snarkjs});
  for (const int log_n : {10, 16, top}) options.h_coset_tables.push_back({log_n, HConvention::snarkjs});
  const Engine with_top(0, options);
  for (const int log_n : {10, 11, 16, 20, top}) check_h(with_top, static_cast<unsigned>(log_n), false);

  cuda::NttEngineOptions generator7{.max_log_n = 20};
  generator7.top_diagonals.push_back({16, HConvention::generator7});
  CHECK_THROWS_AS(Engine(0, generator7), Error);
  cuda::NttEngineOptions generator7_coset{.max_log_n = 20};
  generator7_coset.h_coset_tables.push_back({16, HConvention::generator7});
  CHECK_THROWS_AS(Engine(0, generator7_coset), Error);
  cuda::Stream stream;
  cuda::DeviceBuffer<bn254::Fr> data(1 << 9);
  CHECK_THROWS_AS(engine().enqueue_ntt(data.data(), bn254::Domain::make(9, HConvention::snarkjs),
                                       NttDirection::forward, NttOrder::NR, false, stream.get()),
                  Error);
}
