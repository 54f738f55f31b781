#include <proofline/util/atomic_file.hpp>

#include <fcntl.h>
#include <limits.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <optional>
#include <string>

#include <proofline/util/error.hpp>

namespace proofline {

namespace {

// Names are unique within this process; a name taken by anything else (a stale file, a planted link) is
// skipped, since O_EXCL refuses it without following it.
constexpr int max_name_attempts = 64;

std::filesystem::path temporary_name(const std::filesystem::path& destination) {
  static std::atomic<std::uint64_t> counter{0};
  const std::string suffix =
      ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter.fetch_add(1));
  // A name near NAME_MAX keeps what fits of its start, so that any name the file system takes can be written.
  std::string name = destination.filename().string();
  name.resize(std::min(name.size(), NAME_MAX - suffix.size()));
  return destination.parent_path() / (name + suffix);
}

/// "/proc" or "/dev" when `path` (absolute, normal) is in /proc, or in /dev outside /dev/shm.
std::optional<std::string> kernel_folder_of(const std::filesystem::path& path) {
  auto part = path.begin();
  if (part == path.end() || *part != "/" || ++part == path.end()) return std::nullopt;
  if (*part == "proc") return "/proc";
  if (*part != "dev") return std::nullopt;
  if (++part != path.end() && *part == "shm") return std::nullopt;
  return "/dev";
}

}  // namespace

std::optional<std::string> output_path_problem(const std::filesystem::path& destination) {
  const std::size_t name_bytes = destination.filename().native().size();
  if (name_bytes > NAME_MAX)
    return "has a file name of " + std::to_string(name_bytes) + " bytes, more than the " +
           std::to_string(NAME_MAX) + " a file system takes";
  std::error_code error;
  const std::filesystem::path absolute = std::filesystem::absolute(destination, error).lexically_normal();
  if (error) return std::nullopt;
  if (const auto folder = kernel_folder_of(absolute))
    return "is in " + *folder +
           ", where proofline writes no files (each output is a new file renamed into place)";
  if (!std::filesystem::is_symlink(destination, error)) return std::nullopt;
  std::filesystem::path target = std::filesystem::read_symlink(destination, error);
  if (error) return std::nullopt;
  if (target.is_relative()) target = absolute.parent_path() / target;
  if (!kernel_folder_of(target.lexically_normal())) return std::nullopt;
  return "is a link to " + target.string() +
         " (a stream or device, as /dev/stdout is), which writing the output would replace with a file";
}

AtomicOutputFile::AtomicOutputFile(const std::filesystem::path& destination, unsigned mode)
    : destination_(destination), name_(destination.string()) {
  if (const auto problem = output_path_problem(destination_))
    throw Error(Errc::invalid_argument, name_ + " " + *problem);
  for (int attempt = 0; attempt < max_name_attempts; ++attempt) {
    temporary_ = temporary_name(destination_);
    fd_ = FileDescriptor(::open(temporary_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                                static_cast<mode_t>(mode)));
    if (fd_.get() >= 0) return;
    if (errno != EEXIST) break;
  }
  throw Error(Errc::io, name_ + ": cannot create " + temporary_.string() + ": " + std::strerror(errno));
}

AtomicOutputFile::~AtomicOutputFile() {
  if (committed_) return;
  fd_ = FileDescriptor();
  ::unlink(temporary_.c_str());
}

void AtomicOutputFile::resize(std::uint64_t size) {
  if (::ftruncate(fd_.get(), static_cast<off_t>(size)) != 0)
    throw Error(Errc::io, name_ + ": cannot size the file: " + std::strerror(errno));
}

void AtomicOutputFile::write_at(const void* data, std::uint64_t size, std::uint64_t offset) {
  const auto* in = static_cast<const std::byte*>(data);
  while (size > 0) {
    const auto chunk = static_cast<std::size_t>(std::min<std::uint64_t>(size, std::uint64_t{1} << 30));
    const ssize_t put = ::pwrite(fd_.get(), in, chunk, static_cast<off_t>(offset));
    if (put < 0) {
      if (errno == EINTR) continue;
      throw Error(Errc::io, name_ + ": write failed: " + std::strerror(errno));
    }
    in += put;
    offset += static_cast<std::uint64_t>(put);
    size -= static_cast<std::uint64_t>(put);
  }
}

void AtomicOutputFile::commit(bool sync) {
  if (sync && ::fsync(fd_.get()) != 0)
    throw Error(Errc::io, name_ + ": fsync failed: " + std::strerror(errno));
  if (::close(fd_.release()) != 0) throw Error(Errc::io, name_ + ": close failed: " + std::strerror(errno));
  if (::rename(temporary_.c_str(), destination_.c_str()) != 0)
    throw Error(Errc::io, name_ + ": cannot rename the temporary file into place: " + std::strerror(errno));
  committed_ = true;
}

void write_file_atomically(const std::filesystem::path& path, std::string_view bytes, unsigned mode) {
  AtomicOutputFile out(path, mode);
  out.write_at(bytes.data(), bytes.size(), 0);
  out.commit(/*sync=*/false);
}

}  // namespace proofline
