// GPU NTT and H against the CPU reference (cpu/), bit for bit, on fresh random inputs each run.
//
//   2^10..2^20: every direction x order (NN, NR, RN, RR) x coset combination, both conventions, full vectors.
//   2^21..2^24: four combinations per convention against the full CPU result (forward NR, coset forward RN,
//     coset inverse NR, inverse NN), and every combination as a round trip on the GPU.
//   2^26, where the CPU reference dominated the suite's time: generator7 forward NR once against the full
//     CPU result; in both conventions forward NR and coset forward NR at 8 outputs against a direct
//     evaluation of the input polynomial; every combination as a round trip.
//   H: every size 2^1..2^10 (below 2^10 the one-block kernel), 2^11..2^22 in steps and 2^24 in both
//     conventions, 2^26 in generator7, against cpu::compute_h, for
//     random a, b, c and for a satisfied system (c = a·b, where generator7's H has degree <= n − 2).
// PROOFLINE_GPU_TEST_MAX_LOG (default 26) lowers the largest size for quick runs.
#include <doctest/doctest.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <set>
#include <span>
#include <string>
#include <vector>

#include <proofline/arith/domain.hpp>
#include <proofline/cpu/h_poly.hpp>
#include <proofline/cpu/ntt.hpp>
#include <proofline/cuda/device_buffer.hpp>
#include <proofline/cuda/gpu_ntt.hpp>
#include <proofline/cuda/stream.hpp>
#include <proofline/util/error.hpp>

#include "arith_kernels.hpp"
#include "support/field_vectors.hpp"
#include "support/ntt_orders.hpp"

using namespace proofline;
using namespace proofline::test_support;

namespace {

int max_log_for_tests() {
  const char* text = std::getenv("PROOFLINE_GPU_TEST_MAX_LOG");
  return text != nullptr ? std::atoi(text) : 26;
}

/// Random elements (drawn in parallel), with 0, 1 and −1 at the front.
std::vector<Fr> random_vector(std::uint64_t seed, std::size_t n) {
  std::vector<Fr> out = random_scalars_parallel(seed, n);
  const Fr edges[3] = {Fr::zero(), Fr::one(), -Fr::one()};  // as many as fit (2^1 has two)
  for (std::size_t i = 0; i < std::min<std::size_t>(3, n); ++i) out[i] = edges[i];
  return out;
}

std::string describe(const Domain& domain, NttDirection direction, NttOrder order, bool coset) {
  return std::string(convention_name(domain.convention())) + " 2^" + std::to_string(domain.log_size()) + " " +
         direction_name(direction) + " " + order_name(order) + (coset ? " coset" : "");
}

/// The engine is built once for the whole suite (both conventions, up to 2^26).
const cuda::NttEngine& engine() {
  static const cuda::NttEngine instance(0, cuda::NttEngineOptions{std::max(max_log_for_tests(), 20)});
  return instance;
}

struct DeviceVector {
  cuda::DeviceBuffer<Fr> buffer;
  explicit DeviceVector(std::size_t n) : buffer(n) {}
  void put(const std::vector<Fr>& host, cuda::Stream& stream) {
    buffer.upload(host.data(), host.size(), stream);
  }
  std::vector<Fr> get(cuda::Stream& stream) {
    std::vector<Fr> host(buffer.size());
    buffer.download(host.data(), host.size(), stream);
    stream.synchronize();
    return host;
  }
};

std::vector<Fr> gpu_ntt(const std::vector<Fr>& input, const Domain& domain, NttDirection direction,
                        NttOrder order, bool coset, const cuda::NttEngine& with = engine()) {
  cuda::Stream stream;
  DeviceVector data(input.size());
  data.put(input, stream);
  with.enqueue_ntt(data.buffer.data(), domain, direction, order, coset, stream.get());
  return data.get(stream);
}

std::vector<Fr> cpu_ntt(std::vector<Fr> values, const Domain& domain, NttDirection direction, NttOrder order,
                        bool coset) {
  cpu::ntt(values, domain, direction, order, coset);
  return values;
}

/// sum_j coeffs[j] · x^j, in parallel chunks (Horner within a chunk, then times x^start).
Fr evaluate(const std::vector<Fr>& coeffs, const Fr& x) {
  constexpr std::size_t kChunk = 1 << 16;
  const std::size_t chunks = (coeffs.size() + kChunk - 1) / kChunk;
  return tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, chunks), Fr::zero(),
      [&](const tbb::blocked_range<std::size_t>& r, Fr sum) {
        for (std::size_t c = r.begin(); c != r.end(); ++c) {
          const std::size_t begin = c * kChunk, end = std::min(coeffs.size(), begin + kChunk);
          Fr acc = Fr::zero();
          for (std::size_t j = end; j-- > begin;) acc = acc * x + coeffs[j];
          sum = sum + acc * x.pow(static_cast<std::uint64_t>(begin));
        }
        return sum;
      },
      [](const Fr& a, const Fr& b) { return a + b; });
}

/// A forward NR transform (coset: of the shifted domain) holds A(shift^coset · ω^k) at position bitrev(k):
/// checked at k = 0, 1, n − 1 and five random k against a direct evaluation of the input polynomial.
void check_forward_nr_by_evaluation(const std::vector<Fr>& input, const Domain& domain, bool coset,
                                    std::uint64_t seed) {
  const std::vector<Fr> output = gpu_ntt(input, domain, NttDirection::forward, NttOrder::NR, coset);
  const std::size_t n = domain.size();
  std::mt19937_64 rng(seed);
  std::vector<std::uint64_t> ks = {0, 1, n - 1};
  for (int i = 0; i < 5; ++i) ks.push_back(rng() % n);
  for (const std::uint64_t k : ks) {
    CAPTURE(k);
    Fr x = domain.omega().pow(k);
    if (coset) x = x * domain.shift();
    CHECK(output[reverse_index(k, domain.log_size())] == evaluate(input, x));
  }
}

void check_h(unsigned log_n, HConvention convention, bool satisfied, const cuda::NttEngine& with = engine()) {
  const Domain domain = Domain::make(log_n, convention);
  const std::uint64_t seed = test_seed();
  CAPTURE(seed);
  CAPTURE(log_n);
  const std::vector<Fr> a = random_vector(seed, domain.size()), b = random_vector(seed + 1, domain.size());
  std::vector<Fr> c = random_vector(seed + 2, domain.size());
  if (satisfied) tbb::parallel_for(std::size_t{0}, c.size(), [&](std::size_t i) { c[i] = a[i] * b[i]; });
  cuda::Stream stream;
  DeviceVector da(domain.size()), db(domain.size()), dc(domain.size());
  da.put(a, stream);
  db.put(b, stream);
  dc.put(c, stream);
  with.enqueue_h(da.buffer.data(), db.buffer.data(), dc.buffer.data(), domain, stream.get());
  const std::vector<Fr> actual = da.get(stream);
  std::vector<Fr> ea = a, eb = b, ec = c;
  cpu::compute_h(ea, eb, ec, domain);
  const std::string what = std::string(convention_name(convention)) + (satisfied ? " satisfied" : " random");
  CAPTURE(what);
  CHECK(count_mismatches(actual, ea) == 0);
  if (satisfied && convention == HConvention::generator7) CHECK(actual.back().is_zero());
}

/// Every direction x order x coset of one fresh random vector against the CPU NTT (NN and RR only when
/// with_bit_reversal).
void check_every_combination(const Domain& domain, const cuda::NttEngine& with, bool with_bit_reversal) {
  const std::uint64_t seed = test_seed();
  CAPTURE(seed);
  const std::vector<Fr> input = random_vector(seed, domain.size());
  for (const NttDirection direction : {NttDirection::forward, NttDirection::inverse})
    for (const NttOrder order : kAllOrders)
      for (const bool coset : {false, true}) {
        if (!with_bit_reversal && (order == NttOrder::NN || order == NttOrder::RR)) continue;
        const std::string what = describe(domain, direction, order, coset);
        CAPTURE(what);
        CHECK(count_mismatches(gpu_ntt(input, domain, direction, order, coset, with),
                               cpu_ntt(input, domain, direction, order, coset)) == 0);
      }
}

}  // namespace

TEST_CASE("gpu/ntt/Fr device arithmetic on limb edge cases equals the host") {
  // Montgomery representations with zero, all-ones and single-bit 32-bit limbs exercise every carry chain.
  std::vector<Fr> values = {Fr::zero(), Fr::one(), -Fr::one(), Fr::from_u64(2), -Fr::from_u64(2)};
  const std::uint64_t patterns[] = {0, 1, 0xffffffffULL, 0x100000000ULL, 0xffffffff00000000ULL, ~0ULL};
  for (const auto p0 : patterns)
    for (const auto p1 : patterns) {
      BigInt<4> x;
      x.limb[0] = p0;
      x.limb[1] = p1;
      x.limb[2] = p0 ^ p1;
      x.limb[3] = p1 & 0x3fffffffffffffffULL;
      if (Fr::is_canonical(x)) values.push_back(Fr::from_montgomery(x));
    }
  const std::uint64_t seed = test_seed();
  CAPTURE(seed);
  std::vector<Fr> random = random_vector(seed, 1 << 16);
  std::vector<Fr> a, b;
  for (const Fr& x : values)
    for (const Fr& y : values) {
      a.push_back(x);
      b.push_back(y);
    }
  for (std::size_t i = 0; i + 1 < random.size(); i += 2) {
    a.push_back(random[i]);
    b.push_back(random[i + 1]);
  }
  const std::vector<Fr> device = gpu_test::fr_ops_on_device(a, b);
  std::size_t bad = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    bad += (device[gpu_test::kFieldOps * i] != a[i] * b[i]) +
           (device[gpu_test::kFieldOps * i + 1] != a[i] + b[i]) +
           (device[gpu_test::kFieldOps * i + 2] != a[i] - b[i]);
  CHECK(bad == 0);
}

TEST_CASE("gpu/ntt/every order direction and coset equals the CPU NTT from 2^10 to 2^20") {
  for (unsigned log_n = 10; log_n <= 20; ++log_n)
    for (const HConvention convention : kAllConventions)
      check_every_combination(Domain::make(log_n, convention), engine(), true);
}

TEST_CASE("gpu/ntt/large sizes equal the CPU NTT and every combination round-trips") {
  std::vector<unsigned> sizes;
  for (unsigned log_n = 21; log_n <= 24; ++log_n) sizes.push_back(log_n);
  sizes.push_back(26);
  for (const unsigned log_n : sizes) {
    if (static_cast<int>(log_n) > max_log_for_tests()) continue;
    for (const HConvention convention : kAllConventions) {
      const Domain domain = Domain::make(log_n, convention);
      const std::uint64_t seed = test_seed();
      CAPTURE(seed);
      const std::vector<Fr> input = random_vector(seed, domain.size());
      struct Combo {
        NttDirection direction;
        NttOrder order;
        bool coset;
      };
      const Combo full[] = {{NttDirection::forward, NttOrder::NR, false},
                            {NttDirection::forward, NttOrder::RN, true},
                            {NttDirection::inverse, NttOrder::NR, true},
                            {NttDirection::inverse, NttOrder::NN, false}};
      // At the largest size one full CPU comparison; the evaluations tie both conventions' forward transforms
      // to the polynomial, and the round trips below then pin down the inverses and the other orders.
      const bool largest = log_n >= 26;
      std::size_t full_count = 4;
      if (largest) {
        full_count = convention == HConvention::generator7 ? 1 : 0;
        for (const bool coset : {false, true}) {
          const std::string what =
              describe(domain, NttDirection::forward, NttOrder::NR, coset) + " evaluated";
          CAPTURE(what);
          check_forward_nr_by_evaluation(input, domain, coset, seed + 7);
        }
      }
      for (const Combo& combo : std::span<const Combo>(full, full_count)) {
        const std::string what = describe(domain, combo.direction, combo.order, combo.coset);
        CAPTURE(what);
        CHECK(count_mismatches(gpu_ntt(input, domain, combo.direction, combo.order, combo.coset),
                               cpu_ntt(input, domain, combo.direction, combo.order, combo.coset)) == 0);
      }
      // Round trips of every order and coset: forward then the inverse with the orders swapped back.
      cuda::Stream stream;
      DeviceVector data(domain.size());
      for (const NttOrder order : kAllOrders)
        for (const bool coset : {false, true}) {
          const NttOrder back = order == NttOrder::NR   ? NttOrder::RN
                                : order == NttOrder::RN ? NttOrder::NR
                                                        : order;
          const std::string what = describe(domain, NttDirection::forward, order, coset) + " then back";
          CAPTURE(what);
          data.put(input, stream);
          engine().enqueue_ntt(data.buffer.data(), domain, NttDirection::forward, order, coset, stream.get());
          engine().enqueue_ntt(data.buffer.data(), domain, NttDirection::inverse, back, coset, stream.get());
          CHECK(count_mismatches(data.get(stream), input) == 0);
        }
    }
  }
}

TEST_CASE("gpu/ntt/H equals the CPU compute_h in both conventions from 2^1 rows") {
  // 2^1 .. 2^9: the one-block H of small domains; from 2^10 the pass kernels.
  for (const unsigned log_n : {1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u, 9u, 10u, 11u, 12u, 16u, 20u, 22u, 24u, 26u}) {
    if (static_cast<int>(log_n) > max_log_for_tests()) continue;
    for (const HConvention convention : kAllConventions) {
      // The CPU H at 2^26 takes most of this case's time: one convention there (the kernels are shared).
      if (log_n >= 26 && convention == HConvention::snarkjs) continue;
      check_h(log_n, convention, false);
      if (log_n <= 20) check_h(log_n, convention, true);
    }
  }
}

TEST_CASE("gpu/ntt/an engine with top diagonals equals the CPU NTT and H") {
  // Two-pass sizes (2^11, 2^16, 2^20: the top diagonal is the only one) and three-pass sizes (2^22, 2^24).
  const int top_max = std::min(max_log_for_tests(), 24);
  cuda::NttEngineOptions options{.max_log_n = std::max(top_max, 22)};
  for (const int log_n : {11, 16, 20, 22, top_max})
    for (const HConvention convention : kAllConventions) options.top_diagonals.push_back({log_n, convention});
  const cuda::NttEngine with_top(0, options);
  const cuda::NttEngine without_top(0, cuda::NttEngineOptions{.max_log_n = options.max_log_n});
  // Both directions of both conventions, 2^n x 32 bytes each, once per size even where a size is named twice.
  const std::set<int> sizes = {11, 16, 20, 22, top_max};
  std::size_t expected_bytes = 0;
  for (const int log_n : sizes) expected_bytes += 2 * 2 * (std::size_t{32} << log_n);
  CHECK(with_top.table_bytes() - without_top.table_bytes() == expected_bytes);

  for (const int log_n : sizes) {
    if (log_n == 20) continue;  // 2^20 is checked through H below
    // Above 2^16 the CPU comparison covers the orders without a bit reversal.
    for (const HConvention convention : kAllConventions)
      check_every_combination(Domain::make(static_cast<unsigned>(log_n), convention), with_top, log_n <= 16);
  }
  for (const HConvention convention : kAllConventions) {
    check_h(16, convention, true, with_top);
    check_h(20, convention, false, with_top);
    check_h(22, convention, false, with_top);
  }
  if (top_max == 24) check_h(24, HConvention::generator7, false, with_top);
}

TEST_CASE("gpu/ntt/an engine with H's full coset tables equals the CPU compute_h") {
  // One pass (2^10), two (2^13, 2^16, 2^20) and three (2^22, 2^24: the inverse's 1/n in the middle
  // diagonal); with and without the top diagonal beside them.
  const int largest = std::min(max_log_for_tests(), 24);
  const std::set<int> sizes = {10, 13, 16, 20, 22, largest};
  cuda::NttEngineOptions options{.max_log_n = std::max(largest, 22)};
  for (const int log_n : sizes)
    for (const HConvention convention : kAllConventions)
      options.h_coset_tables.push_back({log_n, convention});
  options.h_coset_tables.push_back({16, HConvention::snarkjs});  // named twice, built once
  const cuda::NttEngine with_tables(0, options);
  const cuda::NttEngine without_tables(0, cuda::NttEngineOptions{.max_log_n = options.max_log_n});
  // snarkjs one table of n entries, generator7 two.
  std::size_t expected_bytes = 0;
  for (const int log_n : sizes) expected_bytes += 3 * (std::size_t{32} << log_n);
  CHECK(with_tables.table_bytes() - without_tables.table_bytes() == expected_bytes);
  options.top_diagonals.push_back({16, HConvention::generator7});
  options.top_diagonals.push_back({22, HConvention::snarkjs});
  const cuda::NttEngine with_both(0, options);

  for (const int log_n : sizes)
    for (const HConvention convention : kAllConventions) {
      if (log_n == 24 && convention == HConvention::snarkjs) continue;  // the kernels are shared
      check_h(static_cast<unsigned>(log_n), convention, log_n <= 16, with_tables);
    }
  check_h(16, HConvention::generator7, true, with_both);
  check_h(22, HConvention::snarkjs, false, with_both);
}

TEST_CASE("gpu/ntt/full tables outside the engine's sizes are refused") {
  for (const int log_n : {10, 21}) {
    cuda::NttEngineOptions options{.max_log_n = 20};
    options.top_diagonals.push_back({log_n, HConvention::snarkjs});
    CAPTURE(log_n);
    CHECK_THROWS_AS(cuda::NttEngine(0, options), Error);
  }
  for (const int log_n : {9, 21}) {
    cuda::NttEngineOptions options{.max_log_n = 20};
    options.h_coset_tables.push_back({log_n, HConvention::generator7});
    CAPTURE(log_n);
    CHECK_THROWS_AS(cuda::NttEngine(0, options), Error);
  }
}

TEST_CASE("gpu/ntt/sizes outside the engine's range are refused") {
  cuda::Stream stream;
  cuda::DeviceBuffer<Fr> data(1 << 9);
  CHECK_THROWS_AS(engine().enqueue_ntt(data.data(), Domain::make(9, HConvention::generator7),
                                       NttDirection::forward, NttOrder::NR, false, stream.get()),
                  Error);
  CHECK_THROWS_AS(engine().enqueue_ntt(data.data(), Domain::make(28, HConvention::generator7),
                                       NttDirection::forward, NttOrder::NR, false, stream.get()),
                  Error);
  CHECK_THROWS_AS(engine().enqueue_h(data.data(), data.data(), data.data(),
                                     Domain::make(10, HConvention::snarkjs), stream.get()),
                  Error);
}
