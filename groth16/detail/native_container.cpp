#include <proofline/groth16/detail/native_container.hpp>

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include <proofline/groth16/detail/checksum.hpp>
#include <proofline/groth16/detail/input_file.hpp>
#include <proofline/util/atomic_file.hpp>

namespace proofline::groth16::detail {

namespace {

constexpr std::size_t header_checksum_offset = offsetof(FileHeader, header_checksum);

std::uint64_t align_up(std::uint64_t value, std::uint64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

/// XXH64 of the header (checksum field zero) and the section table.
std::uint64_t header_checksum(const std::byte* image, std::uint32_t section_count) {
  const std::size_t length = sizeof(FileHeader) + std::size_t{section_count} * sizeof(SectionEntry);
  std::vector<std::byte> copy(image, image + length);
  std::memset(copy.data() + header_checksum_offset, 0, sizeof(std::uint64_t));
  return xxh64(copy.data(), copy.size(), 0);
}

const char* kind_name(std::uint32_t kind) {
  switch (kind) {
    case static_cast<std::uint32_t>(NativeKind::proving_key):
      return "proving key";
    case static_cast<std::uint32_t>(NativeKind::verifying_key):
      return "verifying key";
    case static_cast<std::uint32_t>(NativeKind::constraint_system):
      return "constraint system";
    default:
      return nullptr;
  }
}

/// Header checks shared by loading and kind probing: everything that does not need the sections. `image`
/// holds the first `available` bytes of a file of `size` bytes.
void check_header(const std::byte* image, std::uint64_t available, std::uint64_t size,
                  const std::string& name) {
  const auto fail = [&](const std::string& what) { throw Error(Errc::bad_input, name + ": " + what); };
  if (available >= native_magic.size() && std::memcmp(image, native_magic.data(), native_magic.size()) != 0)
    fail("not a proofline native file (bad magic)");
  if (size < sizeof(FileHeader))
    fail("truncated: " + std::to_string(size) + " bytes, shorter than the " +
         std::to_string(sizeof(FileHeader)) + "-byte header");
  FileHeader header;
  std::memcpy(&header, image, sizeof header);
  if (header.version != native_format_version)
    fail("format version " + std::to_string(header.version) + " is not supported (this build reads version " +
         std::to_string(native_format_version) + ")");
  if (header.section_count > native_max_sections)
    fail("corrupt header: " + std::to_string(header.section_count) + " sections (at most " +
         std::to_string(native_max_sections) + ")");
  const std::uint64_t table_end =
      sizeof(FileHeader) + std::uint64_t{header.section_count} * sizeof(SectionEntry);
  if (size < table_end)
    fail("truncated: " + std::to_string(size) + " bytes, shorter than its header and section table (" +
         std::to_string(table_end) + " bytes)");
  if (available < table_end) throw Error(Errc::internal, name + ": header prefix too short");
  if (header_checksum(image, header.section_count) != header.header_checksum)
    fail("header checksum mismatch (the header or section table is corrupt)");
  if (header.file_size != size)
    fail("the file is " + std::to_string(size) + " bytes but its header says " +
         std::to_string(header.file_size) + (size < header.file_size ? " (truncated)" : " (trailing data)"));
  if (kind_name(header.kind) == nullptr) fail("unknown file kind " + std::to_string(header.kind));
  if (header.curve != native_curve_bls12_381)
    fail("curve id " + std::to_string(header.curve) + " is not BLS12-381 (1)");
  if (header.alignment != native_alignment)
    fail("section alignment " + std::to_string(header.alignment) + " is not " +
         std::to_string(native_alignment));
}

// A missing or unreadable path is bad input, as for every other format the library reads (a failing
// device is Errc::io).
InputFile open_native_file(const std::filesystem::path& path) {
  return open_input_file(path, "");
}

}  // namespace

const char* section_name(std::uint32_t id) noexcept {
  switch (id) {
    case pk_fixed:
      return "the proving key's fixed points";
    case pk_a:
      return "the A query";
    case pk_b1:
      return "the B1 query";
    case pk_b2:
      return "the B2 query";
    case pk_h:
      return "the H query";
    case pk_l:
      return "the L query";
    case vk_fixed:
      return "the verifying key's fixed points";
    case vk_ic:
      return "the IC points";
    case cs_a_offsets:
      return "the row offsets of A";
    case cs_a_columns:
      return "the columns of A";
    case cs_a_values:
      return "the values of A";
    case cs_b_offsets:
      return "the row offsets of B";
    case cs_b_columns:
      return "the columns of B";
    case cs_b_values:
      return "the values of B";
    case cs_c_offsets:
      return "the row offsets of C";
    case cs_c_columns:
      return "the columns of C";
    case cs_c_values:
      return "the values of C";
    default:
      return nullptr;
  }
}

std::uint32_t encode_convention(std::optional<HConvention> convention) noexcept {
  if (!convention) return 0;
  return *convention == HConvention::generator7 ? 1 : 2;
}

void write_native_file(const std::filesystem::path& path, NativeKind kind, std::uint32_t convention,
                       const std::array<std::uint64_t, native_param_count>& params,
                       std::span<const SectionSource> sections) {
  const std::string name = path.string();
  if (sections.size() > native_max_sections) throw Error(Errc::internal, name + ": too many sections");
  std::vector<SectionEntry> table(sections.size());
  std::uint64_t offset =
      align_up(sizeof(FileHeader) + sections.size() * sizeof(SectionEntry), native_alignment);
  for (std::size_t i = 0; i < sections.size(); ++i) {
    const SectionSource& source = sections[i];
    SectionEntry& entry = table[i];
    entry = SectionEntry{};
    entry.id = source.id;
    entry.element_size = source.element_size;
    entry.offset = offset;
    entry.count = source.count;
    entry.bytes = source.count * source.element_size;
    entry.checksum = section_checksum(source.data, entry.bytes);
    offset = align_up(offset + entry.bytes, native_alignment);
  }
  // The file ends right after the last section (no padding after it).
  const std::uint64_t file_size =
      table.empty() ? sizeof(FileHeader) : table.back().offset + table.back().bytes;

  std::vector<std::byte> head(sizeof(FileHeader) + table.size() * sizeof(SectionEntry));
  FileHeader header{};
  std::memcpy(header.magic, native_magic.data(), native_magic.size());
  header.version = native_format_version;
  header.kind = static_cast<std::uint32_t>(kind);
  header.curve = native_curve_bls12_381;
  header.convention = convention;
  header.section_count = static_cast<std::uint32_t>(table.size());
  header.alignment = native_alignment;
  header.file_size = file_size;
  std::copy(params.begin(), params.end(), header.params);
  std::memcpy(head.data(), &header, sizeof header);
  if (!table.empty())
    std::memcpy(head.data() + sizeof header, table.data(), table.size() * sizeof(SectionEntry));
  header.header_checksum = header_checksum(head.data(), header.section_count);
  std::memcpy(head.data() + header_checksum_offset, &header.header_checksum, sizeof(std::uint64_t));

  AtomicOutputFile out(path, 0644);
  out.resize(file_size);  // the padding between sections reads as zeros
  out.write_at(head.data(), head.size(), 0);
  for (std::size_t i = 0; i < sections.size(); ++i)
    out.write_at(sections[i].data, table[i].bytes, table[i].offset);
  out.commit(/*sync=*/true);
}

NativeImage NativeImage::open(const std::filesystem::path& path, NativeKind kind,
                              const LoadOptions& options) {
  const std::string name = path.string();
  InputFile file = open_native_file(path);
  const std::uint64_t size = file.size;
  if (size == 0) throw Error(Errc::bad_input, name + ": the file is empty");
  // Never a mapping of the file: the loaded object must not change or fault when the file is replaced or
  // truncated while it is in use, so the image is a copy the object owns.
  std::shared_ptr<void> buffer;
  if (options.allocate) {
    buffer = options.allocate(size);
    if (!buffer)
      throw Error(Errc::io,
                  name + ": the allocator returned no memory for " + std::to_string(size) + " bytes");
    if (reinterpret_cast<std::uintptr_t>(buffer.get()) % 64 != 0)
      throw Error(Errc::invalid_argument,
                  name + ": the allocator returned memory that is not 64-byte aligned");
  } else {
    buffer = file_buffer(size, native_alignment, name);
  }
  read_exactly(file.fd.get(), static_cast<std::byte*>(buffer.get()), size, 0, name);
  const auto* data = static_cast<const std::byte*>(buffer.get());
  NativeImage image(std::move(buffer), std::span<const std::byte>(data, size), name);
  image.validate(kind, options);
  return image;
}

NativeImage NativeImage::from_memory(std::shared_ptr<const void> owner, std::span<const std::byte> image,
                                     std::string name, NativeKind kind, const LoadOptions& options) {
  if (reinterpret_cast<std::uintptr_t>(image.data()) % 64 != 0)
    throw Error(Errc::invalid_argument, name + ": the file image is not 64-byte aligned");
  NativeImage out(std::move(owner), image, std::move(name));
  out.validate(kind, options);
  return out;
}

void NativeImage::fail(const std::string& what) const {
  throw Error(Errc::bad_input, name_ + ": " + what);
}

void NativeImage::validate(NativeKind kind, const LoadOptions& options) {
  check_header(image_.data(), image_.size(), image_.size(), name_);
  const FileHeader& head = header();
  if (head.kind != static_cast<std::uint32_t>(kind))
    fail(std::string("this is a ") + kind_name(head.kind) + " file, not a " +
         kind_name(static_cast<std::uint32_t>(kind)));
  sections_.resize(head.section_count);
  if (!sections_.empty())
    std::memcpy(sections_.data(), image_.data() + sizeof(FileHeader),
                sections_.size() * sizeof(SectionEntry));
  const std::uint64_t table_end = sizeof(FileHeader) + sections_.size() * sizeof(SectionEntry);
  for (std::size_t i = 0; i < sections_.size(); ++i) {
    const SectionEntry& entry = sections_[i];
    const char* what = section_name(entry.id);
    if (what == nullptr) fail("unknown section id " + std::to_string(entry.id));
    for (std::size_t j = 0; j < i; ++j)
      if (sections_[j].id == entry.id) fail(std::string(what) + " appears twice");
    if (entry.element_size == 0 || entry.count > entry.bytes / entry.element_size ||
        entry.count * entry.element_size != entry.bytes)
      fail(std::string(what) + ": " + std::to_string(entry.count) + " elements of " +
           std::to_string(entry.element_size) + " bytes do not make " + std::to_string(entry.bytes) +
           " bytes");
    if (entry.offset % native_alignment != 0)
      fail(std::string(what) + ": offset " + std::to_string(entry.offset) + " is not aligned");
    if (entry.offset < table_end || entry.offset > image_.size() ||
        entry.bytes > image_.size() - entry.offset)
      fail(std::string(what) + ": bytes " + std::to_string(entry.offset) + ".." +
           std::to_string(entry.offset) + "+" + std::to_string(entry.bytes) + " lie outside the file's " +
           std::to_string(image_.size()) + " bytes");
  }
  std::vector<const SectionEntry*> by_offset;
  for (const auto& entry : sections_) by_offset.push_back(&entry);
  std::sort(by_offset.begin(), by_offset.end(),
            [](const SectionEntry* x, const SectionEntry* y) { return x->offset < y->offset; });
  for (std::size_t i = 1; i < by_offset.size(); ++i)
    if (by_offset[i - 1]->offset + by_offset[i - 1]->bytes > by_offset[i]->offset)
      fail(std::string(section_name(by_offset[i - 1]->id)) + " overlaps " + section_name(by_offset[i]->id));
  if (!options.verify_checksums) return;
  for (const auto& entry : sections_)
    if (section_checksum(image_.data() + entry.offset, entry.bytes) != entry.checksum)
      fail(std::string(section_name(entry.id)) + ": checksum mismatch (the section is corrupt)");
}

const SectionEntry* NativeImage::find(std::uint32_t id) const noexcept {
  for (const auto& entry : sections_)
    if (entry.id == id) return &entry;
  return nullptr;
}

const SectionEntry& NativeImage::require(std::uint32_t id, std::uint64_t element_size, std::uint64_t count,
                                         const char* what) const {
  const SectionEntry* entry = find(id);
  if (entry == nullptr) fail(std::string(what) + " is missing");
  if (entry->element_size != element_size)
    fail(std::string(what) + ": elements of " + std::to_string(entry->element_size) + " bytes, expected " +
         std::to_string(element_size));
  if (entry->count != count)
    fail(std::string(what) + " has " + std::to_string(entry->count) + " elements, the header says " +
         std::to_string(count));
  return *entry;
}

std::span<const std::byte> NativeImage::raw(std::uint32_t id, std::uint64_t expected_bytes,
                                            const char* what) const {
  const SectionEntry& entry = require(id, 1, expected_bytes, what);
  return image_.subspan(entry.offset, entry.bytes);
}

NativeKind read_native_kind(const std::filesystem::path& path) {
  const InputFile file = open_native_file(path);
  const std::uint64_t size = file.size;
  // The same words as NativeImage::open, whichever of the two looks at the file first.
  if (size == 0) throw Error(Errc::bad_input, path.string() + ": the file is empty");
  const std::uint64_t prefix =
      std::min<std::uint64_t>(size, sizeof(FileHeader) + native_max_sections * sizeof(SectionEntry));
  std::vector<std::byte> head(prefix);
  read_exactly(file.fd.get(), head.data(), prefix, 0, path.string());
  check_header(head.data(), prefix, size, path.string());
  FileHeader header;
  std::memcpy(&header, head.data(), sizeof header);
  return static_cast<NativeKind>(header.kind);
}

}  // namespace proofline::groth16::detail
