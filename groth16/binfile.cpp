#include <proofline/groth16/binfile.hpp>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <utility>

#include <proofline/groth16/detail/le_bytes.hpp>
#include <proofline/util/error.hpp>

namespace proofline::groth16 {

namespace {

constexpr std::uint64_t header_bytes = 12;
constexpr std::uint64_t table_entry_bytes = 12;

std::string errno_text(int err) {
  return std::strerror(err);
}

class Descriptor {
 public:
  explicit Descriptor(int fd) noexcept : fd_(fd) {}
  ~Descriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  int get() const noexcept { return fd_; }
  int release() noexcept { return std::exchange(fd_, -1); }

 private:
  int fd_;
};

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

}  // namespace

BinFile BinFile::open(const std::filesystem::path& path, std::string_view magic, std::string_view kind,
                      std::uint32_t version) {
  const std::string name = path.string();
  Descriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) {
    const int err = errno;
    throw Error(err == ENOENT || err == EACCES || err == ENOTDIR ? Errc::bad_input : Errc::io,
                name + ": cannot open the " + std::string(kind) + " file: " + errno_text(err));
  }
  struct stat info {};
  if (::fstat(fd.get(), &info) != 0) throw Error(Errc::io, name + ": cannot stat: " + errno_text(errno));
  // Pipes and devices could stream forever; the formats need random access anyway.
  if (!S_ISREG(info.st_mode)) throw Error(Errc::bad_input, name + ": not a regular file");
  const auto size = static_cast<std::uint64_t>(info.st_size);
  if (size == 0)
    throw Error(Errc::bad_input,
                name + ": truncated: the file is empty (not a " + std::string(kind) + " file)");
  void* mapped = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd.get(), 0);
  if (mapped == MAP_FAILED) throw Error(Errc::io, name + ": mmap failed: " + errno_text(errno));
  std::shared_ptr<const void> owner(mapped, [size](const void* p) { ::munmap(const_cast<void*>(p), size); });
  return from_memory(std::move(owner),
                     std::span<const std::byte>(static_cast<const std::byte*>(mapped), size), name, magic,
                     kind, version);
}

BinFile BinFile::from_memory(std::shared_ptr<const void> owner, std::span<const std::byte> image,
                             std::string name, std::string_view magic, std::string_view kind,
                             std::uint32_t version) {
  BinFile file;
  file.owner_ = std::move(owner);
  file.image_ = image;
  file.name_ = std::move(name);
  file.parse(magic, kind, version);
  return file;
}

void BinFile::parse(std::string_view magic, std::string_view kind, std::uint32_t version) {
  const std::uint64_t size = image_.size();
  if (size < 4 || std::memcmp(image_.data(), magic.data(), 4) != 0) {
    // (Built with append: GCC 12 warns falsely (-Wrestrict) about "literal" + std::string&& here.)
    std::string found = size < 4 ? std::string("only ").append(std::to_string(size)).append(" bytes")
                                 : std::string("\"").append(printable(image_.first(4))).append("\"");
    fail("not a " + std::string(kind) + " file (wrong magic: " + found + ", expected \"" +
         std::string(magic) + "\")");
  }
  if (size < header_bytes)
    fail("truncated: the file header needs 12 bytes, the file has " + std::to_string(size));
  version_ = detail::load_u32(image_.data() + 4);
  if (version_ != version)
    fail("unsupported " + std::string(kind) + " version " + std::to_string(version_) + " (expected " +
         std::to_string(version) + ")");
  const std::uint32_t count = detail::load_u32(image_.data() + 8);
  // Every section takes at least its 12-byte table entry, so a count the file cannot hold is truncation; the
  // loop below stops there without trusting the count for a reservation.
  std::uint64_t offset = header_bytes;
  sections_.reserve(std::min<std::uint64_t>(count, (size - header_bytes) / table_entry_bytes));
  for (std::uint32_t i = 0; i < count; ++i) {
    if (size - offset < table_entry_bytes)
      fail("truncated: the header announces " + std::to_string(count) + " sections, the file ends after " +
           std::to_string(i));
    Section section;
    section.type = detail::load_u32(image_.data() + offset);
    section.size = detail::load_u64(image_.data() + offset + 4);
    offset += table_entry_bytes;
    section.offset = offset;
    if (section.size > size - offset)
      fail("truncated: section " + std::to_string(section.type) + " claims " + std::to_string(section.size) +
           " bytes, the file has " + std::to_string(size - offset) + " left");
    offset += section.size;
    sections_.push_back(section);
  }
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

void write_file_atomically(const std::filesystem::path& path, std::span<const std::byte> bytes) {
  static std::atomic<std::uint64_t> counter{0};
  std::filesystem::path temp = path;
  temp += ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter.fetch_add(1));
  Descriptor fd(::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644));
  if (fd.get() < 0)
    throw Error(Errc::io, path.string() + ": cannot create " + temp.string() + ": " + errno_text(errno));
  try {
    std::size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t n = ::write(fd.get(), bytes.data() + done, bytes.size() - done);
      if (n < 0) {
        if (errno == EINTR) continue;
        throw Error(Errc::io, path.string() + ": write failed: " + errno_text(errno));
      }
      done += static_cast<std::size_t>(n);
    }
    if (::close(fd.release()) != 0)
      throw Error(Errc::io, path.string() + ": close failed: " + errno_text(errno));
    if (::rename(temp.c_str(), path.c_str()) != 0)
      throw Error(Errc::io,
                  path.string() + ": cannot rename the temporary file into place: " + errno_text(errno));
  } catch (...) {
    ::unlink(temp.c_str());
    throw;
  }
}

}  // namespace proofline::groth16
