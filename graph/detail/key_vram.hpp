// Internal: a new key's SRS in the GPUs' VRAM. It goes beside the keys already resident where it can, the
// keys sharing the room for MSM tables; only when their SRS do not fit together is an idle key evicted (and
// uploaded again, tables rebuilt, whenever its jobs come back).
#pragma once

#include <span>
#include <string>

#include <proofline/graph/detail/core.hpp>

namespace proofline::graph::detail {

/// The healthy GPUs that may hold the key.
std::vector<devices::GpuLane*> key_lanes(Core& core, const KeyState& key);

/// Puts the key's SRS in VRAM on each of `lanes` whose budget holds it, with its MSM tables (key.table_level)
/// or, where none of the lanes holds them, fewer (a level lower at a time); true if any lane took it.
/// `evict_idle_keys`: idle keys are evicted for the room, least recently used first; otherwise only free
/// VRAM is taken. `why` gets the last shortage. Throws what is not a shortage of VRAM.
bool place_in_vram(std::span<devices::GpuLane* const> lanes, KeyState& key, bool evict_idle_keys,
                   std::string& why);

/// Places a key being registered (not in core.keys yet) beside the keys resident on its GPUs, evicting
/// none: with all its MSM tables where they fit, else sharing the room for tables with the resident keys
/// (devices::share_vram_tables); a resident key that gives up tables is uploaded again with fewer, unless a
/// job is using it (it then keeps them). key.table_level ends at what the key got. False when the keys'
/// SRS do not fit together even without tables: the key is not placed.
bool place_beside_resident_keys(Core& core, KeyState& key, const std::string& what);

/// Logs which MSM tables a placed key holds when that is fewer than `wanted` (a table level).
void log_fewer_tables(const std::string& what, const KeyState& key, unsigned wanted);

/// After a key is removed: the resident keys that hold fewer MSM tables than `wanted` take more where the
/// freed VRAM allows, in registration order, each uploaded again with them (blocks for the uploads and
/// table builds); keys in use keep what they have.
void regrow_tables(Core& core, unsigned wanted);

}  // namespace proofline::graph::detail
