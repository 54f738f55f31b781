// The small JSON model: values, round trips, escapes, and clean errors (with position) on malformed text.
#include <doctest/doctest.h>

#include <string>

#include <proofline/groth16/json.hpp>
#include <proofline/util/error.hpp>

#include "support/errors.hpp"

using namespace proofline;
using namespace proofline::groth16;

namespace {

std::string parse_error(std::string_view text) {
  INFO("parsing " << text);
  return test_support::error_message(Errc::bad_input, [&] { json::parse(text, "in.json"); });
}

}  // namespace

TEST_CASE("groth16/json/parse reads every kind of value") {
  const json::Value v =
      json::parse(R"( {"a": [1, -2.5e3, "x"], "b": {"c": true, "d": false, "e": null}, "f": ""} )");
  REQUIRE(v.is_object());
  CHECK(v.size() == 3);
  CHECK(v.at("a").at(0).as_u64() == 1);
  CHECK(v.at("a").at(1).number_text() == "-2.5e3");
  CHECK(v.at("a").at(2).as_string() == "x");
  CHECK(v.at("b").at("c").as_bool());
  CHECK_FALSE(v.at("b").at("d").as_bool());
  CHECK(v.at("b").at("e").is_null());
  CHECK(v.at("f").as_string().empty());
  CHECK(v.find("missing") == nullptr);
  CHECK_THROWS_AS(v.at("missing"), Error);
  CHECK_THROWS_AS(v.at("a").at(3), Error);
  CHECK_THROWS_AS(v.at("f").as_u64(), Error);
  CHECK_THROWS_AS(v.at("a").at(1).as_u64(), Error);
  CHECK(json::parse("18446744073709551615").as_u64() == 18446744073709551615ULL);
  CHECK_THROWS_AS(json::parse("18446744073709551616").as_u64(), Error);
}

TEST_CASE("groth16/json/strings escape and unescape") {
  const std::string raw = std::string("q\"b\\s/n\nt\tc") + '\x01' + "\xc3\xa9";
  const json::Value v(raw);
  const std::string text = json::dump(v);
  CHECK(text == "\"q\\\"b\\\\s/n\\nt\\tc\\u0001\xc3\xa9\"");
  CHECK(json::parse(text).as_string() == raw);
  CHECK(json::parse(R"("\u00e9\ud83d\ude00\/")").as_string() == "\xc3\xa9\xf0\x9f\x98\x80/");
}

TEST_CASE("groth16/json/dump and parse round trip") {
  json::Value doc = json::Value::object();
  doc.set("name", "proof");
  doc.set("list", json::Value::array({"1", "2", json::Value::array({"3"})}));
  doc.set("n", std::uint64_t{42});
  doc.set("empty", json::Value::object());
  doc.set("name", "again");  // replaces, keeps the position
  CHECK(doc.as_object().front().first == "name");
  CHECK(doc.at("name").as_string() == "again");
  for (int indent : {-1, 0, 2}) CHECK(json::parse(json::dump(doc, indent)) == doc);
  CHECK(json::dump(doc, -1) == R"({"name":"again","list":["1","2",["3"]],"n":42,"empty":{}})");
  CHECK_THROWS_AS(json::Value::number("01"), Error);
  CHECK_THROWS_AS(json::Value("x").push_back(1), Error);
}

TEST_CASE("groth16/json/malformed text is a clean error with a position") {
  CHECK(parse_error("{\"a\": 1,\n \"a\": 2}").find("in.json: line 2, column 2: duplicate key \"a\"") == 0);
  CHECK(parse_error("[1, 2").find("in.json: line 1") == 0);
  for (const char* bad : {"",
                          "{",
                          "[",
                          "{\"a\" 1}",
                          "{\"a\":}",
                          "[1,]",
                          "tru",
                          "nul",
                          "01",
                          "1.",
                          "-",
                          "1e",
                          "\"abc",
                          "\"\\x\"",
                          "\"\\u12\"",
                          "\"\\ud800\"",
                          "\"\\udc00x\"",
                          "{} x",
                          "[1 2]",
                          "{1: 2}",
                          "\"a\nb\""})
    CHECK_MESSAGE(!parse_error(bad).empty(), bad);
  CHECK(parse_error(std::string(200, '[')).find("nesting deeper than 128") != std::string::npos);
  CHECK_NOTHROW(json::parse(std::string(100, '[') + std::string(100, ']')));
}
