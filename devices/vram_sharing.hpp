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
  /// What the key occupies with its first t MSM tables (TableQuery order), t = 0..kTableQueries: its SRS and
  /// constraint system, plus those tables. Non-decreasing in t.
  std::array<std::uint64_t, kTableQueries + 1> bytes{};
  unsigned tables = 0;  ///< the most it keeps: what a resident key holds, what a new key wants
};

/// Table counts, one per claim and each at most its `tables`, whose bytes sum to at most `room`. Tables are
/// given up one at a time, always the one that frees the most VRAM (each key's last table first: B2's
/// before L's), ties going to the later claim (list the key being registered last: it yields before the
/// keys already resident, which would be uploaded again). nullopt when the claims exceed `room` without
/// any table.
std::optional<std::vector<unsigned>> share_vram_tables(std::span<const KeyVramClaim> claims,
                                                       std::uint64_t room);

}  // namespace proofline::devices
