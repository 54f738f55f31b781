// How much host RAM this process may really use, for sizing the host Budget when it is not configured.
// Inside a container the machine's MemTotal means little: the cgroup limit is what the OOM killer enforces.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace proofline::memory {

struct HostMemory {
  std::uint64_t mem_total = 0;                ///< /proc/meminfo MemTotal
  std::uint64_t mem_available = 0;            ///< /proc/meminfo MemAvailable
  std::optional<std::uint64_t> cgroup_limit;  ///< tightest memory limit of our cgroup and its ancestors
  std::uint64_t cgroup_usage = 0;  ///< charged to our cgroup now, less reclaimable inactive file cache
  std::string cgroup_source;       ///< the limit file that set cgroup_limit, for logs
  std::uint64_t usable = 0;        ///< min(MemAvailable, cgroup_limit - cgroup_usage)
};

/// Reads /proc/meminfo and the cgroup v2 or v1 memory controller of this process. `root` prefixes every
/// path read (tests point it at a fake tree). Throws Error(io) if /proc/meminfo cannot be read.
HostMemory detect_host_memory(const std::filesystem::path& root = "/");

/// What to leave to the rest of the process and the system: usable/16, at least 512 MiB, at most 8 GiB.
std::uint64_t default_host_margin(std::uint64_t usable) noexcept;

/// The host budget: usable minus the margin (default_host_margin when none is given). Throws
/// Error(out_of_budget) when nothing is left.
std::uint64_t host_budget_bytes(const HostMemory& memory, std::optional<std::uint64_t> margin = std::nullopt);

}  // namespace proofline::memory
