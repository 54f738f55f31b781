#include <proofline/memory/host_memory.hpp>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <sstream>
#include <string_view>
#include <vector>

#include <proofline/util/error.hpp>
#include <proofline/util/size.hpp>

namespace proofline::memory {

namespace fs = std::filesystem;

namespace {

// cgroup v1 spells "no limit" as a huge page-rounded number (9223372036854771712 on x86-64).
constexpr std::uint64_t unlimited_threshold = 1ull << 60;

fs::path under(const fs::path& root, const fs::path& absolute) {
  return root / absolute.relative_path();
}

fs::path without_trailing_separator(fs::path path) {
  if (!path.has_filename() && path.has_relative_path()) path = path.parent_path();
  return path;
}

std::optional<std::string> read_text(const fs::path& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::optional<std::uint64_t> parse_u64(std::string_view text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.remove_suffix(1);
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::vector<std::string> split(std::string_view text, char separator) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (;;) {
    const std::size_t pos = text.find(separator, start);
    parts.emplace_back(
        text.substr(start, pos == std::string_view::npos ? std::string_view::npos : pos - start));
    if (pos == std::string_view::npos) return parts;
    start = pos + 1;
  }
}

// mountinfo escapes blanks and backslashes in paths as \ooo.
std::string unescape_octal(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 3 < text.size()) {
      const std::string_view digits = text.substr(i + 1, 3);
      if (std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '7'; })) {
        out.push_back(static_cast<char>((digits[0] - '0') * 64 + (digits[1] - '0') * 8 + (digits[2] - '0')));
        i += 3;
        continue;
      }
    }
    out.push_back(text[i]);
  }
  return out;
}

struct Mount {
  std::string root;         // the subtree of the hierarchy that is mounted
  std::string mount_point;  // where
  std::string fstype;
  std::vector<std::string> super_options;
};

std::vector<Mount> read_mounts(const fs::path& root) {
  std::vector<Mount> mounts;
  const auto text = read_text(under(root, "/proc/self/mountinfo"));
  if (!text) return mounts;
  std::istringstream lines(*text);
  std::string line;
  while (std::getline(lines, line)) {
    const std::size_t dash = line.find(" - ");
    if (dash == std::string::npos) continue;
    const auto head = split(line.substr(0, dash), ' ');
    const auto tail = split(line.substr(dash + 3), ' ');
    if (head.size() < 5 || tail.size() < 3) continue;
    mounts.push_back(Mount{unescape_octal(head[3]), unescape_octal(head[4]), tail[0], split(tail[2], ',')});
  }
  return mounts;
}

// Reads "key value" lines (memory.stat) and returns the value of `key`.
std::optional<std::uint64_t> stat_value(const fs::path& file, std::string_view key) {
  const auto text = read_text(file);
  if (!text) return std::nullopt;
  std::istringstream lines(*text);
  std::string name;
  std::uint64_t value = 0;
  while (lines >> name >> value) {
    if (name == key) return value;
  }
  return std::nullopt;
}

struct CgroupMemory {
  std::optional<std::uint64_t> limit;
  std::uint64_t usage = 0;
  std::string source;
};

// One memory hierarchy (v2, or v1's memory controller): the tightest limit from our cgroup up to the mount
// point, and our cgroup's usage less its inactive file cache (the kernel reclaims that before it OOMs).
CgroupMemory read_hierarchy(const fs::path& root, const Mount& mount, std::string_view cgroup_path, bool v2) {
  CgroupMemory out;
  std::string relative = "/";
  if (cgroup_path.substr(0, mount.root.size()) == mount.root) {
    relative = std::string(cgroup_path.substr(mount.root.size()));
    if (relative.empty() || relative.front() != '/') relative.insert(relative.begin(), '/');
  }
  const fs::path top = without_trailing_separator(under(root, mount.mount_point).lexically_normal());
  fs::path dir = without_trailing_separator((top / fs::path(relative).relative_path()).lexically_normal());
  if (!fs::is_directory(dir)) dir = top;  // a cgroup namespace may hide our path: the mount is our cgroup

  const char* limit_file = v2 ? "memory.max" : "memory.limit_in_bytes";
  const char* usage_file = v2 ? "memory.current" : "memory.usage_in_bytes";
  // A parent's limit binds its children too, so walk up to the top of the hierarchy.
  for (fs::path at = dir;; at = at.parent_path()) {
    if (const auto text = read_text(at / limit_file)) {
      if (const auto value = parse_u64(*text); value && *value < unlimited_threshold) {
        if (!out.limit || *value < *out.limit) {
          out.limit = *value;
          out.source = (v2 ? "cgroup v2 " : "cgroup v1 ") + (at / limit_file).string();
        }
      }
    }
    const fs::path relative_to_top = at.lexically_relative(top);
    if (at == top || relative_to_top.empty() || *relative_to_top.begin() == ".." || at == at.parent_path())
      break;
  }
  if (const auto text = read_text(dir / usage_file)) {
    const std::uint64_t usage = parse_u64(*text).value_or(0);
    const std::uint64_t inactive =
        stat_value(dir / "memory.stat", v2 ? "inactive_file" : "total_inactive_file")
            .value_or(stat_value(dir / "memory.stat", "inactive_file").value_or(0));
    out.usage = usage > inactive ? usage - inactive : 0;
  }
  return out;
}

}  // namespace

HostMemory detect_host_memory(const fs::path& root) {
  HostMemory out;
  const fs::path meminfo = under(root, "/proc/meminfo");
  const auto text = read_text(meminfo);
  if (!text) throw Error(Errc::io, "cannot read " + meminfo.string() + " to size the host memory budget");
  std::optional<std::uint64_t> total, available, free, buffers, cached;
  std::istringstream lines(*text);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    std::string key;
    std::uint64_t kib = 0;
    if (!(fields >> key >> kib)) continue;
    if (key == "MemTotal:")
      total = kib * KiB;
    else if (key == "MemAvailable:")
      available = kib * KiB;
    else if (key == "MemFree:")
      free = kib * KiB;
    else if (key == "Buffers:")
      buffers = kib * KiB;
    else if (key == "Cached:")
      cached = kib * KiB;
  }
  if (!total) throw Error(Errc::io, meminfo.string() + " has no MemTotal line");
  out.mem_total = *total;
  // Kernels before 3.14 lack MemAvailable; free + buffers + page cache is the usual stand-in.
  out.mem_available = available.value_or(free.value_or(0) + buffers.value_or(0) + cached.value_or(0));

  const auto mounts = read_mounts(root);
  const auto cgroups = read_text(under(root, "/proc/self/cgroup"));
  if (cgroups) {
    std::istringstream entries(*cgroups);
    std::string entry;
    while (std::getline(entries, entry)) {
      const std::size_t first = entry.find(':');
      const std::size_t second = entry.find(':', first + 1);
      if (first == std::string::npos || second == std::string::npos) continue;
      const std::string id = entry.substr(0, first);
      const auto controllers = split(std::string_view(entry).substr(first + 1, second - first - 1), ',');
      const std::string path = entry.substr(second + 1);
      const bool v2 = id == "0" && controllers.size() == 1 && controllers[0].empty();
      const bool v1_memory = std::find(controllers.begin(), controllers.end(), "memory") != controllers.end();
      if (!v2 && !v1_memory) continue;
      for (const Mount& mount : mounts) {
        const bool match =
            v2 ? mount.fstype == "cgroup2"
               : mount.fstype == "cgroup" && std::find(mount.super_options.begin(), mount.super_options.end(),
                                                       "memory") != mount.super_options.end();
        if (!match) continue;
        const CgroupMemory cg = read_hierarchy(root, mount, path, v2);
        if (cg.limit && (!out.cgroup_limit || *cg.limit < *out.cgroup_limit)) {
          out.cgroup_limit = cg.limit;
          out.cgroup_usage = cg.usage;
          out.cgroup_source = cg.source;
        }
        break;
      }
    }
  }

  out.usable = out.mem_available;
  if (out.cgroup_limit) {
    const std::uint64_t room =
        *out.cgroup_limit > out.cgroup_usage ? *out.cgroup_limit - out.cgroup_usage : 0;
    out.usable = std::min(out.usable, room);
  }
  return out;
}

std::uint64_t default_host_margin(std::uint64_t usable) noexcept {
  return std::clamp<std::uint64_t>(usable / 16, 512 * MiB, 8 * GiB);
}

std::uint64_t host_budget_bytes(const HostMemory& memory, std::optional<std::uint64_t> margin) {
  const std::uint64_t keep = margin.value_or(default_host_margin(memory.usable));
  if (memory.usable <= keep) {
    throw Error(Errc::out_of_budget, "host memory: only " + format_size(memory.usable) +
                                         " is usable (MemAvailable" +
                                         (memory.cgroup_limit ? ", " + memory.cgroup_source : std::string()) +
                                         "), not more than the margin of " + format_size(keep));
  }
  return memory.usable - keep;
}

}  // namespace proofline::memory
