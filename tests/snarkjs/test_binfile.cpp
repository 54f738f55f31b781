// The iden3 container (groth16/binfile.hpp): sections in any order, bounds checks, and every malformed header
// a clear error naming the file.
#include <doctest/doctest.h>

#include <cstring>
#include <memory>

#include <proofline/groth16/binfile.hpp>

#include "groth16/helpers.hpp"
#include "snarkjs/helpers.hpp"

using namespace proofline;
using namespace proofline::groth16;
using namespace proofline::snarkjs_test;

namespace {

std::vector<std::byte> payload(std::initializer_list<int> values) {
  std::vector<std::byte> out;
  for (const int v : values) out.push_back(static_cast<std::byte>(v));
  return out;
}

BinFile parse_bytes(const std::vector<std::byte>& bytes, const std::string& name = "mem.bin") {
  return BinFile::from_memory(nullptr, bytes, name, "test", ".test", 3);
}

}  // namespace

TEST_CASE("groth16/binfile/sections are found in any order") {
  BinFileWriter writer("test", 3);
  writer.add_section(7, payload({1, 2, 3}));
  writer.add_section(2, {});
  writer.add_section(5, payload({9}));
  const auto bytes = writer.bytes();
  REQUIRE(bytes.size() == 12 + 3 * 12 + 4);
  const BinFile file = parse_bytes(bytes);
  CHECK(file.version() == 3);
  REQUIRE(file.sections().size() == 3);
  CHECK(file.sections()[0].type == 7);
  CHECK(file.sections()[0].offset == 24);
  const auto& five = file.require(5, "section five");
  CHECK(five.size == 1);
  CHECK(file.payload(five)[0] == std::byte{9});
  CHECK(file.require(2, "empty").size == 0);
  CHECK(file.find(4, "absent") == nullptr);
  CHECK(contains(bad_input_message([&] { file.require(4, "the coefficients section"); }),
                 "mem.bin: no the coefficients section (section 4)"));

  BinReader reader(file, file.require(7, "seven"), "section seven");
  CHECK(reader.bytes(2, "two bytes")[1] == std::byte{2});
  CHECK(reader.remaining() == 1);
  CHECK(contains(bad_input_message([&] { reader.expect_end(); }), "1 unexpected bytes"));
  const std::string message = bad_input_message([&] { reader.u32("a count"); });
  CHECK(contains(message, "mem.bin: section seven: truncated: a count"));
}

TEST_CASE("groth16/binfile/a section that appears twice is an error when it is asked for") {
  BinFileWriter writer("test", 3);
  writer.add_section(1, payload({1}));
  writer.add_section(1, payload({2}));
  writer.add_section(2, payload({3}));
  const auto bytes = writer.bytes();
  const BinFile file = parse_bytes(bytes);
  CHECK(file.require(2, "two").size == 1);
  CHECK(contains(bad_input_message([&] { file.find(1, "the header"); }),
                 "the header (section 1) appears twice"));
}

TEST_CASE("groth16/binfile/malformed containers are clear errors") {
  BinFileWriter writer("test", 3);
  writer.add_section(1, payload({1, 2, 3, 4, 5, 6, 7, 8}));
  writer.add_section(2, payload({1}));
  const auto good = writer.bytes();
  CHECK_NOTHROW(parse_bytes(good));

  auto bytes = good;
  bytes[0] = std::byte{'z'};
  CHECK(contains(bad_input_message([&] { parse_bytes(bytes, "m.bin"); }),
                 "m.bin: not a .test file (wrong magic: \"zest\", expected \"test\")"));
  // JSON where the binary file belongs (input signals, a witness.json): said so.
  for (const char* text : {"{}", "  [\"1\", \"2\"]", "\n{\"in\": 3}"}) {
    CAPTURE(text);
    const std::string json(text);
    std::vector<std::byte> json_bytes(json.size());
    std::memcpy(json_bytes.data(), json.data(), json.size());
    CHECK(contains(bad_input_message([&] { parse_bytes(json_bytes, "in.json"); }),
                   "in.json: not a .test file: it holds JSON text"));
  }
  bytes = good;
  bytes[4] = std::byte{4};
  CHECK(contains(bad_input_message([&] { parse_bytes(bytes); }), "unsupported .test version 4 (expected 3)"));
  for (std::size_t size : {0, 3, 4, 11, 12, 23, 24, 31, 44}) {
    CAPTURE(size);
    bytes.assign(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(size));
    const std::string message = bad_input_message([&] { parse_bytes(bytes); });
    CHECK((contains(message, "truncated") || contains(message, "wrong magic")));
  }
  // A section count the file cannot hold, and a section size past the end (even one that would overflow).
  bytes = good;
  bytes[8] = std::byte{0xff};
  bytes[9] = std::byte{0xff};
  CHECK(contains(bad_input_message([&] { parse_bytes(bytes); }), "truncated: the header announces"));
  bytes = good;
  for (int i = 0; i < 8; ++i) bytes[16 + i] = std::byte{0xff};
  CHECK(contains(bad_input_message([&] { parse_bytes(bytes); }), "truncated: section 1 claims"));
  // Bytes after the last section: snarkjs and circom never write any, so they are a damaged file.
  bytes = good;
  bytes.push_back(std::byte{0});
  CHECK(contains(bad_input_message([&] { parse_bytes(bytes); }),
                 "1 unexpected byte after the last section, at offset " + std::to_string(good.size()) +
                     " of " + std::to_string(bytes.size())));
}

TEST_CASE("groth16/binfile/files are mapped and written atomically") {
  groth16::test::TempDir dir;
  BinFileWriter writer("test", 3);
  writer.add_section(9, payload({4, 5}));
  writer.write(dir / "a.test");
  const BinFile file = BinFile::open(dir / "a.test", "test", ".test", 3);
  CHECK(file.owner() != nullptr);
  CHECK(file.payload(file.require(9, "nine"))[1] == std::byte{5});
  CHECK(std::distance(std::filesystem::directory_iterator(dir.path()),
                      std::filesystem::directory_iterator()) == 1);

  const std::string missing = (dir / "missing.test").string();
  CHECK(contains(bad_input_message([&] { BinFile::open(missing, "test", ".test", 3); }),
                 missing + ": cannot open the .test file"));
  write_file_bytes(dir / "empty.test", {});
  CHECK(contains(bad_input_message([&] { BinFile::open(dir / "empty.test", "test", ".test", 3); }), "empty"));
  CHECK(contains(bad_input_message([&] { BinFile::open(dir.path(), "test", ".test", 3); }),
                 "not a regular file"));
}
