#include <proofline/util/atomic_file.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <string>

#include <proofline/util/error.hpp>

namespace proofline {

namespace {

// Names are unique within this process; a name taken by anything else (a stale file, a planted link) is
// skipped, since O_EXCL refuses it without following it.
constexpr int max_name_attempts = 64;

std::filesystem::path temporary_name(const std::filesystem::path& destination) {
  static std::atomic<std::uint64_t> counter{0};
  std::filesystem::path temp = destination;
  temp += ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter.fetch_add(1));
  return temp;
}

}  // namespace

AtomicOutputFile::AtomicOutputFile(const std::filesystem::path& destination, unsigned mode)
    : destination_(destination), name_(destination.string()) {
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
