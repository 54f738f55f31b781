// The device Fp arithmetic (arith/detail/fp_mul_device.cuh) run on the host through an emulated PTX
// carry flag: it must equal the portable MontField operations bit for bit, and no carry that the algorithm
// assumes impossible (madc.hi / addc without carry out, the final addition) may ever be dropped. The GPU
// suite repeats the comparison on the device with the real PTX.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <vector>

#include <proofline/arith/detail/fp_mul_device.cuh>
#include <proofline/arith/fp.hpp>
#include <proofline/arith/fp2.hpp>
#include <proofline/arith/random.hpp>

using namespace proofline;
using namespace proofline::detail;

namespace {

/// PTX integer carry semantics: .cc writes CC.CF, the c-forms read it; sub.cc writes the borrow. Operations
/// without .cc that would carry out count as dropped carries.
struct EmulatedCarryOps {
  std::uint32_t cf = 0;
  std::uint64_t dropped = 0;

  static std::uint64_t wide(std::uint32_t a, std::uint32_t b) { return std::uint64_t{a} * b; }
  void set(std::uint32_t& d, std::uint64_t sum, bool keep_flag) {
    d = static_cast<std::uint32_t>(sum);
    if (keep_flag) {
      cf = static_cast<std::uint32_t>(sum >> 32);
    } else {
      dropped += (sum >> 32) != 0;
    }
  }
  void mul_lo(std::uint32_t& d, std::uint32_t a, std::uint32_t b) {
    d = static_cast<std::uint32_t>(wide(a, b));
  }
  void mul_hi(std::uint32_t& d, std::uint32_t a, std::uint32_t b) {
    d = static_cast<std::uint32_t>(wide(a, b) >> 32);
  }
  void mad_lo_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    set(d, (wide(a, b) & 0xffffffffu) + c, true);
  }
  void madc_lo_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    set(d, (wide(a, b) & 0xffffffffu) + c + cf, true);
  }
  void madc_hi_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    set(d, (wide(a, b) >> 32) + c + cf, true);
  }
  void madc_hi(std::uint32_t& d, std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    set(d, (wide(a, b) >> 32) + c + cf, false);
  }
  void add_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b) { set(d, std::uint64_t{a} + b, true); }
  void addc_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b) {
    set(d, std::uint64_t{a} + b + cf, true);
  }
  void addc(std::uint32_t& d, std::uint32_t a, std::uint32_t b) { set(d, std::uint64_t{a} + b + cf, false); }
  void sub_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b) {
    d = a - b;
    cf = a < b;
  }
  void subc_cc(std::uint32_t& d, std::uint32_t a, std::uint32_t b) {
    const std::uint64_t subtrahend = std::uint64_t{b} + cf;
    d = static_cast<std::uint32_t>(a - subtrahend);
    cf = a < subtrahend;
  }
  void subc(std::uint32_t& d, std::uint32_t a, std::uint32_t b) {
    const std::uint64_t subtrahend = std::uint64_t{b} + cf;
    d = static_cast<std::uint32_t>(a - subtrahend);
  }
};

enum class Op { mul, sqr, add, sub };

Fp run_emulated(Op op, const Fp& a, const Fp& b, EmulatedCarryOps& ops) {
  std::uint32_t x[fp32::kLimbs], y[fp32::kLimbs], z[fp32::kLimbs];
  fp32::split_limbs(x, a.limb);
  fp32::split_limbs(y, b.limb);
  switch (op) {
    case Op::mul:
      fp32::mont_mul(ops, z, x, y);
      break;
    case Op::sqr:
      fp32::mont_sqr(ops, z, x);
      break;
    case Op::add:
      fp32::mod_add(ops, z, x, y);
      break;
    case Op::sub:
      fp32::mod_sub(ops, z, x, y);
      break;
  }
  Fp out;
  fp32::join_limbs(out.limb, z);
  return out;
}

/// Values near the edges: 0, 1, 2, p-1, p-2, R mod p (Montgomery one), limbs all ones below the top, ...
std::vector<Fp> edge_values() {
  std::vector<Fp> values = {Fp::zero(), Fp::one(), -Fp::one(), Fp::from_u64(2), -Fp::from_u64(2)};
  for (std::uint64_t k : {1ull, 2ull, 3ull, 0xffffffffull}) {
    Fp::Int raw = Fp::modulus;
    raw.sub_in_place(Fp::Int::from_u64(k));
    values.push_back(Fp::from_montgomery(raw));  // raw Montgomery limbs p - k
    values.push_back(Fp::from_montgomery(Fp::Int::from_u64(k)));
  }
  Fp::Int ones;
  for (std::size_t i = 0; i + 1 < Fp::N; ++i) ones.limb[i] = ~std::uint64_t{0};
  values.push_back(Fp::from_montgomery(ones));
  return values;
}

}  // namespace

TEST_CASE("gpu_host/fp_device/limbs of p match FpParams") {
  for (int k = 0; k < fp32::kLimbs; ++k) {
    CHECK(fp32::p_limb(k) == static_cast<std::uint32_t>(Fp::modulus.limb[k / 2] >> (32 * (k % 2))));
  }
  CHECK(fp32::kM0 == static_cast<std::uint32_t>(Fp::inv));
}

TEST_CASE("gpu_host/fp_device/emulated mul sqr add sub equal MontField and drop no carry") {
  std::random_device source;
  const std::uint64_t seed = (static_cast<std::uint64_t>(source()) << 32) | source();
  CAPTURE(seed);
  std::mt19937_64 rng(seed);
  std::vector<Fp> values = edge_values();
  const std::size_t edges = values.size();
  while (values.size() < edges + 400) values.push_back(random_field<Fp>(rng));

  EmulatedCarryOps ops;
  std::size_t mismatches = 0, checked = 0;
  // Subtraction wraps on purpose (a - b + 2^384 + p drops 2^384), so only mul, sqr and add are watched for
  // drops.
  EmulatedCarryOps sub_ops;
  auto check = [&](const Fp& a, const Fp& b) {
    mismatches += run_emulated(Op::mul, a, b, ops) != a * b;
    mismatches += run_emulated(Op::sqr, a, a, ops) != a * a;
    mismatches += run_emulated(Op::add, a, b, ops) != a + b;
    mismatches += run_emulated(Op::sub, a, b, sub_ops) != a - b;
    checked += 4;
  };
  for (const Fp& a : values) {
    for (std::size_t j = 0; j < edges; ++j) check(a, values[j]);
  }
  for (int i = 0; i < 20000; ++i) check(random_field<Fp>(rng), random_field<Fp>(rng));
  // Chains of products keep outputs as inputs (any value below p may appear).
  Fp chain = random_field<Fp>(rng);
  for (int i = 0; i < 5000; ++i) {
    const Fp next = run_emulated(Op::mul, chain, chain, ops);
    mismatches += next != chain * chain;
    mismatches += run_emulated(Op::sqr, chain, chain, ops) != next;
    chain = next + Fp::one();
  }
  CAPTURE(checked);
  CHECK(mismatches == 0);
  CHECK(ops.dropped == 0);
}

TEST_CASE("gpu_host/fp_device/emulated lazy Karatsuba Fp2 product equals Fp2 and drops no carry") {
  std::random_device source;
  const std::uint64_t seed = (static_cast<std::uint64_t>(source()) << 32) | source();
  CAPTURE(seed);
  std::mt19937_64 rng(seed);
  const std::vector<Fp> edges = edge_values();
  std::vector<Fp2> values;
  for (const Fp& x : edges) {
    values.push_back({x, Fp::zero()});
    values.push_back({Fp::zero(), x});
    values.push_back({x, -Fp::one()});
    values.push_back({-Fp::one(), x});
  }
  while (values.size() < 600) values.push_back({random_field<Fp>(rng), random_field<Fp>(rng)});
  EmulatedCarryOps ops;
  std::size_t mismatches = 0;
  auto check = [&](const Fp2& a, const Fp2& b) {
    std::uint32_t a0[fp32::kLimbs], a1[fp32::kLimbs], b0[fp32::kLimbs], b1[fp32::kLimbs];
    std::uint32_t c0[fp32::kLimbs], c1[fp32::kLimbs];
    fp32::split_limbs(a0, a.c0.limb);
    fp32::split_limbs(a1, a.c1.limb);
    fp32::split_limbs(b0, b.c0.limb);
    fp32::split_limbs(b1, b.c1.limb);
    fp32::fp2_mul(ops, c0, c1, a0, a1, b0, b1);
    Fp2 out;
    fp32::join_limbs(out.c0.limb, c0);
    fp32::join_limbs(out.c1.limb, c1);
    mismatches += out != a * b;
  };
  for (std::size_t i = 0; i < values.size(); ++i) {
    for (std::size_t j = 0; j < 4 * edges.size(); ++j) check(values[i], values[j]);
  }
  for (int i = 0; i < 20000; ++i) check(values[rng() % values.size()], values[rng() % values.size()]);
  CHECK(mismatches == 0);
  CHECK(ops.dropped == 0);
}
