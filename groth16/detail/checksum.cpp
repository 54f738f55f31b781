#include <proofline/groth16/detail/checksum.hpp>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <vector>

namespace proofline::groth16::detail {

namespace {

static_assert(std::endian::native == std::endian::little,
              "the native format and XXH64 here assume little-endian");

constexpr std::uint64_t p1 = 0x9E3779B185EBCA87ULL;
constexpr std::uint64_t p2 = 0xC2B2AE3D27D4EB4FULL;
constexpr std::uint64_t p3 = 0x165667B19E3779F9ULL;
constexpr std::uint64_t p4 = 0x85EBCA77C2B2AE63ULL;
constexpr std::uint64_t p5 = 0x27D4EB2F165667C5ULL;

inline std::uint64_t read64(const std::uint8_t* p) {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}
inline std::uint32_t read32(const std::uint8_t* p) {
  std::uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

inline std::uint64_t round(std::uint64_t acc, std::uint64_t input) {
  acc += input * p2;
  acc = std::rotl(acc, 31);
  return acc * p1;
}

inline std::uint64_t merge_round(std::uint64_t acc, std::uint64_t value) {
  acc ^= round(0, value);
  return acc * p1 + p4;
}

}  // namespace

std::uint64_t xxh64(const void* data, std::size_t size, std::uint64_t seed) noexcept {
  const auto* p = static_cast<const std::uint8_t*>(data);
  const std::uint8_t* const end = p + size;
  std::uint64_t h;
  if (size >= 32) {
    std::uint64_t v1 = seed + p1 + p2, v2 = seed + p2, v3 = seed, v4 = seed - p1;
    const std::uint8_t* const limit = end - 32;
    do {
      v1 = round(v1, read64(p));
      v2 = round(v2, read64(p + 8));
      v3 = round(v3, read64(p + 16));
      v4 = round(v4, read64(p + 24));
      p += 32;
    } while (p <= limit);
    h = std::rotl(v1, 1) + std::rotl(v2, 7) + std::rotl(v3, 12) + std::rotl(v4, 18);
    h = merge_round(h, v1);
    h = merge_round(h, v2);
    h = merge_round(h, v3);
    h = merge_round(h, v4);
  } else {
    h = seed + p5;
  }
  h += static_cast<std::uint64_t>(size);
  // What is left is compared, not p + 8 with end: a pointer past the end of the data (or null plus 8, for
  // no data at all, as an empty section's checksum passes) is undefined even when only compared.
  while (end - p >= 8) {
    h ^= round(0, read64(p));
    h = std::rotl(h, 27) * p1 + p4;
    p += 8;
  }
  if (end - p >= 4) {
    h ^= static_cast<std::uint64_t>(read32(p)) * p1;
    h = std::rotl(h, 23) * p2 + p3;
    p += 4;
  }
  while (p < end) {
    h ^= static_cast<std::uint64_t>(*p) * p5;
    h = std::rotl(h, 11) * p1;
    ++p;
  }
  h ^= h >> 33;
  h *= p2;
  h ^= h >> 29;
  h *= p3;
  h ^= h >> 32;
  return h;
}

std::uint64_t section_checksum(const void* data, std::size_t size) {
  const auto* bytes = static_cast<const std::uint8_t*>(data);
  const std::size_t chunks = (size + checksum_chunk_bytes - 1) / checksum_chunk_bytes;
  std::vector<std::uint64_t> digests(chunks);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, chunks, 1),
                    [&](const tbb::blocked_range<std::size_t>& r) {
                      for (std::size_t i = r.begin(); i < r.end(); ++i) {
                        const std::size_t offset = i * checksum_chunk_bytes;
                        const std::size_t length = std::min(checksum_chunk_bytes, size - offset);
                        digests[i] = xxh64(bytes + offset, length, 0);
                      }
                    });
  return xxh64(digests.data(), digests.size() * sizeof(std::uint64_t), static_cast<std::uint64_t>(size));
}

}  // namespace proofline::groth16::detail
