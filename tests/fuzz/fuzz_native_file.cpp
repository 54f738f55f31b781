// libFuzzer target: the native key and constraint-system files (groth16/native_file.hpp), which users pass on
// the command line and the key cache reads back. On arbitrary bytes each reader must return a consistent
// object or throw proofline::Error (never Errc::internal). Random bytes rarely match an XXH64, so unless the
// first byte says otherwise the target writes the right header and section checksums into the image before
// it is read: the fuzzer then reaches the checks behind them.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>
#include <span>
#include <string>

#include <proofline/groth16/detail/checksum.hpp>
#include <proofline/groth16/detail/native_container.hpp>
#include <proofline/groth16/native_file.hpp>
#include <proofline/util/error.hpp>

#include "fuzz/fuzz_support.hpp"

namespace {

namespace g16d = proofline::groth16::detail;

/// Rewrites the checksums of whatever header and section table the image has, where they lie in it.
void fix_checksums(std::byte* image, std::size_t size, bool sections) {
  if (size < sizeof(g16d::FileHeader)) return;
  g16d::FileHeader header;
  std::memcpy(&header, image, sizeof header);
  if (header.section_count > g16d::native_max_sections) return;
  const std::size_t table_end =
      sizeof header + std::size_t{header.section_count} * sizeof(g16d::SectionEntry);
  if (size < table_end) return;
  for (std::uint32_t i = 0; sections && i < header.section_count; ++i) {
    std::byte* at = image + sizeof header + std::size_t{i} * sizeof(g16d::SectionEntry);
    g16d::SectionEntry entry;
    std::memcpy(&entry, at, sizeof entry);
    if (entry.offset > size || entry.bytes > size - entry.offset) continue;
    entry.checksum = g16d::section_checksum(image + entry.offset, entry.bytes);
    std::memcpy(at, &entry, sizeof entry);
  }
  std::memset(image + offsetof(g16d::FileHeader, header_checksum), 0, sizeof(std::uint64_t));
  const std::uint64_t sum = g16d::xxh64(image, table_end, 0);
  std::memcpy(image + offsetof(g16d::FileHeader, header_checksum), &sum, sizeof sum);
}

/// The readers that take a path read this file, one per fuzzing process, removed at exit.
struct ScratchFile {
  std::string path = "/tmp/proofline-fuzz-native-" + std::to_string(::getpid());
  ~ScratchFile() { std::remove(path.c_str()); }
};

const std::string& write_scratch(const std::byte* data, std::size_t size) {
  static const ScratchFile file;
  std::FILE* out = std::fopen(file.path.c_str(), "wb");
  if (out == nullptr) __builtin_trap();
  if (size != 0 && std::fwrite(data, 1, size, out) != size) __builtin_trap();
  std::fclose(out);
  return file.path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace proofline::groth16;
  proofline::fuzz::single_thread();
  if (size == 0) return 0;
  // The first byte: bits 0-1 the reader (proving key, constraint system, verifying key from a file, the kind
  // probe), bit 2 keep the header checksum as given, bit 3 keep the section checksums, bit 4 skip the section
  // checksums (a trusted load), bits 5-6 the query point checks.
  const unsigned reader = data[0] & 3;
  LoadOptions options;
  options.verify_checksums = (data[0] & 16) == 0;
  options.check_query_points = (data[0] & 32) != 0;
  options.check_query_subgroups = (data[0] & 64) != 0;
  options.key_check.use_cache = false;  // no records of checked keys under the user's cache directory
  // A 64-byte aligned copy, as the readers require, that the target may edit.
  const std::size_t length = size - 1;
  std::shared_ptr<std::byte[]> image(new (std::align_val_t{64}) std::byte[length + 1],
                                     [](std::byte* p) { ::operator delete[](p, std::align_val_t{64}); });
  std::memcpy(image.get(), data + 1, length);
  if ((data[0] & 4) == 0) fix_checksums(image.get(), length, (data[0] & 8) == 0);
  const std::span<const std::byte> bytes(image.get(), length);
  try {
    switch (reader) {
      case 0: {
        const auto loaded = parse_proving_key(image, bytes, "fuzz.plkey", options);
        if (loaded.bytes != length) __builtin_trap();
        validate(loaded.value.pk, proofline::Errc::internal, "fuzz",
                 options.check_query_points || options.check_query_subgroups);
        if (loaded.value.vk) {
          validate(*loaded.value.vk, proofline::Errc::internal, "fuzz");
          if (loaded.value.vk->num_public() != loaded.value.pk.num_public) __builtin_trap();
        }
        break;
      }
      case 1: {
        const auto loaded = parse_constraint_system(image, bytes, "fuzz.plpce", options);
        if (loaded.bytes != length) __builtin_trap();
        validate(loaded.value, proofline::Errc::internal, "fuzz", options.verify_checksums);
        break;
      }
      case 2: {
        const VerifyingKey vk = load_verifying_key(write_scratch(image.get(), length), options);
        validate(vk, proofline::Errc::internal, "fuzz");
        break;
      }
      default: {
        const NativeKind kind = native_file_kind(write_scratch(image.get(), length));
        if (kind != NativeKind::proving_key && kind != NativeKind::verifying_key &&
            kind != NativeKind::constraint_system)
          __builtin_trap();
        break;
      }
    }
  } catch (const proofline::Error& e) {
    if (e.code() == proofline::Errc::internal) __builtin_trap();
  }
  return 0;
}
