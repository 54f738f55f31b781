// The iden3 binary container that circom and snarkjs use for .r1cs, .wtns, .zkey and .ptau files
// (@iden3/binfileutils). All integers little-endian:
//
//   magic[4] | version u32 | nSections u32 | { sectionType u32 | sectionSize u64 | payload[sectionSize] } ...
//
// Sections may come in any order (circom writes an .r1cs as 2, 1, 3; `groth16 setup` a .zkey as 1, 2, 4, 3,
// 9, ...), so readers find them through the table. Opening a file checks the magic, the version and that
// every section lies inside the file and that nothing follows the last one; a section type that appears twice
// is an error only when a reader asks for it. snarkjs would ignore bytes after the last section, but neither
// it nor circom ever writes any (each file is written to its exact length), so they mean a damaged file, and
// proofline refuses it naming the offset and the byte count.
//
// Opening a file reads every section's payload once, with read(2), into a buffer of its own that views into
// it keep alive: a key loaded from a .zkey stays intact whatever happens to the file afterwards (a file
// truncated under a memory mapping would kill the process with SIGBUS on the next access), and a section
// nobody keeps a view of is freed with the BinFile. Each payload starts its buffer, 64-byte aligned (large
// ones in huge pages: detail/input_file.hpp), so readers use points and field elements in place whatever the
// section's offset in the file; an image given in memory keeps its own alignment, and readers copy what is
// not aligned there. Only regular files are opened: a FIFO, device or directory is refused at once instead of
// blocking. Every failure is Error(Errc::bad_input, "<path>: <what is wrong>"), or Error(Errc::io, ...) when
// the operating system refuses to open or read the file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace proofline::groth16 {

class BinFile {
 public:
  struct Section {
    std::uint32_t type = 0;
    std::uint64_t offset = 0;  ///< of the payload, from the start of the file
    std::uint64_t size = 0;
  };

  /// Reads `path` and parses the container. `magic` is the 4-character kind ("zkey"), `kind` names it in
  /// messages (".zkey"), `version` is the only version accepted.
  static BinFile open(const std::filesystem::path& path, std::string_view magic, std::string_view kind,
                      std::uint32_t version);
  /// The same, reading only the payloads of the section types in `wanted` (a key's small header sections
  /// without its gigabytes of points); the table is checked whole all the same. Asking another section's
  /// payload is an internal error.
  static BinFile open_sections(const std::filesystem::path& path, std::string_view magic,
                               std::string_view kind, std::uint32_t version,
                               std::span<const std::uint32_t> wanted);
  /// The same over an image already in memory (fuzzers, tests, files read by other means): payloads are views
  /// into `image`, and `owner` (may be empty) keeps it alive. `name` stands for the path in messages.
  static BinFile from_memory(std::shared_ptr<const void> owner, std::span<const std::byte> image,
                             std::string name, std::string_view magic, std::string_view kind,
                             std::uint32_t version);

  const std::string& name() const noexcept { return name_; }
  std::uint32_t version() const noexcept { return version_; }
  /// Keeps every payload alive: the `owner` given to from_memory (may be empty), or all the section buffers
  /// of a file that was read. payload_owner keeps one section alive.
  const std::shared_ptr<const void>& owner() const noexcept { return owner_; }
  std::span<const Section> sections() const noexcept { return sections_; }

  /// The section of `type`, or nullptr when there is none. Throws when it appears more than once; `what`
  /// names it in that message ("the coefficients section").
  const Section* find(std::uint32_t type, std::string_view what) const;
  /// Like find, but a missing section is an error too ("no <what> (section N)").
  const Section& require(std::uint32_t type, std::string_view what) const;
  /// The payload of a section of this file.
  std::span<const std::byte> payload(const Section& section) const { return loaded(section).bytes; }
  /// What keeps that payload alive, to share with views into it: its buffer for a file that was read, the
  /// `owner` given to from_memory (possibly empty) for an image in memory.
  const std::shared_ptr<const void>& payload_owner(const Section& section) const {
    return loaded(section).owner;
  }

  /// Throws Error(bad_input, "<name>: <what>").
  [[noreturn]] void fail(const std::string& what) const;

 private:
  struct Payload {
    std::span<const std::byte> bytes;
    std::shared_ptr<const void> owner;
    bool read = true;  ///< false: a section open_sections was not asked for
  };

  BinFile() = default;
  /// `Source` (binfile.cpp) is an image in memory or an open file.
  template <class Source>
  void parse(Source& source, std::string_view magic, std::string_view kind, std::uint32_t version,
             std::span<const std::uint32_t> wanted);
  std::size_t index_of(const Section& section) const;
  const Payload& loaded(const Section& section) const;

  std::shared_ptr<const void> owner_;
  std::string name_;
  std::uint32_t version_ = 0;
  std::vector<Section> sections_;
  std::vector<Payload> payloads_;  ///< one per section
};

/// A bounds-checked little-endian cursor over one section's payload. Reading past its end is
/// Error(bad_input, "<file>: <section>: truncated: <field> ends past the end of the section (N bytes)").
class BinReader {
 public:
  BinReader(const BinFile& file, const BinFile::Section& section, std::string what);

  std::uint32_t u32(std::string_view field);
  std::uint64_t u64(std::string_view field);
  /// The next `count` bytes.
  std::span<const std::byte> bytes(std::uint64_t count, std::string_view field);
  /// The next count × element_size bytes (overflow-safe).
  std::span<const std::byte> array(std::uint64_t count, std::uint64_t element_size, std::string_view field);

  std::uint64_t position() const noexcept { return position_; }
  std::uint64_t remaining() const noexcept { return bytes_.size() - position_; }
  /// Offset of the cursor from the start of the file.
  std::uint64_t file_offset() const noexcept { return offset_ + position_; }
  /// Throws unless every byte was read ("N bytes left over").
  void expect_end() const;

  const std::string& what() const noexcept { return what_; }
  [[noreturn]] void fail(const std::string& message) const;

 private:
  const BinFile* file_;
  std::span<const std::byte> bytes_;
  std::uint64_t offset_ = 0;
  std::uint64_t position_ = 0;
  std::string what_;
};

/// Builds a container (tests, tools, fuzz corpora, and our .wtns writer).
class BinFileWriter {
 public:
  BinFileWriter(std::string_view magic, std::uint32_t version);
  /// Appends a section; sections are written in the order they are added.
  void add_section(std::uint32_t type, std::vector<std::byte> payload);
  std::vector<std::byte> bytes() const;
  /// Writes the file atomically (write_file_atomically). Throws Error(io).
  void write(const std::filesystem::path& path) const;

 private:
  std::string magic_;
  std::uint32_t version_;
  std::vector<std::pair<std::uint32_t, std::vector<std::byte>>> sections_;
};

/// Appends little-endian integers to a payload.
void append_u32(std::vector<std::byte>& out, std::uint32_t value);
void append_u64(std::vector<std::byte>& out, std::uint64_t value);
void append_bytes(std::vector<std::byte>& out, std::span<const std::byte> bytes);

/// Who may read a file the library writes (before the umask applies).
enum class FilePermissions {
  world_readable,  ///< 0644: keys, proofs, public inputs
  owner_only,      ///< 0600: secrets, such as a witness
};

/// Writes bytes to `path` atomically: a new temporary file in the same directory, renamed over `path`, so a
/// reader never sees a partial file and a symbolic link at `path` is replaced, never written through. Throws
/// Error(io).
void write_file_atomically(const std::filesystem::path& path, std::span<const std::byte> bytes,
                           FilePermissions permissions = FilePermissions::world_readable);

}  // namespace proofline::groth16
