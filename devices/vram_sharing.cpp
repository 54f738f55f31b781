#include <proofline/devices/vram_sharing.hpp>

#include <algorithm>

namespace proofline::devices {

std::optional<std::vector<unsigned>> share_vram_tables(std::span<const KeyVramClaim> claims,
                                                       std::uint64_t room) {
  std::vector<unsigned> tables;
  std::uint64_t bytes = 0;
  tables.reserve(claims.size());
  for (const KeyVramClaim& claim : claims) {
    tables.push_back(std::min(claim.tables, kTableQueries));
    bytes += claim.bytes[tables.back()];
  }
  while (bytes > room) {
    // The table whose removal frees the most; `>=` lets a later claim win a tie.
    std::optional<std::size_t> drop;
    std::uint64_t freed = 0;
    for (std::size_t i = 0; i < claims.size(); ++i) {
      if (tables[i] == 0) continue;
      const std::uint64_t table = claims[i].bytes[tables[i]] - claims[i].bytes[tables[i] - 1];
      if (!drop || table >= freed) {
        drop = i;
        freed = table;
      }
    }
    if (!drop) return std::nullopt;
    --tables[*drop];
    bytes -= freed;
  }
  return tables;
}

}  // namespace proofline::devices
