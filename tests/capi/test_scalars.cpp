// Scalars at the C ABI's boundary (capi/detail/scalars.hpp) on vectors long enough to be checked and
// converted in parallel: the first scalar not below r is found wherever the chunks fall, r itself is refused
// and r - 1 taken, and the conversion agrees with the field's own.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include <proofline/arith/bn254/fr.hpp>
#include <proofline/arith/fr.hpp>
#include <proofline/capi/detail/scalars.hpp>

using namespace proofline;

namespace {

template <class F>
void put(std::vector<std::uint8_t>& bytes, std::size_t i, const BigInt<4>& value) {
  for (std::size_t b = 0; b < 32; ++b)
    bytes[i * 32 + b] = static_cast<std::uint8_t>(value.limb[b / 8] >> (8 * (b % 8)));
}

template <class F>
void check_field() {
  constexpr std::size_t count = (std::size_t{1} << 16) + 13;  // several parallel chunks and a ragged end
  std::mt19937_64 rng(77);
  std::vector<std::uint8_t> bytes(count * 32);
  std::vector<F> expected(count);
  for (std::size_t i = 0; i < count; ++i) {
    BigInt<4> value;
    do {
      for (auto& limb : value.limb) limb = rng();
    } while (!F::is_canonical(value));
    put<F>(bytes, i, value);
    expected[i] = F::from_canonical(value);
  }
  CHECK(capi::first_non_canonical<F>(bytes.data(), count) == count);
  std::vector<F> out(count);
  capi::scalars_to_fr<F>(bytes.data(), std::span<F>(out));
  CHECK(out == expected);

  BigInt<4> r_minus_1 = F::modulus;
  r_minus_1.limb[0] -= 1;  // r is odd
  put<F>(bytes, count - 1, r_minus_1);
  CHECK(capi::first_non_canonical<F>(bytes.data(), count) == count);
  // Bad scalars in two chunks: the first one counts, whichever chunk is checked first.
  for (const std::size_t late : {count - 1, std::size_t{40000}}) {
    std::vector<std::uint8_t> bad = bytes;
    put<F>(bad, late, F::modulus);
    put<F>(bad, 20000, BigInt<4>{{~0ull, ~0ull, ~0ull, ~0ull}});
    CHECK(capi::first_non_canonical<F>(bad.data(), count) == 20000);
    put<F>(bad, 20000, r_minus_1);
    CHECK(capi::first_non_canonical<F>(bad.data(), count) == late);
  }
}

}  // namespace

TEST_CASE("capi/scalars: long vectors are checked and converted in parallel, BLS12-381 and BN254") {
  check_field<Fr>();
  check_field<bn254::Fr>();
}
