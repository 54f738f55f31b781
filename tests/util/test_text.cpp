#include <doctest/doctest.h>

#include <string>

#include <proofline/util/text.hpp>

using namespace proofline;

namespace {

std::string quoted(std::string_view text) {
  std::string out = "x:";  // appends, keeping what is there
  append_json_string(out, text);
  return out;
}

}  // namespace

TEST_CASE("util/text/JSON strings escape what JSON needs and keep valid UTF-8") {
  CHECK(quoted("plain") == "x:\"plain\"");
  CHECK(quoted("a\"b\\c\b\f\n\r\t") == "x:\"a\\\"b\\\\c\\b\\f\\n\\r\\t\"");
  CHECK(quoted(std::string("\x00\x1f\x7f", 3)) == "x:\"\\u0000\\u001f\\u007f\"");
  CHECK(quoted("gr\xc3\xbc\xc3\x9f \xe2\x82\xac \xf0\x9f\x98\x80") ==
        "x:\"gr\xc3\xbc\xc3\x9f \xe2\x82\xac \xf0\x9f\x98\x80\"");
}

TEST_CASE("util/text/bytes that are not UTF-8 become U+FFFD, one per byte") {
  CHECK(quoted("\xff") == "x:\"\\ufffd\"");
  CHECK(quoted("a\xc3") == "x:\"a\\ufffd\"");                                 // truncated sequence
  CHECK(quoted("\xc0\xaf") == "x:\"\\ufffd\\ufffd\"");                        // overlong
  CHECK(quoted("\xed\xa0\x80") == "x:\"\\ufffd\\ufffd\\ufffd\"");             // surrogate
  CHECK(quoted("\xf4\x90\x80\x80") == "x:\"\\ufffd\\ufffd\\ufffd\\ufffd\"");  // above U+10FFFF
  CHECK(utf8_sequence_length("\xe2\x82\xac", 0) == 3);
  CHECK(utf8_sequence_length("\xe2\x82", 0) == 0);
}
