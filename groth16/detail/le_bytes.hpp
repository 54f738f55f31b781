// Internal: little-endian integers and field elements in byte buffers (the iden3 file formats).
#pragma once

#include <cstddef>
#include <cstdint>

#include <proofline/arith/bigint.hpp>

namespace proofline::groth16::detail {

inline std::uint32_t load_u32(const std::byte* p) noexcept {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<std::uint32_t>(p[i]);
  return v;
}

inline std::uint64_t load_u64(const std::byte* p) noexcept {
  return static_cast<std::uint64_t>(load_u32(p)) | static_cast<std::uint64_t>(load_u32(p + 4)) << 32;
}

inline void store_u32(std::byte* p, std::uint32_t v) noexcept {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<std::byte>(v >> (8 * i));
}

inline void store_u64(std::byte* p, std::uint64_t v) noexcept {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<std::byte>(v >> (8 * i));
}

/// An N-limb integer from 8·N little-endian bytes.
template <std::size_t N>
BigInt<N> load_bigint(const std::byte* p) noexcept {
  BigInt<N> out;
  for (std::size_t i = 0; i < N; ++i) out.limb[i] = load_u64(p + 8 * i);
  return out;
}

template <std::size_t N>
void store_bigint(std::byte* p, const BigInt<N>& value) noexcept {
  for (std::size_t i = 0; i < N; ++i) store_u64(p + 8 * i, value.limb[i]);
}

}  // namespace proofline::groth16::detail
