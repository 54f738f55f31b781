// The primitives under the native format and the known-trapdoor setup: XXH64 against vectors from the
// reference library (libxxhash 0.8.1), the chunked section checksum, ChaCha20 against RFC 8439 §2.3.2 (also
// what OpenSSL's chacha20 gives), the DRBG's determinism and trapdoor derivation, and the OS randomness.
#include <doctest/doctest.h>

#include <cstring>
#include <set>
#include <vector>

#include <proofline/groth16/detail/chacha20.hpp>
#include <proofline/groth16/detail/checksum.hpp>
#include <proofline/groth16/os_random.hpp>
#include <proofline/groth16/setup.hpp>

using namespace proofline;
using namespace proofline::groth16;
namespace g16d = proofline::groth16::detail;

TEST_CASE("groth16/checksum/xxh64 matches the reference implementation") {
  const auto range = [](std::size_t n, unsigned mul = 1) {
    std::vector<std::uint8_t> out(n);
    for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<std::uint8_t>(i * mul % 256);
    return out;
  };
  // Computed with XXH64() of libxxhash.so.0 (Debian's xxhash 0.8.1).
  CHECK(g16d::xxh64("", 0, 0) == 0xef46db3751d8e999ULL);
  CHECK(g16d::xxh64("a", 1, 0) == 0xd24ec4f1a98c6e5bULL);
  CHECK(g16d::xxh64("abc", 3, 0) == 0x44bc2cf5ad770999ULL);
  CHECK(g16d::xxh64("", 0, 1) == 0xd5afba1336a3be4bULL);
  CHECK(g16d::xxh64(range(7).data(), 7, 0) == 0x14cc643f630c72d2ULL);
  CHECK(g16d::xxh64(range(31).data(), 31, 0) == 0xc346d2b59b4d8ee1ULL);
  CHECK(g16d::xxh64(range(32).data(), 32, 0) == 0xcbf59c5116ff32b4ULL);
  CHECK(g16d::xxh64(range(100).data(), 100, 12345) == 0x028ba1ae2de4de27ULL);
  CHECK(g16d::xxh64(range(1000, 7).data(), 1000, 0x9E3779B185EBCA87ULL) == 0x01262b6af34ead7dULL);
}

TEST_CASE("groth16/checksum/xxh64 reads no byte outside its data, empty data at a null pointer included") {
  // An empty section's checksum hashes an empty digest list at a null pointer. Under clang's UBSan these
  // stopped at the first tail loop, which formed null + 8 (and pointers past short buffers) to compare.
  CHECK(g16d::xxh64(nullptr, 0, 0) == 0xef46db3751d8e999ULL);
  CHECK(g16d::section_checksum(nullptr, 0) == g16d::xxh64("", 0, 0));
  for (const std::size_t n : {1, 3, 4, 7, 31, 33, 39}) {
    const std::vector<std::uint8_t> exact(n, 0x5a);  // its own allocation, nothing after it
    std::vector<std::uint8_t> padded(n + 64, 0x5a);
    CHECK_MESSAGE(g16d::xxh64(exact.data(), n, 7) == g16d::xxh64(padded.data(), n, 7), n);
  }
}

TEST_CASE("groth16/checksum/section checksum combines chunk digests and sees every byte") {
  const std::size_t size = g16d::checksum_chunk_bytes * 2 + 12345;
  std::vector<std::uint8_t> data(size);
  for (std::size_t i = 0; i < size; ++i) data[i] = static_cast<std::uint8_t>((i * 2654435761u) >> 13);
  const std::uint64_t base = g16d::section_checksum(data.data(), size);
  // The documented definition: XXH64 of the chunk digests, seeded with the byte count.
  std::vector<std::uint64_t> digests;
  for (std::size_t off = 0; off < size; off += g16d::checksum_chunk_bytes)
    digests.push_back(g16d::xxh64(data.data() + off, std::min(g16d::checksum_chunk_bytes, size - off), 0));
  CHECK(base == g16d::xxh64(digests.data(), digests.size() * 8, size));
  CHECK(g16d::section_checksum(nullptr, 0) == g16d::xxh64(nullptr, 0, 0));
  for (const std::size_t at :
       {std::size_t{0}, g16d::checksum_chunk_bytes - 1, g16d::checksum_chunk_bytes, size - 1}) {
    data[at] ^= 0x10;
    CHECK(g16d::section_checksum(data.data(), size) != base);
    data[at] ^= 0x10;
  }
  CHECK(g16d::section_checksum(data.data(), size - 1) != base);
}

TEST_CASE("groth16/drbg/chacha20 block matches RFC 8439") {
  std::array<std::uint32_t, 8> key{};
  for (int i = 0; i < 8; ++i) {
    const std::uint8_t b[4] = {static_cast<std::uint8_t>(4 * i), static_cast<std::uint8_t>(4 * i + 1),
                               static_cast<std::uint8_t>(4 * i + 2), static_cast<std::uint8_t>(4 * i + 3)};
    std::memcpy(&key[i], b, 4);
  }
  const std::array<std::uint32_t, 3> nonce = {0x09000000, 0x4a000000, 0x00000000};
  const auto block = g16d::chacha20_block(key, 1, nonce);
  const std::uint8_t expected[64] = {
      0x10, 0xf1, 0xe7, 0xe4, 0xd1, 0x3b, 0x59, 0x15, 0x50, 0x0f, 0xdd, 0x1f, 0xa3, 0x20, 0x71, 0xc4,
      0xc7, 0xd1, 0xf4, 0xc7, 0x33, 0xc0, 0x68, 0x03, 0x04, 0x22, 0xaa, 0x9a, 0xc3, 0xd4, 0x6c, 0x4e,
      0xd2, 0x82, 0x64, 0x46, 0x07, 0x9f, 0xaa, 0x09, 0x14, 0xc2, 0xd7, 0x05, 0xd9, 0x8b, 0x02, 0xa2,
      0xb5, 0x12, 0x9c, 0xd1, 0xde, 0x16, 0x4e, 0xb9, 0xcb, 0xd0, 0x83, 0xe8, 0xa2, 0x50, 0x3c, 0x4e};
  CHECK(std::memcmp(block.data(), expected, 64) == 0);
}

TEST_CASE("groth16/drbg/streams are deterministic and distinct") {
  g16d::ChaChaDrbg a(42, 0), b(42, 0), c(43, 0), d(42, 1);
  std::vector<std::uint64_t> xa, xb, xc, xd;
  for (int i = 0; i < 40; ++i) {  // crosses block boundaries (8 words per block)
    xa.push_back(a());
    xb.push_back(b());
    xc.push_back(c());
    xd.push_back(d());
  }
  CHECK(xa == xb);
  CHECK(xa != xc);
  CHECK(xa != xd);
  CHECK(std::set<std::uint64_t>(xa.begin(), xa.end()).size() == xa.size());

  const Trapdoor t1 = trapdoor_from_seed(5), t2 = trapdoor_from_seed(5), t3 = trapdoor_from_seed(6);
  CHECK(t1.tau == t2.tau);
  CHECK(t1.delta == t2.delta);
  CHECK(t1.tau != t3.tau);
  CHECK(t1.gamma == Fr::one());
  const Trapdoor tg = trapdoor_from_seed(5, true);
  CHECK_FALSE(tg.gamma.is_one());
  CHECK(tg.tau == t1.tau);  // γ is drawn last
  for (const Fr* x : {&t1.tau, &t1.alpha, &t1.beta, &t1.delta}) CHECK_FALSE(x->is_zero());
}

TEST_CASE("groth16/os_random/draws are reduced and do not repeat") {
  std::set<std::string> seen;
  for (int i = 0; i < 64; ++i) {
    const Fr x = os_random_fr();
    CHECK(Fr::is_canonical(x.montgomery()));
    const auto c = x.canonical();
    seen.insert(std::string(reinterpret_cast<const char*>(c.limb), sizeof c.limb));
  }
  CHECK(seen.size() == 64);
  std::vector<std::uint8_t> bytes(100000);
  os_random_bytes(bytes);
  std::size_t ones = 0;
  for (const auto b : bytes) ones += static_cast<std::size_t>(__builtin_popcount(b));
  // 800000 fair bits: the count of ones is within 6 standard deviations (about 2700) of 400000.
  CHECK(ones > 400000 - 2700);
  CHECK(ones < 400000 + 2700);
}
