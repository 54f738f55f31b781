#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>

#include <proofline/trace/json_text.hpp>

#include "trace/json_check.hpp"

using namespace proofline::trace;
using proofline::test::parse_json;

namespace {

/// Quotes `raw` and decodes it again with the independent parser.
std::string round_trip(const std::string& raw) {
  return parse_json(json_quote(raw)).text;
}

}  // namespace

TEST_CASE("trace/json/strings are escaped and read back unchanged") {
  CHECK(json_quote("copy") == "\"copy\"");
  CHECK(json_quote("a\"b\\c") == "\"a\\\"b\\\\c\"");
  CHECK(json_quote("line\nnext\ttab") == "\"line\\nnext\\ttab\"");
  CHECK(json_quote(std::string("\x01\x1f", 2)) == "\"\\u0001\\u001f\"");
  CHECK(json_quote(std::string("nul\0byte", 8)) == "\"nul\\u0000byte\"");
  for (const std::string& raw :
       {std::string("plain"), std::string("q\"uote\\back/slash"), std::string("ctl \b\f\r\x7f"),
        std::string("\xc3\xbc \xe2\x82\xac \xf0\x9f\x98\x80"), std::string("\x00\x01", 2), std::string()}) {
    CAPTURE(raw);
    CHECK(round_trip(raw) == raw);
  }
}

TEST_CASE("trace/json/bytes that are not UTF-8 become U+FFFD") {
  const std::string replacement = "\xef\xbf\xbd";
  const struct {
    const char* raw;
    const char* why;
  } cases[] = {
      {"\x80", "lone continuation byte"},   {"\xc0\x80", "overlong NUL"},
      {"\xed\xa0\x80", "UTF-16 surrogate"}, {"\xf5\x80\x80\x80", "above U+10FFFF"},
      {"\xe2\x82", "truncated sequence"},   {"\xff", "never valid"},
      {"\xf4\x90\x80\x80", "U+110000"},     {"\xe0\x9f\xbf", "overlong three-byte"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.why);
    const std::string decoded = round_trip(std::string("a") + c.raw + "b");
    CHECK(decoded.substr(0, 1) == "a");
    CHECK(decoded.substr(decoded.size() - 1) == "b");
    CHECK(decoded.find(replacement) != std::string::npos);
    CHECK(json_quote(c.raw).find("\\ufffd") != std::string::npos);
  }
  // The largest valid code point and the first after the surrogates survive.
  CHECK(round_trip("\xf4\x8f\xbf\xbf") == "\xf4\x8f\xbf\xbf");
  CHECK(round_trip("\xee\x80\x80") == "\xee\x80\x80");
}

TEST_CASE("trace/json/nanoseconds print as exact microseconds") {
  CHECK(ns_as_us(0) == "0.000");
  CHECK(ns_as_us(1) == "0.001");
  CHECK(ns_as_us(999) == "0.999");
  CHECK(ns_as_us(1000) == "1.000");
  CHECK(ns_as_us(1234567) == "1234.567");
  CHECK(ns_as_us(-1) == "-0.001");
  CHECK(ns_as_us(-1234567) == "-1234.567");
  CHECK(ns_as_us(std::numeric_limits<std::int64_t>::max()) == "9223372036854775.807");
  CHECK(ns_as_us(std::numeric_limits<std::int64_t>::min()) == "-9223372036854775.808");
  std::mt19937_64 rng(42);
  for (int i = 0; i < 1000; ++i) {
    const auto ns = static_cast<std::int64_t>(rng() >> 12) - (std::int64_t{1} << 51);
    const std::string text = ns_as_us(ns);
    CAPTURE(ns);
    // Reading it as a decimal of microseconds and scaling back must give the integer exactly.
    const std::size_t dot = text.find('.');
    REQUIRE(dot != std::string::npos);
    CHECK(text.size() - dot - 1 == 3);
    const std::string digits = text.substr(0, dot) + text.substr(dot + 1);
    CHECK(std::strtoll(digits.c_str(), nullptr, 10) == ns);
    CHECK(parse_json(text).type == proofline::test::JsonValue::Type::number);
  }
}

TEST_CASE("trace/json/numbers read back exactly and non-finite ones become null") {
  CHECK(json_number(0.5) == "0.5");
  CHECK(json_number(3) == "3");
  CHECK(json_number(std::nan("")) == "null");
  CHECK(json_number(std::numeric_limits<double>::infinity()) == "null");
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> exponent(-300, 300);
  for (int i = 0; i < 1000; ++i) {
    const double v = (rng() % 2 ? -1 : 1) * std::pow(10.0, exponent(rng));
    const std::string text = json_number(v);
    CAPTURE(text);
    CHECK(parse_json(text).number == v);
  }
}
