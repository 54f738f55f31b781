#include <proofline/groth16/binfile.hpp>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <utility>

#include <proofline/groth16/detail/input_file.hpp>
#include <proofline/groth16/detail/le_bytes.hpp>
#include <proofline/util/atomic_file.hpp>
#include <proofline/util/error.hpp>

namespace proofline::groth16 {

namespace {

constexpr std::uint64_t header_bytes = 12;
constexpr std::uint64_t table_entry_bytes = 12;
// Payload buffers are aligned for every point and field type the readers view them as.
constexpr std::size_t payload_alignment = 64;

std::string printable(std::span<const std::byte> bytes) {
  std::string out;
  for (const std::byte b : bytes) {
    const auto ch = static_cast<unsigned char>(b);
    if (ch >= 0x20 && ch < 0x7f) {
      out += static_cast<char>(ch);
    } else {
      static const char* hex = "0123456789abcdef";
      out += "\\x";
      out += hex[ch >> 4];
      out += hex[ch & 15];
    }
  }
  return out;
}

/// Whether the file's first bytes open JSON text (after white space): a snarkjs JSON export, circuit inputs
/// or a witness.json given where a binary file belongs.
bool starts_like_json(std::span<const std::byte> head) {
  for (const std::byte b : head) {
    const auto ch = static_cast<char>(b);
    if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r') continue;
    return ch == '{' || ch == '[';
  }
  return false;
}

// The two places the container's bytes come from, for BinFile::parse: an image in memory (payloads are views
// into it) or an open file (payloads are read into buffers of their own).

struct PayloadBytes {
  std::span<const std::byte> bytes;
  std::shared_ptr<const void> owner;
};

class MemorySource {
 public:
  MemorySource(std::shared_ptr<const void> owner, std::span<const std::byte> image)
      : owner_(std::move(owner)), image_(image) {}
  std::uint64_t size() const { return image_.size(); }
  /// Copies `count` bytes at `offset`; the caller keeps offset + count <= size().
  void read(std::uint64_t offset, std::byte* out, std::size_t count) const {
    std::memcpy(out, image_.data() + offset, count);
  }
  PayloadBytes payload(std::uint64_t offset, std::uint64_t count) const {
    return {image_.subspan(offset, count), owner_};
  }

 private:
  std::shared_ptr<const void> owner_;
  std::span<const std::byte> image_;
};

class FileSource {
 public:
  FileSource(detail::InputFile file, std::string name) : file_(std::move(file)), name_(std::move(name)) {}
  std::uint64_t size() const { return file_.size; }
  void read(std::uint64_t offset, std::byte* out, std::size_t count) const {
    detail::read_exactly(file_.fd.get(), out, count, offset, name_);
  }
  /// The payload read once, straight into the start of a new buffer (aligned for every point and field
  /// type), where readers use it in place whatever its offset in the file.
  PayloadBytes payload(std::uint64_t offset, std::uint64_t count) const {
    if (count == 0) return {};
    std::shared_ptr<void> buffer = detail::file_buffer(count, payload_alignment, name_ + ": a section");
    auto* bytes = static_cast<std::byte*>(buffer.get());
    detail::read_exactly(file_.fd.get(), bytes, count, offset, name_);
    return {std::span<const std::byte>(bytes, count), std::move(buffer)};
  }

 private:
  detail::InputFile file_;
  std::string name_;
};

}  // namespace

BinFile BinFile::open(const std::filesystem::path& path, std::string_view magic, std::string_view kind,
                      std::uint32_t version) {
  return open_sections(path, magic, kind, version, {});
}

BinFile BinFile::open_sections(const std::filesystem::path& path, std::string_view magic,
                               std::string_view kind, std::uint32_t version,
                               std::span<const std::uint32_t> wanted) {
  const std::string name = path.string();
  detail::InputFile input = detail::open_input_file(path, "the " + std::string(kind) + " file");
  if (input.size == 0)
    throw Error(Errc::bad_input,
                name + ": truncated: the file is empty (not a " + std::string(kind) + " file)");
  FileSource source(std::move(input), name);
  BinFile file;
  file.name_ = name;
  file.parse(source, magic, kind, version, wanted);
  auto buffers = std::make_shared<std::vector<std::shared_ptr<const void>>>();
  for (const Payload& payload : file.payloads_) buffers->push_back(payload.owner);
  file.owner_ = std::move(buffers);
  return file;
}

BinFile BinFile::from_memory(std::shared_ptr<const void> owner, std::span<const std::byte> image,
                             std::string name, std::string_view magic, std::string_view kind,
                             std::uint32_t version) {
  MemorySource source(owner, image);
  BinFile file;
  file.owner_ = std::move(owner);
  file.name_ = std::move(name);
  file.parse(source, magic, kind, version, {});
  return file;
}

template <class Source>
void BinFile::parse(Source& source, std::string_view magic, std::string_view kind, std::uint32_t version,
                    std::span<const std::uint32_t> wanted) {
  const std::uint64_t size = source.size();
  std::byte head[header_bytes];
  source.read(0, head, static_cast<std::size_t>(std::min(size, header_bytes)));
  if (size < 4 || std::memcmp(head, magic.data(), 4) != 0) {
    const std::span<const std::byte> read(head, static_cast<std::size_t>(std::min(size, header_bytes)));
    if (starts_like_json(read))
      fail("not a " + std::string(kind) +
           " file: it holds JSON text (circuit inputs, or a snarkjs export?), " +
           "not the binary format that starts with \"" + std::string(magic) + "\"");
    // (Built with append: GCC 12 warns falsely (-Wrestrict) about "literal" + std::string&& here.)
    std::string found = size < 4 ? std::string("only ").append(std::to_string(size)).append(" bytes")
                                 : std::string("\"").append(printable(std::span(head, 4))).append("\"");
    fail("not a " + std::string(kind) + " file (wrong magic: " + found + ", expected \"" +
         std::string(magic) + "\")");
  }
  if (size < header_bytes)
    fail("truncated: the file header needs 12 bytes, the file has " + std::to_string(size));
  version_ = detail::load_u32(head + 4);
  if (version_ != version)
    fail("unsupported " + std::string(kind) + " version " + std::to_string(version_) + " (expected " +
         std::to_string(version) + ")");
  const std::uint32_t count = detail::load_u32(head + 8);
  // Every section takes at least its 12-byte table entry, so a count the file cannot hold is truncation; the
  // loop below stops there without trusting the count for a reservation.
  std::uint64_t offset = header_bytes;
  const auto most =
      static_cast<std::size_t>(std::min<std::uint64_t>(count, (size - header_bytes) / table_entry_bytes));
  sections_.reserve(most);
  payloads_.reserve(most);
  for (std::uint32_t i = 0; i < count; ++i) {
    if (size - offset < table_entry_bytes)
      fail("truncated: the header announces " + std::to_string(count) + " sections, the file ends after " +
           std::to_string(i));
    std::byte entry[table_entry_bytes];
    source.read(offset, entry, table_entry_bytes);
    Section section;
    section.type = detail::load_u32(entry);
    section.size = detail::load_u64(entry + 4);
    offset += table_entry_bytes;
    section.offset = offset;
    if (section.size > size - offset)
      fail("truncated: section " + std::to_string(section.type) + " claims " + std::to_string(section.size) +
           " bytes, the file has " + std::to_string(size - offset) + " left");
    if (wanted.empty() || std::ranges::find(wanted, section.type) != wanted.end()) {
      PayloadBytes payload = source.payload(offset, section.size);
      payloads_.push_back(Payload{payload.bytes, std::move(payload.owner)});
    } else {
      payloads_.push_back(Payload{{}, {}, false});
    }
    offset += section.size;
    sections_.push_back(section);
  }
  // snarkjs and circom write every container to its exact length (fastfile truncates the file it creates), so
  // bytes past the last section are a damaged file: two run together, or another file's tail after a shorter
  // one written over it without truncation.
  if (offset != size)
    fail(std::to_string(size - offset) + (size - offset == 1 ? " unexpected byte" : " unexpected bytes") +
         " after the last section, at offset " + std::to_string(offset) + " of " + std::to_string(size) +
         " (snarkjs and circom write none: a damaged or concatenated " + std::string(kind) + " file?)");
}

std::size_t BinFile::index_of(const Section& section) const {
  // Payload offsets strictly increase along the table (each payload follows its own 12-byte entry).
  const auto it = std::lower_bound(sections_.begin(), sections_.end(), section.offset,
                                   [](const Section& s, std::uint64_t offset) { return s.offset < offset; });
  if (it == sections_.end() || it->offset != section.offset || it->size != section.size)
    throw Error(Errc::internal, name_ + ": a section of another file");
  return static_cast<std::size_t>(it - sections_.begin());
}

const BinFile::Payload& BinFile::loaded(const Section& section) const {
  const Payload& payload = payloads_[index_of(section)];
  if (!payload.read)
    throw Error(Errc::internal, name_ + ": section " + std::to_string(section.type) + " was not read");
  return payload;
}

const BinFile::Section* BinFile::find(std::uint32_t type, std::string_view what) const {
  const Section* found = nullptr;
  for (const Section& section : sections_) {
    if (section.type != type) continue;
    if (found != nullptr) fail(std::string(what) + " (section " + std::to_string(type) + ") appears twice");
    found = &section;
  }
  return found;
}

const BinFile::Section& BinFile::require(std::uint32_t type, std::string_view what) const {
  const Section* section = find(type, what);
  if (section == nullptr) fail("no " + std::string(what) + " (section " + std::to_string(type) + ")");
  return *section;
}

void BinFile::fail(const std::string& what) const {
  throw Error(Errc::bad_input, name_ + ": " + what);
}

// ---- BinReader ------------------------------------------------------------------------------------------

BinReader::BinReader(const BinFile& file, const BinFile::Section& section, std::string what)
    : file_(&file), bytes_(file.payload(section)), offset_(section.offset), what_(std::move(what)) {}

void BinReader::fail(const std::string& message) const {
  file_->fail(what_ + ": " + message);
}

std::span<const std::byte> BinReader::bytes(std::uint64_t count, std::string_view field) {
  if (count > remaining())
    fail("truncated: " + std::string(field) + " (" + std::to_string(count) + " bytes at " +
         std::to_string(position_) + ") ends past the end of the section (" + std::to_string(bytes_.size()) +
         " bytes)");
  const auto out = bytes_.subspan(position_, count);
  position_ += count;
  return out;
}

std::span<const std::byte> BinReader::array(std::uint64_t count, std::uint64_t element_size,
                                            std::string_view field) {
  if (element_size != 0 && count > remaining() / element_size)
    fail("truncated: " + std::string(field) + " (" + std::to_string(count) + " × " +
         std::to_string(element_size) + " bytes) ends past the end of the section (" +
         std::to_string(remaining()) + " bytes left)");
  return bytes(count * element_size, field);
}

std::uint32_t BinReader::u32(std::string_view field) {
  return detail::load_u32(bytes(4, field).data());
}

std::uint64_t BinReader::u64(std::string_view field) {
  return detail::load_u64(bytes(8, field).data());
}

void BinReader::expect_end() const {
  if (remaining() != 0)
    fail(std::to_string(remaining()) + " unexpected bytes after the last field (the section has " +
         std::to_string(bytes_.size()) + ", " + std::to_string(position_) + " expected)");
}

// ---- writing --------------------------------------------------------------------------------------------

void append_u32(std::vector<std::byte>& out, std::uint32_t value) {
  const std::size_t at = out.size();
  out.resize(at + 4);
  detail::store_u32(out.data() + at, value);
}

void append_u64(std::vector<std::byte>& out, std::uint64_t value) {
  const std::size_t at = out.size();
  out.resize(at + 8);
  detail::store_u64(out.data() + at, value);
}

void append_bytes(std::vector<std::byte>& out, std::span<const std::byte> bytes) {
  out.insert(out.end(), bytes.begin(), bytes.end());
}

BinFileWriter::BinFileWriter(std::string_view magic, std::uint32_t version)
    : magic_(magic), version_(version) {
  if (magic_.size() != 4) throw Error(Errc::invalid_argument, "BinFileWriter: a magic has 4 characters");
}

void BinFileWriter::add_section(std::uint32_t type, std::vector<std::byte> payload) {
  sections_.emplace_back(type, std::move(payload));
}

std::vector<std::byte> BinFileWriter::bytes() const {
  std::vector<std::byte> out;
  std::size_t total = header_bytes;
  for (const auto& section : sections_) total += table_entry_bytes + section.second.size();
  out.reserve(total);
  for (const char ch : magic_) out.push_back(static_cast<std::byte>(ch));
  append_u32(out, version_);
  append_u32(out, static_cast<std::uint32_t>(sections_.size()));
  for (const auto& [type, payload] : sections_) {
    append_u32(out, type);
    append_u64(out, payload.size());
    append_bytes(out, payload);
  }
  return out;
}

void BinFileWriter::write(const std::filesystem::path& path) const {
  write_file_atomically(path, bytes());
}

void write_file_atomically(const std::filesystem::path& path, std::span<const std::byte> bytes,
                           FilePermissions permissions) {
  proofline::write_file_atomically(
      path, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()),
      permissions == FilePermissions::owner_only ? 0600 : 0644);
}

}  // namespace proofline::groth16
