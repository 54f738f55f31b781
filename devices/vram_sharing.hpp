// How keys resident on one GPU share its VRAM: every key's SRS (and constraint system) first, then as many
// precomputed-window MSM tables as fit beside them. A table is a speed-up; a key that does not fit beside the
// others is evicted and uploaded again whenever its jobs come back, which costs far more than any table
// saves, so tables give way before keys do. Arithmetic only: the pipeline asks the GPU for the bytes and
// carries the plan out.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include <proofline/devices/gpu_lane.hpp>

namespace proofline::devices {

/// One key's claim on a GPU's VRAM.
struct KeyVramClaim {
  /// What the key occupies at each table level (kTopTableLevel): its SRS and constraint system, plus the
  /// level's MSM tables. Non-decreasing in the level.
  std::array<std::uint64_t, kTopTableLevel + 1> bytes{};
  unsigned level = 0;  ///< the highest it keeps: what a resident key holds, what a new key wants
};

/// A key's claim at table level `level` from what it would occupy at each level, made non-decreasing: a level
/// that would take fewer bytes than the one below (queries of unusual sizes) is charged as much.
KeyVramClaim key_vram_claim(unsigned level, const std::array<std::uint64_t, kTopTableLevel + 1>& bytes);

/// Table levels, one per claim and each at most its `level`, whose bytes sum to at most `room`. Levels are
/// given up one at a time, always the step down that frees the most VRAM; among equal steps the claim at the
/// highest level gives one up (its top tables save the least a byte), and then the later claim (list the key
/// being registered last: it yields before the keys already resident, which would be uploaded again). A
/// level given up is taken back where it fits once the rest is given up. nullopt when the claims exceed
/// `room` without any table.
std::optional<std::vector<unsigned>> share_vram_tables(std::span<const KeyVramClaim> claims,
                                                       std::uint64_t room);

}  // namespace proofline::devices
