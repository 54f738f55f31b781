#include <proofline/groth16/detail/input_file.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <limits>

#include <proofline/groth16/detail/large_memory.hpp>

namespace proofline::groth16::detail {

namespace {

const char* file_type_name(mode_t mode) noexcept {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a plain file";
}

}  // namespace

InputFile open_input_file(const std::filesystem::path& path, std::string_view what) {
  const std::string name = path.string();
  // O_NONBLOCK: open(2) of a FIFO waits for a writer without it. O_NOCTTY: a terminal named as an input
  // must not become our controlling terminal before it is refused.
  FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
  if (fd.get() < 0) {
    const int err = errno;
    // A path that names no readable file is the caller's input to mend; other failures are the system's.
    const bool missing = err == ENOENT || err == EACCES || err == ENOTDIR || err == ELOOP ||
                         err == ENAMETOOLONG || err == EPERM;
    throw Error(
        missing ? Errc::bad_input : Errc::io,
        name + ": cannot open" + (what.empty() ? "" : " " + std::string(what)) + ": " + std::strerror(err));
  }
  struct stat info {};
  if (::fstat(fd.get(), &info) != 0) throw Error(Errc::io, name + ": cannot stat: " + std::strerror(errno));
  // Pipes, terminals and devices can block or stream forever; every format needs a known length anyway.
  if (!S_ISREG(info.st_mode))
    throw Error(Errc::bad_input, name + ": not a regular file (" + file_type_name(info.st_mode) + ")");
  const int flags = ::fcntl(fd.get(), F_GETFL);
  if (flags < 0 || ::fcntl(fd.get(), F_SETFL, flags & ~O_NONBLOCK) != 0)
    throw Error(Errc::io, name + ": cannot clear O_NONBLOCK: " + std::strerror(errno));
  // Kernel pseudo-files (/proc, /sys) report size 0 and yet have contents; every reader takes the size from
  // fstat, so name the cause rather than let them call the file empty.
  if (info.st_size == 0) {
    std::byte probe{};
    if (::pread(fd.get(), &probe, 1, 0) == 1)
      throw Error(Errc::bad_input, name + ": the file reports size 0 but has contents (a /proc or /sys " +
                                       "pseudo-file?); copy it to a regular file first");
  }
  return InputFile{std::move(fd), static_cast<std::uint64_t>(info.st_size)};
}

std::shared_ptr<void> file_buffer(std::uint64_t size, std::size_t alignment, const std::string& name) {
  void* raw = size <= std::numeric_limits<std::size_t>::max()
                  ? allocate_large_memory(static_cast<std::size_t>(size), alignment)
                  : nullptr;
  if (raw == nullptr) throw Error(Errc::io, name + ": cannot allocate " + std::to_string(size) + " bytes");
  return std::shared_ptr<void>(raw, free_large_memory);
}

void read_exactly(int fd, std::byte* out, std::uint64_t size, std::uint64_t offset, const std::string& name) {
  while (size > 0) {
    const auto chunk = static_cast<std::size_t>(std::min<std::uint64_t>(size, std::uint64_t{1} << 30));
    const ssize_t got = ::pread(fd, out, chunk, static_cast<off_t>(offset));
    if (got < 0) {
      if (errno == EINTR) continue;
      throw Error(Errc::io, name + ": read failed: " + std::strerror(errno));
    }
    if (got == 0) throw Error(Errc::bad_input, name + ": truncated while reading (the file shrank)");
    out += got;
    offset += static_cast<std::uint64_t>(got);
    size -= static_cast<std::uint64_t>(got);
  }
}

}  // namespace proofline::groth16::detail
