// libFuzzer target: the reader of `proofline batch --manifest` (apps/circom_jobs.hpp jobs_from_manifest),
// JSON lines or CSV that the user writes. It reads a path, so the target writes each input to a manifest file
// in a folder of its own. On arbitrary bytes the reader must return at least one job, each with a source, a
// proof and a public path that name a file (not empty, no NUL byte, relative ones taken from the manifest's
// folder) and the source as its label, or throw UnusableInput whose message names the manifest; nothing else
// escapes.
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>

#include <proofline/util/text.hpp>

#include "../../apps/batch_common.hpp"
#include "../../apps/circom_jobs.hpp"

// circom_jobs.cpp's output checks call these from apps/batch_common.cpp, whose other parts need the pipeline
// and the circom build: the target links circom_jobs.cpp alone, and the manifest reader never calls them.
namespace proofline::apps {
std::string quoted(const std::filesystem::path& path) {
  return quote_for_message(path.string(), 256, '\'');
}
void check_directory_takes_files(const std::string&, const std::filesystem::path&,
                                 const std::filesystem::path&) {
  __builtin_trap();
}
void check_output_replaceable(const std::string&, const std::filesystem::path&) {
  __builtin_trap();
}
void create_output_folder(const std::filesystem::path&, std::error_code&) {
  __builtin_trap();
}
}  // namespace proofline::apps

namespace {

namespace fs = std::filesystem;

/// The manifest, in a folder of its own for each fuzzing process, removed at exit.
struct ScratchManifest {
  fs::path dir = fs::temp_directory_path() / ("proofline-fuzz-jobs-" + std::to_string(::getpid()));
  fs::path path = dir / "jobs.jsonl";
  ScratchManifest() { fs::create_directories(dir); }
  ~ScratchManifest() {
    std::error_code ignored;
    fs::remove_all(dir, ignored);
  }
};

/// A path the operating system can open: not empty, no NUL byte (which would cut it short), and absolute,
/// since the manifest's folder is.
bool names_a_file(const fs::path& path) {
  const std::string& text = path.native();
  return !text.empty() && text.find('\0') == std::string::npos && path.is_absolute();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const ScratchManifest scratch;
  std::FILE* out = std::fopen(scratch.path.c_str(), "wb");
  if (out == nullptr) __builtin_trap();
  if (size != 0 && std::fwrite(data, 1, size, out) != size) __builtin_trap();
  std::fclose(out);
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::size_t lines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) + 1;
  try {
    const auto jobs = proofline::apps::jobs_from_manifest(scratch.path);
    if (jobs.empty() || jobs.size() > lines) __builtin_trap();
    for (const proofline::apps::CircomJobSpec& job : jobs) {
      if (!names_a_file(job.source) || !names_a_file(job.proof) || !names_a_file(job.public_inputs))
        __builtin_trap();
      if (job.label != job.source.string()) __builtin_trap();
    }
  } catch (const proofline::apps::UnusableInput& e) {
    const std::string_view message = e.what();
    if (!message.starts_with(scratch.path.string() + ": ")) __builtin_trap();
  }
  return 0;
}
