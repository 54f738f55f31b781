// Internal: the container of the native format (native_file.hpp describes the layout): writing a header,
// section table and aligned sections atomically, and opening a file image (read into memory, or given) with
// every container-level check done. The kind-specific meaning of params and sections is native_file.cpp's.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <proofline/groth16/native_file.hpp>
#include <proofline/groth16/shared_array.hpp>
#include <proofline/util/error.hpp>

namespace proofline::groth16::detail {

inline constexpr std::array<char, 8> native_magic = {'P', 'R', 'O', 'O', 'F', 'L', 'I', 'N'};
inline constexpr std::uint32_t native_format_version = 1;
inline constexpr std::uint32_t native_curve_bls12_381 = 1;
inline constexpr std::uint64_t native_alignment = 4096;
inline constexpr std::size_t native_param_count = 16;
inline constexpr std::uint32_t native_max_sections = 64;

/// Section ids of every kind (a file holding an id its kind does not use is rejected).
enum SectionId : std::uint32_t {
  pk_fixed = 1,  ///< alpha1, beta1, delta1 (G1), beta2, delta2 (G2)
  pk_a = 2,
  pk_b1 = 3,
  pk_b2 = 4,
  pk_h = 5,
  pk_l = 6,
  vk_fixed = 7,  ///< alpha1 (G1), beta2, gamma2, delta2 (G2)
  vk_ic = 8,
  cs_a_offsets = 16,
  cs_a_columns = 17,
  cs_a_values = 18,
  cs_b_offsets = 19,
  cs_b_columns = 20,
  cs_b_values = 21,
  cs_c_offsets = 22,
  cs_c_columns = 23,
  cs_c_values = 24,
};

/// "the A query", "the row offsets of A", ...; nullptr for an unknown id.
const char* section_name(std::uint32_t id) noexcept;

struct FileHeader {
  char magic[8];
  std::uint32_t version;
  std::uint32_t kind;
  std::uint32_t curve;
  std::uint32_t convention;
  std::uint32_t section_count;
  std::uint32_t alignment;
  std::uint64_t file_size;
  std::uint64_t params[native_param_count];
  std::uint64_t reserved[10];
  std::uint64_t header_checksum;
};
static_assert(sizeof(FileHeader) == 256);

struct SectionEntry {
  std::uint32_t id;
  std::uint32_t element_size;
  std::uint64_t offset;
  std::uint64_t count;
  std::uint64_t bytes;
  std::uint64_t checksum;
  std::uint64_t reserved;
};
static_assert(sizeof(SectionEntry) == 48);

/// 0 none, 1 generator7, 2 snarkjs.
std::uint32_t encode_convention(std::optional<HConvention> convention) noexcept;

/// One section to write: `count` elements of `element_size` bytes at `data`.
struct SectionSource {
  std::uint32_t id;
  std::uint32_t element_size;
  const void* data;
  std::uint64_t count;
};

template <class T>
SectionSource section_source(std::uint32_t id, std::span<const T> elements) {
  return {id, static_cast<std::uint32_t>(sizeof(T)), elements.data(), elements.size()};
}

/// Writes the file atomically (util/atomic_file.hpp: a temporary file in the same directory, fsync, rename;
/// a symbolic link at `path` is replaced, not followed). Throws Error(io).
void write_native_file(const std::filesystem::path& path, NativeKind kind, std::uint32_t convention,
                       const std::array<std::uint64_t, native_param_count>& params,
                       std::span<const SectionSource> sections);

/// A file image whose container has been validated.
class NativeImage {
 public:
  /// Reads `path` into memory the image owns (options.allocate, or page-aligned heap memory) and validates
  /// the container; `kind` must match the header.
  static NativeImage open(const std::filesystem::path& path, NativeKind kind, const LoadOptions& options);
  /// Validates an image already in memory.
  static NativeImage from_memory(std::shared_ptr<const void> owner, std::span<const std::byte> image,
                                 std::string name, NativeKind kind, const LoadOptions& options);

  const FileHeader& header() const noexcept { return *reinterpret_cast<const FileHeader*>(image_.data()); }
  const std::string& name() const noexcept { return name_; }
  std::uint64_t bytes() const noexcept { return image_.size(); }
  std::uint64_t param(std::size_t index) const noexcept { return header().params[index]; }

  const SectionEntry* find(std::uint32_t id) const noexcept;
  /// The section `id` as an array of T: throws Error(bad_input) when it is missing, its element size is not
  /// sizeof(T) or its count is not `expected_count`. `what` names it in messages.
  template <class T>
  SharedArray<T> array(std::uint32_t id, std::uint64_t expected_count, const char* what) const {
    const SectionEntry& entry = require(id, sizeof(T), expected_count, what);
    return SharedArray<T>(
        std::span<const T>(reinterpret_cast<const T*>(image_.data() + entry.offset), entry.count), owner_);
  }
  /// Raw bytes of a section of element size 1 and `expected_bytes` bytes.
  std::span<const std::byte> raw(std::uint32_t id, std::uint64_t expected_bytes, const char* what) const;

  [[noreturn]] void fail(const std::string& what) const;

 private:
  NativeImage(std::shared_ptr<const void> owner, std::span<const std::byte> image, std::string name)
      : owner_(std::move(owner)), image_(image), name_(std::move(name)) {}
  void validate(NativeKind kind, const LoadOptions& options);
  const SectionEntry& require(std::uint32_t id, std::uint64_t element_size, std::uint64_t count,
                              const char* what) const;

  std::shared_ptr<const void> owner_;
  std::span<const std::byte> image_;
  std::string name_;
  std::vector<SectionEntry> sections_;
};

/// Reads magic, version and kind of a file's header (for native_file_kind).
NativeKind read_native_kind(const std::filesystem::path& path);

}  // namespace proofline::groth16::detail
