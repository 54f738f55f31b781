#include <proofline/devices/vram_sharing.hpp>

#include <algorithm>

namespace proofline::devices {

KeyVramClaim key_vram_claim(unsigned level, const std::array<std::uint64_t, kTopTableLevel + 1>& bytes) {
  KeyVramClaim claim;
  claim.level = std::min(level, kTopTableLevel);
  claim.bytes[0] = bytes[0];
  for (unsigned l = 1; l <= kTopTableLevel; ++l) claim.bytes[l] = std::max(bytes[l], claim.bytes[l - 1]);
  return claim;
}

std::optional<std::vector<unsigned>> share_vram_tables(std::span<const KeyVramClaim> claims,
                                                       std::uint64_t room) {
  std::vector<unsigned> levels;
  std::uint64_t bytes = 0;
  levels.reserve(claims.size());
  for (const KeyVramClaim& claim : claims) {
    levels.push_back(std::min(claim.level, kTopTableLevel));
    bytes += claim.bytes[levels.back()];
  }
  while (bytes > room) {
    // The step down that frees the most; on ties the highest level, then the later claim (`>=`).
    std::optional<std::size_t> drop;
    std::uint64_t freed = 0;
    for (std::size_t i = 0; i < claims.size(); ++i) {
      if (levels[i] == 0) continue;
      const std::uint64_t step = claims[i].bytes[levels[i]] - claims[i].bytes[levels[i] - 1];
      if (!drop || step > freed || (step == freed && levels[i] >= levels[*drop])) {
        drop = i;
        freed = step;
      }
    }
    if (!drop) return std::nullopt;
    --levels[*drop];
    bytes -= freed;
  }
  // A large step given up last can leave room for smaller ones given up before it (a key's H table larger
  // than its others): those that fit come back, the keys listed first first.
  for (std::size_t i = 0; i < claims.size(); ++i) {
    const unsigned held = std::min(claims[i].level, kTopTableLevel);
    while (levels[i] < held && bytes + claims[i].bytes[levels[i] + 1] - claims[i].bytes[levels[i]] <= room) {
      bytes += claims[i].bytes[levels[i] + 1] - claims[i].bytes[levels[i]];
      ++levels[i];
    }
  }
  return levels;
}

}  // namespace proofline::devices
