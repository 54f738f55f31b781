// How outputs reach their paths (util/atomic_file.hpp): a temporary file renamed into place, refused where
// the rename would replace a stream or device, and any name the file system takes.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <doctest/doctest.h>

#include <proofline/util/atomic_file.hpp>
#include <proofline/util/error.hpp>

#include "support/temp_dir.hpp"

namespace proofline {

namespace fs = std::filesystem;

namespace {

std::string contents(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string write_refusal(const fs::path& path) {
  try {
    write_file_atomically(path, "proof");
  } catch (const Error& e) {
    CHECK(e.code() == Errc::invalid_argument);
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("util/atomic_file/a link to a stream or device is refused and kept") {
  const test_support::TempDir dir;
  const fs::path link = dir / "proof.json";
  fs::create_symlink("/proc/self/fd/1", link);
  CHECK(
      output_path_problem(link) ==
      "is a link to /proc/self/fd/1 (a stream or device, as /dev/stdout is), which writing the output would "
      "replace with a file");
  CHECK(write_refusal(link).starts_with(link.string() + " is a link to /proc/self/fd/1"));
  CHECK(fs::is_symlink(link));

  const fs::path relative = dir / "null.json";
  fs::create_symlink("../../dev/../dev/null", relative);
  CHECK(output_path_problem(relative).has_value());  // resolved from the link's folder: /dev/null

  for (const char* path : {"/dev/stdout", "/dev/fd/1", "/proc/self/fd/2", "/dev/null"}) {
    CAPTURE(path);
    CHECK(output_path_problem(path).value_or("").starts_with("is in /"));
  }
  CHECK_FALSE(output_path_problem("/dev/shm/proof.json").has_value());
  CHECK_FALSE(output_path_problem("/devices/proof.json").has_value());
}

TEST_CASE("util/atomic_file/a link to an ordinary file is replaced, not written through") {
  const test_support::TempDir dir;
  write_file_atomically(dir / "elsewhere.json", "kept");
  fs::create_symlink(dir / "elsewhere.json", dir / "proof.json");
  CHECK_FALSE(output_path_problem(dir / "proof.json").has_value());
  write_file_atomically(dir / "proof.json", "proof");
  CHECK_FALSE(fs::is_symlink(dir / "proof.json"));
  CHECK(contents(dir / "proof.json") == "proof");
  CHECK(contents(dir / "elsewhere.json") == "kept");
}

TEST_CASE("util/atomic_file/any name the file system takes is written and a longer one refused") {
  const test_support::TempDir dir;
  const auto max = static_cast<std::size_t>(::pathconf(dir.path().c_str(), _PC_NAME_MAX));
  REQUIRE(max >= 200);
  for (const std::size_t length : {max - 20, max}) {
    CAPTURE(length);
    const fs::path path = dir / std::string(length, 'p');
    write_file_atomically(path, "proof");
    CHECK(contents(path) == "proof");
    CHECK(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()) == 1);  // no leftovers
    fs::remove(path);
  }
  const fs::path too_long = dir / std::string(max + 1, 'p');
  CHECK(write_refusal(too_long) == too_long.string() + " has a file name of " + std::to_string(max + 1) +
                                       " bytes, more than the 255 a file system takes");
}

}  // namespace proofline
