// How every file proofline writes (.wtns, native keys and constraint systems, snarkjs JSON, the key cache,
// traces, timelines, reports and proofs of the programs) reaches its path. The bytes go to a new temporary
// file beside the destination, which is renamed over it at the end: a reader never sees a half-written file,
// and rename(2) replaces a symbolic link at the destination instead of following it, so no file elsewhere is
// ever written through a link.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include <proofline/util/file_descriptor.hpp>

namespace proofline {

class AtomicOutputFile {
 public:
  /// Creates the temporary file (O_EXCL, O_NOFOLLOW) with permissions `mode` (0644, or 0600 for a witness;
  /// the umask applies). Throws Error(invalid_argument) for a destination with an output_path_problem,
  /// Error(io) when the file cannot be created.
  AtomicOutputFile(const std::filesystem::path& destination, unsigned mode);
  /// Removes the temporary file unless commit() succeeded.
  ~AtomicOutputFile();
  AtomicOutputFile(const AtomicOutputFile&) = delete;
  AtomicOutputFile& operator=(const AtomicOutputFile&) = delete;

  /// Sets the length (a gap reads as zeros).
  void resize(std::uint64_t size);
  void write_at(const void* data, std::uint64_t size, std::uint64_t offset);
  /// Closes the file (after fsync when `sync`) and renames it over the destination.
  void commit(bool sync);

 private:
  std::filesystem::path destination_;
  std::filesystem::path temporary_;
  std::string name_;
  FileDescriptor fd_;
  bool committed_ = false;
};

/// Why `destination` cannot be written as an AtomicOutputFile, as a predicate ("is in /dev, ..."), or
/// nullopt: a file name longer than NAME_MAX; a path in /proc or /dev (but /dev/shm), or a symbolic link into
/// one (as /dev/stdout is), which the rename would replace with a file instead of writing to the stream or
/// device behind it. Nothing is created.
std::optional<std::string> output_path_problem(const std::filesystem::path& destination);

/// Writes `bytes` to `path` through an AtomicOutputFile (no fsync). Throws Error(io) naming the path.
void write_file_atomically(const std::filesystem::path& path, std::string_view bytes, unsigned mode = 0644);

}  // namespace proofline
