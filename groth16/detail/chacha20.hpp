// Internal: the ChaCha20 block function (RFC 8439) and a deterministic random bit generator built on it, for
// the known-trapdoor setup. Seeded from a 64-bit number, its output is as public as the seed: keys made from
// it are for tests and benchmarks only, never for production.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace proofline::groth16::detail {

/// One 64-byte ChaCha20 block: key (8 words), block counter, nonce (3 words), as RFC 8439 §2.3.
std::array<std::uint8_t, 64> chacha20_block(const std::array<std::uint32_t, 8>& key, std::uint32_t counter,
                                            const std::array<std::uint32_t, 3>& nonce) noexcept;

/// The ChaCha20 keystream under key = (seed, a fixed label) and nonce = (stream, 0), read as little-endian
/// 64-bit words. A UniformRandomBitGenerator, so random_field<Fr>(drbg) draws field elements from it.
class ChaChaDrbg {
 public:
  using result_type = std::uint64_t;

  ChaChaDrbg(std::uint64_t seed, std::uint64_t stream) noexcept;

  static constexpr result_type min() noexcept { return 0; }
  static constexpr result_type max() noexcept { return ~result_type{0}; }
  result_type operator()() noexcept;

 private:
  std::array<std::uint32_t, 8> key_{};
  std::array<std::uint32_t, 3> nonce_{};
  std::uint32_t counter_ = 0;
  std::array<std::uint8_t, 64> block_{};
  std::size_t used_ = 64;
};

}  // namespace proofline::groth16::detail
