// The circom shims' input JSON reader (circom/shim/input_json.hpp) on its own, without circom or node: it is
// compiled into every witness generator, and `proofline serve` runs it on request bodies in its own process.
#include <stdexcept>
#include <string>

#include <doctest/doctest.h>

#include <proofline/circom/shim/input_json.hpp>

namespace {

using proofline_shim::parse_input;

proofline_shim::InputJson parse(const std::string& text, std::size_t main_values = 1000) {
  return parse_input(text.data(), text.size(), main_values);
}

std::string zeros(std::size_t count) {
  std::string text = "{\"a\": [";
  for (std::size_t i = 0; i < count; ++i) text += i == 0 ? "0" : ",0";
  return text + "], \"b\": []}";
}

std::size_t name_bytes(const proofline_shim::InputJson& input) {
  std::size_t bytes = 0;
  for (auto it = input.flat.begin(); it != input.flat.end(); ++it) bytes += it.key().size();
  return bytes;
}

}  // namespace

TEST_CASE("circom/input json/a long key over many fields is refused, not made into quadratic names") {
  // 189 KB of JSON whose names, qualified, would take a gigabyte: each of the 10,000 fields repeats the key.
  std::string text = "{\"" + std::string(100'000, 'k') + "\": {";
  for (int i = 0; i < 10'000; ++i) text += (i == 0 ? "\"" : ",\"") + std::to_string(i) + "\":0";
  text += "}}";
  CHECK_THROWS_WITH_AS(
      parse(text),
      "the input's qualified signal names (\"a.b[2]\") would take more than 32 bytes per byte of "
      "input (a long key over many fields?)",
      std::runtime_error);
  // The same through arrays of objects: each element's prefix repeats the key.
  std::string list = "{\"" + std::string(100'000, 'k') + "\": [";
  for (int i = 0; i < 10'000; ++i) list += i == 0 ? "{}" : ",{}";
  list += "]}";
  CHECK_THROWS_AS(parse(list), std::runtime_error);
}

TEST_CASE("circom/input json/names as long as real circuits give are read") {
  // A bus array with a long signal name and one-letter fields: names about four times the input's bytes.
  const std::string name(60, 's');
  std::string text = "{\"" + name + "\": [";
  for (int i = 0; i < 2'000; ++i) text += std::string(i == 0 ? "" : ",") + "[{\"x\":1,\"y\":[2,3]}]";
  text += "], \"in\": [\"0x1f\", \"-4\"]}";
  const proofline_shim::InputJson input = parse(text);
  CHECK(input.flat.size() == 2 * 2'000 + 1);
  CHECK(input.flat.at(name + "[1999][0].y") == proofline_shim::json::array({2, 3}));
  CHECK(name_bytes(input) > 3 * text.size());
}

TEST_CASE("circom/input json/a NUL byte anywhere is refused, with its offset, not taken for the end") {
  using namespace std::string_literals;
  CHECK_THROWS_WITH_AS(parse("{\"a\": 3}\0{\"a\": 99} garbage"s),
                       "not JSON: a NUL byte at offset 8 (a binary file, or text in UTF-16?)",
                       std::runtime_error);
  CHECK_THROWS_WITH_AS(parse("{\"a\":\0 3}"s),
                       "not JSON: a NUL byte at offset 5 (a binary file, or text in UTF-16?)",
                       std::runtime_error);
  // UTF-16 text: every other byte is 0.
  CHECK_THROWS_WITH_AS(parse("{\0}\0"s),
                       "not JSON: a NUL byte at offset 1 (a binary file, or text in UTF-16?)",
                       std::runtime_error);
  CHECK(parse("{\"a\": 3}").flat.size() == 1);
}

TEST_CASE("circom/input json/values far beyond what main takes are refused while parsing") {
  // Each parsed value costs about a hundred bytes: a request of zeros would take fifty times its size.
  const std::size_t allowed = 10 + proofline_shim::max_extra_values;
  CHECK(parse(zeros(allowed), 10).flat["a"].size() == allowed);  // counted per value; empty arrays add none
  CHECK_THROWS_WITH_AS(
      parse(zeros(allowed + 1), 10),
      ("the input has more than " + std::to_string(allowed) + " values; main takes 10").c_str(),
      std::runtime_error);
}
