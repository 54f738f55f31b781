// Builds what `circom --c` generates (CIRCUIT_cpp/: calcwit, fr, fr.asm, the circuit's .cpp and .dat) into a
// shared object proofline can dlopen, once: the result is cached under a digest of the folder's files (and of
// proofline's shim), so a second run, or another process, finds it ready. The build runs the system g++ and
// nasm in a fresh folder inside the cache and renames it into place, so a reader never sees half a build and
// two builders racing both end with one complete copy.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>

namespace proofline::circom {

struct BuildOptions {
  /// Where built generators are kept; default $XDG_CACHE_HOME/proofline, else ~/.cache/proofline.
  std::optional<std::filesystem::path> cache_dir;
  std::string compiler = "g++";
  std::string assembler = "nasm";
  /// Polled while a tool runs: when it says so, the build is abandoned (the tool killed, its folder removed)
  /// with Error(cancelled). A program stopped by SIGINT/SIGTERM leaves no half-built generator behind.
  std::function<bool()> stop_requested;
};

/// A built generator: the shared object and the circuit's .dat beside it.
struct BuiltGenerator {
  std::string circuit_name;  ///< "multiplier" for multiplier_cpp/
  std::filesystem::path library;
  std::filesystem::path dat;
  bool from_cache = false;  ///< found built, not built now
};

/// The cache folder `options` names (not created).
std::filesystem::path cache_dir(const BuildOptions& options);

/// The generated folder's files as the build needs them, checked: Error(bad_input) naming a missing file or
/// a folder that is not circom's --c output.
std::string circuit_name_of(const std::filesystem::path& cpp_dir);

/// Builds (or finds built) the generator of `cpp_dir`. Error(bad_input) for a folder that is not circom's
/// output, Error(io) when the cache cannot be written or the compiler fails (with the end of its output).
BuiltGenerator build_generator(const std::filesystem::path& cpp_dir, const BuildOptions& options = {});

}  // namespace proofline::circom
