#include <proofline/groth16/detail/chacha20.hpp>

#include <bit>
#include <cstring>

namespace proofline::groth16::detail {

namespace {

inline void quarter_round(std::uint32_t* s, int a, int b, int c, int d) {
  s[a] += s[b];
  s[d] = std::rotl(s[d] ^ s[a], 16);
  s[c] += s[d];
  s[b] = std::rotl(s[b] ^ s[c], 12);
  s[a] += s[b];
  s[d] = std::rotl(s[d] ^ s[a], 8);
  s[c] += s[d];
  s[b] = std::rotl(s[b] ^ s[c], 7);
}

}  // namespace

std::array<std::uint8_t, 64> chacha20_block(const std::array<std::uint32_t, 8>& key, std::uint32_t counter,
                                            const std::array<std::uint32_t, 3>& nonce) noexcept {
  std::uint32_t state[16] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};  // "expand 32-byte k"
  for (int i = 0; i < 8; ++i) state[4 + i] = key[i];
  state[12] = counter;
  for (int i = 0; i < 3; ++i) state[13 + i] = nonce[i];
  std::uint32_t work[16];
  std::memcpy(work, state, sizeof state);
  for (int i = 0; i < 10; ++i) {
    quarter_round(work, 0, 4, 8, 12);
    quarter_round(work, 1, 5, 9, 13);
    quarter_round(work, 2, 6, 10, 14);
    quarter_round(work, 3, 7, 11, 15);
    quarter_round(work, 0, 5, 10, 15);
    quarter_round(work, 1, 6, 11, 12);
    quarter_round(work, 2, 7, 8, 13);
    quarter_round(work, 3, 4, 9, 14);
  }
  std::array<std::uint8_t, 64> out{};
  for (int i = 0; i < 16; ++i) {
    const std::uint32_t word = work[i] + state[i];
    for (int j = 0; j < 4; ++j) out[4 * i + j] = static_cast<std::uint8_t>(word >> (8 * j));
  }
  return out;
}

ChaChaDrbg::ChaChaDrbg(std::uint64_t seed, std::uint64_t stream) noexcept {
  // Key words 2..7 are a fixed label, so these streams never coincide with another use of ChaCha20 keyed by
  // a bare 64-bit number.
  constexpr char label[] = "proofline known-trapdoor";  // 24 bytes + NUL
  key_[0] = static_cast<std::uint32_t>(seed);
  key_[1] = static_cast<std::uint32_t>(seed >> 32);
  for (int i = 0; i < 6; ++i) std::memcpy(&key_[2 + i], label + 4 * i, 4);
  nonce_ = {static_cast<std::uint32_t>(stream), static_cast<std::uint32_t>(stream >> 32), 0};
}

ChaChaDrbg::result_type ChaChaDrbg::operator()() noexcept {
  if (used_ == block_.size()) {
    block_ = chacha20_block(key_, counter_++, nonce_);
    used_ = 0;
  }
  std::uint64_t word = 0;
  for (int j = 0; j < 8; ++j) word |= static_cast<std::uint64_t>(block_[used_ + j]) << (8 * j);
  used_ += 8;
  return word;
}

}  // namespace proofline::groth16::detail
