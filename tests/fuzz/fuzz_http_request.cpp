// libFuzzer target: the HTTP request head parser that `proofline serve` and the fleet's metrics endpoint run
// on whatever a client sends. It must return incomplete, a refusal or a head that keeps every promise of
// util/http_request.hpp (within the limits, a method allowed, a Content-Length that the fields say), and give
// the same head for the bytes of the head alone as for those bytes and whatever follows them, since the
// server parses again each time more arrives.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <proofline/util/http_request.hpp>

namespace {

bool is_token(std::string_view text) {
  return !text.empty() && std::ranges::all_of(text, [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return (u >= '0' && u <= '9') || (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') ||
           std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
  });
}

bool has_control(std::string_view text) {
  return std::ranges::any_of(text, [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
}

bool same_head(const proofline::HttpHeadParse& x, const proofline::HttpHeadParse& y) {
  return x.state == y.state && x.head_bytes == y.head_bytes && x.status == y.status &&
         x.request.method == y.request.method && x.request.path == y.request.path &&
         x.request.query == y.request.query && x.request.minor_version == y.request.minor_version &&
         x.request.headers == y.request.headers && x.request.content_length == y.request.content_length;
}

void check(std::string_view data, const proofline::HttpLimits& limits) {
  using proofline::HttpHeadParse;
  const HttpHeadParse parsed = proofline::parse_http_head(data, limits);
  switch (parsed.state) {
    case HttpHeadParse::State::incomplete:
      // The server reads on only while the head may still fit.
      if (data.size() > limits.max_head) __builtin_trap();
      return;
    case HttpHeadParse::State::refused:
      if (parsed.status != 400 && parsed.status != 405 && parsed.status != 411 && parsed.status != 413 &&
          parsed.status != 501 && parsed.status != 505)
        __builtin_trap();
      if (proofline::http_reason(parsed.status) == "Unknown") __builtin_trap();
      // The message goes into the answer's body and the log: one printable line.
      if (parsed.message.empty() || has_control(parsed.message)) __builtin_trap();
      return;
    case HttpHeadParse::State::complete:
      break;
  }
  const proofline::HttpRequest& request = parsed.request;
  // The head: within the bound and the data, ending in its blank line.
  if (parsed.head_bytes == 0 || parsed.head_bytes > data.size() || parsed.head_bytes > limits.max_head)
    __builtin_trap();
  const std::string_view head = data.substr(0, parsed.head_bytes);
  if (!head.ends_with("\n\n") && !head.ends_with("\n\r\n")) __builtin_trap();
  // The request line.
  if (std::ranges::find(limits.methods, request.method) == limits.methods.end() || !is_token(request.method))
    __builtin_trap();
  // The path with its %XX escapes decoded (a space, a '?' or a '/' may come of them; a control never does),
  // the query as sent.
  if (!request.path.starts_with('/')) __builtin_trap();
  if (std::ranges::any_of(request.path,
                          [](char c) { return static_cast<unsigned char>(c) < ' ' || c == 0x7f; }))
    __builtin_trap();
  if (std::ranges::any_of(request.query, [](char c) { return static_cast<unsigned char>(c) <= ' '; }))
    __builtin_trap();
  if (request.minor_version < 0 || request.minor_version > 9) __builtin_trap();
  // The fields: lowercase token names, values without the blanks around them or a line end in them, and
  // neither CR nor NUL (RFC 9110 5.5: reject or replace them).
  for (const auto& [name, value] : request.headers) {
    if (!is_token(name) || std::ranges::any_of(name, [](char c) { return c >= 'A' && c <= 'Z'; }))
      __builtin_trap();
    if (!value.empty() &&
        (value.front() == ' ' || value.front() == '\t' || value.back() == ' ' || value.back() == '\t'))
      __builtin_trap();
    if (value.find_first_of(std::string_view("\r\n\0", 3)) != std::string::npos) __builtin_trap();
    if (name == "transfer-encoding") __builtin_trap();
  }
  // The body's length: what every Content-Length field says, within max_body; none is no body.
  bool has_length = false;
  for (const auto& [name, value] : request.headers) {
    if (name != "content-length") continue;
    has_length = true;
    if (value.empty() || value.size() > 19 || value.find_first_not_of("0123456789") != std::string::npos ||
        std::stoull(value) != request.content_length)
      __builtin_trap();
  }
  if (!has_length && request.content_length != 0) __builtin_trap();
  if (request.content_length > limits.max_body) __builtin_trap();
  if (!has_length &&
      std::ranges::find(limits.methods_with_body, request.method) != limits.methods_with_body.end())
    __builtin_trap();
  const std::string* first = request.header("content-length");
  if ((first != nullptr) != has_length) __builtin_trap();
  // The head alone parses to the same head; any shorter prefix of it is not yet a head.
  if (!same_head(proofline::parse_http_head(head, limits), parsed)) __builtin_trap();
  if (proofline::parse_http_head(head.substr(0, head.size() - 1), limits).state ==
      HttpHeadParse::State::complete)
    __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  // The first two bytes pick the limits: a head bound from tiny to the default, a body bound, and whether
  // POST is served (and must carry a length), as `proofline serve` does.
  proofline::HttpLimits limits;
  limits.max_head = data[0] < 128 ? 8192 : 16 + (data[0] & 0x7f) * 4;
  limits.max_body = (data[1] & 3) == 0 ? 0 : (data[1] & 3) == 1 ? 100 : std::uint64_t{1} << (data[1] >> 2);
  if ((data[1] & 2) != 0) {
    limits.methods = {"GET", "HEAD", "POST"};
    limits.methods_with_body = {"POST"};
  }
  check(std::string_view(reinterpret_cast<const char*>(data) + 2, size - 2), limits);
  return 0;
}
