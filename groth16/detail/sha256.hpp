// Internal: SHA-256 (FIPS 180-4), written out here so that the library needs no crypto dependency. The
// compression function uses the x86 SHA extensions when the CPU has them (several times the portable code's
// speed) and portable code otherwise; both give the same digests (tests check them against FIPS 180-4's
// examples).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace proofline::groth16::detail {

using Sha256Digest = std::array<std::uint8_t, 32>;

/// Incremental SHA-256.
class Sha256 {
 public:
  Sha256() noexcept;
  /// portable: never use the SHA extensions.
  explicit Sha256(bool portable) noexcept;
  void update(const void* data, std::size_t size) noexcept;
  void update(std::span<const std::byte> bytes) noexcept { update(bytes.data(), bytes.size()); }
  /// The digest of everything passed to update; the object must not be used afterwards.
  Sha256Digest finish() noexcept;

 private:
  std::uint32_t state_[8];
  std::uint8_t buffer_[64];
  std::size_t buffered_ = 0;
  std::uint64_t total_ = 0;
  bool extensions_ = false;
};

Sha256Digest sha256(const void* data, std::size_t size) noexcept;

/// The same with the portable compression function whatever the CPU has (tests compare the two).
Sha256Digest sha256_portable(const void* data, std::size_t size) noexcept;

/// Whether the SHA extensions are used (for reports).
bool sha256_uses_cpu_extensions() noexcept;

}  // namespace proofline::groth16::detail
