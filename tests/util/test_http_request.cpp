// The HTTP request parser of the small servers (util/http_request.hpp): whole heads, heads still arriving,
// and every malformed, oversized or unsupported request refused with its status, whatever bytes it holds.
#include <cstdint>
#include <string>
#include <string_view>

#include <doctest/doctest.h>

#include <proofline/util/http_request.hpp>
#include <proofline/util/text.hpp>

namespace proofline {

namespace {

using State = HttpHeadParse::State;

HttpLimits post_limits(std::uint64_t max_body = 1000) {
  HttpLimits limits;
  limits.max_head = 256;
  limits.max_body = max_body;
  limits.methods = {"GET", "HEAD", "POST"};
  limits.methods_with_body = {"POST"};
  return limits;
}

/// The status a request is refused with (0 when it is not refused).
int refusal(std::string_view data, const HttpLimits& limits = post_limits()) {
  const HttpHeadParse parsed = parse_http_head(data, limits);
  return parsed.state == State::refused ? parsed.status : 0;
}

}  // namespace

TEST_CASE("util/http request/a whole head: method, path, query, lowercased fields, Content-Length") {
  const std::string data =
      "POST /prove/mul?x=1&y HTTP/1.1\r\nHost: a\r\nContent-Type:  application/json \r\n"
      "Content-Length: 5\r\nX-Empty:\r\n\r\nhello";
  const HttpHeadParse parsed = parse_http_head(data, post_limits());
  REQUIRE(parsed.state == State::complete);
  CHECK(parsed.head_bytes == data.size() - 5);
  const HttpRequest& r = parsed.request;
  CHECK(r.method == "POST");
  CHECK(r.path == "/prove/mul");
  CHECK(r.query == "x=1&y");
  CHECK(r.minor_version == 1);
  CHECK(r.content_length == 5);
  REQUIRE(r.header("content-type") != nullptr);
  CHECK(*r.header("content-type") == "application/json");
  CHECK(*r.header("x-empty") == "");
  CHECK(r.header("Content-Type") == nullptr);  // names are looked up lowercased
  CHECK(r.header("accept") == nullptr);
}

TEST_CASE("util/http request/bare LF line ends and HTTP/1.0 are read") {
  const HttpHeadParse parsed = parse_http_head("GET /healthz HTTP/1.0\nHost: a\n\n", post_limits());
  REQUIRE(parsed.state == State::complete);
  CHECK(parsed.request.minor_version == 0);
  CHECK(parsed.request.path == "/healthz");
  CHECK(parsed.request.content_length == 0);
}

TEST_CASE("util/http request/a head still arriving asks for more, at every cut") {
  const std::string data = "POST /prove HTTP/1.1\r\nContent-Length: 2\r\n\r\n";
  for (std::size_t cut = 0; cut < data.size(); ++cut)
    CHECK_MESSAGE(parse_http_head(data.substr(0, cut), post_limits()).state == State::incomplete, cut);
  CHECK(parse_http_head(data, post_limits()).state == State::complete);
}

TEST_CASE("util/http request/malformed request lines are 400") {
  for (const char* line :
       {"hello\r\n\r\n", "GET\r\n\r\n", "GET /\r\n\r\n", "GET / HTTP/1.1 x\r\n\r\n",
        "GET  / HTTP/1.1\r\n\r\n", "GET x HTTP/1.1\r\n\r\n", "G(T / HTTP/1.1\r\n\r\n",
        "GET / HTTP/1.x\r\n\r\n", "GET / HTTP/11.1\r\n\r\n", "GET /a\x01 HTTP/1.1\r\n\r\n",
        "\r\n\r\nGET\r\n\r\n", "GET / http/1.1\r\n\r\n", "GET /a%zz HTTP/1.1\r\n\r\n",
        "GET /a%2 HTTP/1.1\r\n\r\n", "GET /a%00 HTTP/1.1\r\n\r\n", "GET /a%0a HTTP/1.1\r\n\r\n"})
    CHECK_MESSAGE(refusal(line) == 400, line);
  // Garbage is refused as soon as its first line is whole, without waiting for a blank line.
  using namespace std::string_view_literals;
  CHECK(refusal("\x16\x03\x01\x02\x00\x01\x00\x01\xfc\n"sv) == 400);
}

TEST_CASE(
    "util/http request/empty lines before the request line are passed over and other versions are 505") {
  const std::string request = "GET /keys HTTP/1.1\r\n\r\n";
  for (const std::string blank : {"\r\n", "\n", "\r\n\r\n"}) {
    const HttpHeadParse parsed = parse_http_head(blank + request, post_limits());
    REQUIRE(parsed.state == State::complete);
    CHECK(parsed.head_bytes == blank.size() + request.size());
    CHECK(parsed.request.path == "/keys");
    CHECK(parse_http_head(blank, post_limits()).state == State::incomplete);
  }
  CHECK(refusal(std::string(256, '\n')) == 400);  // they count toward max_head
  CHECK(refusal("GET / HTTP/2.0\r\n\r\n") == 505);
  CHECK(refusal("GET / HTTP/0.9\r\n\r\n") == 505);
}

TEST_CASE("util/http request/a path's %-escapes are decoded") {
  const HttpHeadParse get = parse_http_head("GET /prove/bn%2Fkey%20%7e?a%2F HTTP/1.1\r\n\r\n", post_limits());
  REQUIRE(get.state == State::complete);
  CHECK(get.request.path == "/prove/bn/key ~");
  CHECK(get.request.query == "a%2F");  // the query is the handler's to read
}

TEST_CASE("util/http request/malformed header fields are 400") {
  for (const char* head :
       {"GET / HTTP/1.1\r\nno colon\r\n\r\n", "GET / HTTP/1.1\r\nbad name: x\r\n\r\n",
        "GET / HTTP/1.1\r\n: x\r\n\r\n", "GET / HTTP/1.1\r\nA: b\r\n folded\r\n\r\n",
        "GET / HTTP/1.1\r\nContent-Length: -1\r\n\r\n", "GET / HTTP/1.1\r\nContent-Length: 1x\r\n\r\n",
        "GET / HTTP/1.1\r\nContent-Length:\r\n\r\n",
        "GET / HTTP/1.1\r\nContent-Length: 99999999999999999999\r\n\r\n",
        "POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n"})
    CHECK_MESSAGE(refusal(head) == 400, head);
  // The same length twice is one length.
  CHECK(refusal("POST / HTTP/1.1\r\nContent-Length: 2\r\ncontent-length: 2\r\n\r\n") == 0);
}

TEST_CASE("util/http request/a CR or NUL in a field value is 400, not a value") {
  using namespace std::string_view_literals;
  // Some parsers end a line at a bare CR: a proxy in front could read a field the server did not.
  for (const std::string_view head :
       {"GET / HTTP/1.1\r\nA: b\rX-Real-Ip: 1\r\n\r\n"sv, "GET / HTTP/1.1\r\nA: b\0c\r\n\r\n"sv,
        "GET / HTTP/1.1\r\nA: b\r\r\n\r\n"sv, "GET / HTTP/1.1\nA: \0\n\n"sv}) {
    const HttpHeadParse parsed = parse_http_head(head, post_limits());
    CHECK_MESSAGE(parsed.status == 400, quote_for_message(head));
    CHECK(parsed.message.starts_with("malformed header field 'A: "));
  }
  // Other bytes a value may hold are kept as they are.
  const HttpHeadParse tab = parse_http_head("GET / HTTP/1.1\r\nA: b\tc\x80\r\n\r\n", post_limits());
  REQUIRE(tab.state == State::complete);
  CHECK(*tab.request.header("a") == "b\tc\x80");
}

TEST_CASE("util/http request/methods, lengths and codings outside the limits get their statuses") {
  CHECK(refusal("PUT / HTTP/1.1\r\n\r\n") == 405);
  const HttpHeadParse wrong = parse_http_head("DELETE /x HTTP/1.1\r\n", post_limits());
  CHECK(wrong.status == 405);  // judged from the request line alone
  CHECK(wrong.message == "method DELETE is not allowed here (only GET, HEAD, POST)");
  CHECK(refusal("POST / HTTP/1.1\r\n\r\n") == 411);
  CHECK(refusal("GET / HTTP/1.1\r\n\r\n") == 0);  // a GET needs no length
  CHECK(refusal("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n") == 501);
  CHECK(refusal("POST / HTTP/1.1\r\nContent-Length: 1000\r\n\r\n") == 0);
  const HttpHeadParse big = parse_http_head("POST / HTTP/1.1\r\nContent-Length: 1001\r\n\r\n", post_limits());
  CHECK(big.status == 413);
  CHECK(big.message == "a body of 1001 bytes is over the 1000-byte limit");
  CHECK(refusal("GET / HTTP/1.1\r\nContent-Length: 1\r\n\r\n", HttpLimits{}) == 413);  // no bodies at all
}

TEST_CASE("util/http request/a head over the limit is 400, whether or not its line ends") {
  const HttpLimits limits = post_limits();
  CHECK(refusal(std::string(300, 'a'), limits) == 400);
  CHECK(refusal("GET /" + std::string(300, 'a') + " HTTP/1.1\r\n\r\n", limits) == 400);
  CHECK(refusal("GET / HTTP/1.1\r\nA: " + std::string(300, 'b'), limits) == 400);
  CHECK(parse_http_head("GET / HTTP/1.1\r\nA: " + std::string(200, 'b'), limits).state == State::incomplete);
}

TEST_CASE("util/http request/a head of max_head bytes is whole, one byte more is 400") {
  const HttpLimits limits = post_limits();  // max_head 256
  for (const std::string_view end : {"\r\n\r\n", "\n\n", "\n\r\n"}) {
    const std::string line = "GET / HTTP/1.1\r\nA: ";
    const std::string fits =
        line + std::string(limits.max_head - line.size() - end.size(), 'b') + std::string(end);
    REQUIRE(fits.size() == limits.max_head);
    const HttpHeadParse parsed = parse_http_head(fits + "body", limits);
    CHECK(parsed.state == State::complete);
    CHECK(parsed.head_bytes == limits.max_head);
    const std::string over = line + "b" + fits.substr(line.size());
    CHECK_MESSAGE(refusal(over, limits) == 400, over.size());
    CHECK(refusal(over + "body", limits) == 400);
  }
}

TEST_CASE("util/http request/a request line past max_head is 400 however its bytes arrive") {
  // Cut at the bound by a short read, the line was judged malformed (400); read whole, with its end past the
  // bound, it was judged on its method (405). Either way it is a head over the bound, and now said so.
  const HttpLimits limits = post_limits();  // max_head 256
  const std::string data = "FOO /" + std::string(300, 'a') + " HTTP/1.1\r\n\r\n";
  for (std::size_t cut = 0; cut <= data.size(); ++cut) {
    const HttpHeadParse parsed = parse_http_head(std::string_view(data).substr(0, cut), limits);
    if (cut <= limits.max_head) {
      CHECK_MESSAGE(parsed.state == State::incomplete, cut);
    } else {
      CHECK_MESSAGE(parsed.status == 400, cut);
      CHECK_MESSAGE(parsed.message == "the request head is over 256 bytes", cut);
    }
  }
  // A line that ends on the bound's last byte is still judged on its own.
  const std::string fits = "FOO /" + std::string(limits.max_head - 15, 'a') + " HTTP/1.1\n";
  REQUIRE(fits.size() == limits.max_head);
  CHECK(refusal(fits, limits) == 405);
  CHECK(refusal(fits + "more", limits) == 405);
}

TEST_CASE("util/http request/a body is framed by Content-Length alone, extra bytes left over") {
  const HttpLimits limits = post_limits();
  const std::string data = "POST /p HTTP/1.1\r\nContent-Length: 5\r\n\r\nhelloGET / HTTP/1.1\r\n\r\n";
  const HttpHeadParse head = parse_http_head(data, limits);
  REQUIRE(head.state == State::complete);
  // Every prefix that holds the head: the bytes the body still misses, then the body and what follows it.
  for (std::size_t cut = head.head_bytes; cut <= data.size(); ++cut) {
    const std::string_view part = std::string_view(data).substr(0, cut);
    const HttpBodyFrame frame = frame_http_body(part, head, limits);
    if (cut < head.head_bytes + 5) {
      REQUIRE(frame.state == HttpBodyFrame::State::incomplete);
      CHECK(frame.missing == head.head_bytes + 5 - cut);
    } else {
      REQUIRE(frame.state == HttpBodyFrame::State::complete);
      CHECK(frame.body == "hello");
      CHECK(frame.leftover == part.substr(head.head_bytes + 5));
    }
  }
  // No body: complete at once.
  const std::string get = "GET / HTTP/1.1\r\n\r\n";
  const HttpBodyFrame none = frame_http_body(get, parse_http_head(get, limits), limits);
  CHECK(none.state == HttpBodyFrame::State::complete);
  CHECK(none.body.empty());
}

TEST_CASE("util/http request/a body length near 2^64 is missing bytes, not a short body") {
  HttpLimits limits = post_limits();
  limits.max_body = UINT64_MAX;
  const std::string data = "POST /p HTTP/1.1\r\n\r\nabc";
  HttpHeadParse head;
  head.state = State::complete;
  head.head_bytes = data.size() - 3;
  head.request.content_length = UINT64_MAX;
  const HttpBodyFrame frame = frame_http_body(data, head, limits);
  REQUIRE(frame.state == HttpBodyFrame::State::incomplete);
  CHECK(frame.missing == UINT64_MAX - 3);
}

TEST_CASE("util/http request/framing refuses a body over max_body and a head that is not whole") {
  const HttpLimits limits = post_limits(10);
  const std::string data = "POST /p HTTP/1.1\r\nContent-Length: 11\r\n\r\n";
  HttpHeadParse head = parse_http_head(data, post_limits(100));  // parsed with other limits
  REQUIRE(head.state == State::complete);
  const HttpBodyFrame big = frame_http_body(data, head, limits);
  CHECK(big.state == HttpBodyFrame::State::refused);
  CHECK(big.status == 413);
  CHECK(big.message == "a body of 11 bytes is over the 10-byte limit");
  CHECK(frame_http_body(data.substr(0, 5), head, post_limits(100)).status == 500);  // shorter than its head
  CHECK(frame_http_body(data, parse_http_head("POST /p", limits), limits).status == 500);
}

TEST_CASE("util/http request/every byte string is parsed without a crash") {
  // A cheap fuzz: every prefix and every one-byte change of a valid request is either fine or refused.
  const std::string data = "POST /prove/k?q HTTP/1.1\r\nContent-Length: 3\r\nA: b\r\n\r\nabc";
  for (std::size_t i = 0; i < data.size(); ++i)
    for (const char c : {'\0', ' ', '\n', '\r', ':', 'x', '\x80', '/'}) {
      std::string mutated = data;
      mutated[i] = c;
      const HttpHeadParse parsed = parse_http_head(mutated, post_limits());
      if (parsed.state == State::complete) CHECK(parsed.head_bytes <= mutated.size());
    }
}

TEST_CASE("util/http request/reasons") {
  CHECK(http_reason(200) == "OK");
  CHECK(http_reason(413) == "Content Too Large");
  CHECK(http_reason(422) == "Unprocessable Content");
  CHECK(http_reason(299) == "Unknown");
}

}  // namespace proofline
