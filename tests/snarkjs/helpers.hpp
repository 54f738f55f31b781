// Shared by the snarkjs interoperability tests: the fixture folder, file bytes, capturing the message of an
// expected Error(bad_input), and the rows of a constraint matrix in a form that ignores the order within a
// row.
#pragma once

#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include <proofline/arith/fr.hpp>
#include <proofline/groth16/constraint_system.hpp>
#include <proofline/util/error.hpp>

#include "support/errors.hpp"

namespace proofline::snarkjs_test {

/// tests/fixtures/snarkjs (files made by snarkjs, kept in the repository); PROOFLINE_SNARKJS_FIXTURES
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
  return test_support::error_message(Errc::bad_input, action);
}

/// Row `row` of a CSR matrix as a map column -> value (a file's order within a row does not matter).
inline std::map<std::uint32_t, Fr> row_of(const groth16::CsrMatrix& m, std::uint64_t row) {
  std::map<std::uint32_t, Fr> out;
  for (std::uint64_t k = m.row_offsets[row]; k < m.row_offsets[row + 1]; ++k)
    out[m.columns[k]] += m.values[k];
  return out;
}

inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace proofline::snarkjs_test
