// Shared by the snarkjs interoperability tests: the fixture folder, file bytes, and capturing the message of
// an expected Error(bad_input).
#pragma once

#include <doctest/doctest.h>

#include <cstddef>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include <proofline/util/error.hpp>

namespace proofline::snarkjs_test {

/// tests/fixtures/snarkjs (copies of ../shared/reference/snarkjs-fixtures); PROOFLINE_SNARKJS_FIXTURES
/// overrides.
inline std::filesystem::path fixture(const std::string& circuit, const std::string& file) {
  const char* env = std::getenv("PROOFLINE_SNARKJS_FIXTURES");
  return std::filesystem::path(env != nullptr ? env : PROOFLINE_SNARKJS_FIXTURES_DIR) / circuit / file;
}

inline std::vector<std::byte> file_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "cannot open " << path);
  std::vector<char> chars((std::istreambuf_iterator<char>(in)), {});
  std::vector<std::byte> out(chars.size());
  for (std::size_t i = 0; i < chars.size(); ++i) out[i] = static_cast<std::byte>(chars[i]);
  return out;
}

inline std::string file_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "cannot open " << path);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}

inline void write_file_bytes(const std::filesystem::path& path, const std::vector<std::byte>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

inline void write_file_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

/// The message of the Error(bad_input) that `action` must throw ("" and a failed check if it throws nothing
/// or something else).
inline std::string bad_input_message(const std::function<void()>& action) {
  try {
    action();
  } catch (const Error& e) {
    CHECK_MESSAGE(e.code() == Errc::bad_input, "error code " << to_string(e.code()) << ": " << e.what());
    return e.what();
  } catch (const std::exception& e) {
    FAIL("not a proofline::Error: " << e.what());
    return {};
  }
  FAIL("no error");
  return {};
}

inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace proofline::snarkjs_test
