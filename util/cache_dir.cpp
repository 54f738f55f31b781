#include <proofline/util/cache_dir.hpp>

#include <cstdlib>

namespace proofline {

std::optional<std::filesystem::path> user_cache_dir() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg == '/')
    return std::filesystem::path(xdg) / "proofline";
  if (const char* home = std::getenv("HOME"); home != nullptr && *home == '/')
    return std::filesystem::path(home) / ".cache" / "proofline";
  return std::nullopt;
}

}  // namespace proofline
