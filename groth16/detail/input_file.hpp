// Internal: opening the files the readers parse (.wtns, .zkey, .r1cs, JSON, native files) so that nothing a
// path can name makes a reader hang: a FIFO without a writer, a terminal, /dev/zero or a socket is refused at
// once, with the path in the message, before a single byte is read.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include <proofline/util/error.hpp>
#include <proofline/util/file_descriptor.hpp>

namespace proofline::groth16::detail {

struct InputFile {
  FileDescriptor fd;
  std::uint64_t size = 0;
};

/// Opens `path` read-only without blocking (O_NONBLOCK, so opening a FIFO with no writer returns at once),
/// refuses anything but a regular file with Error(bad_input, "<path>: not a regular file (a FIFO)"), then
/// clears O_NONBLOCK. When the operating system refuses the open, the message is "<path>: cannot open
/// <what>: <reason>" (`what` may be empty) and the code is Errc::bad_input for a missing or forbidden file
/// (ENOENT, EACCES, ENOTDIR, ELOOP), Errc::io otherwise.
InputFile open_input_file(const std::filesystem::path& path, std::string_view what);

/// Memory for `size` bytes of file contents, aligned to `alignment` (a power of two, at most 4096), freed
/// with the last owner; large buffers in huge pages (detail/large_memory.hpp: a fault per 4 KiB page took
/// most of a key's read). Throws Error(io, "<name>: cannot allocate ...") when there is no memory.
std::shared_ptr<void> file_buffer(std::uint64_t size, std::size_t alignment, const std::string& name);

/// Reads exactly `size` bytes at `offset` (pread, retrying short and interrupted reads). A file that ends
/// first is Error(bad_input, "<name>: truncated while reading (the file shrank)"), a failed read Error(io).
void read_exactly(int fd, std::byte* out, std::uint64_t size, std::uint64_t offset, const std::string& name);

}  // namespace proofline::groth16::detail
