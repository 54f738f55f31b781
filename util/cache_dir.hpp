// Where proofline keeps what it can compute again but would rather not: the user's cache folder, as the XDG
// base directory specification defines it.
#pragma once

#include <filesystem>
#include <optional>

namespace proofline {

/// $XDG_CACHE_HOME/proofline, else $HOME/.cache/proofline; nullopt when neither is set to an absolute path
/// (the specification says a relative one is to be ignored). The folder is not created.
std::optional<std::filesystem::path> user_cache_dir();

}  // namespace proofline
