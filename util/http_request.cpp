#include <proofline/util/http_request.hpp>

#include <algorithm>

#include <proofline/util/text.hpp>

namespace proofline {

namespace {

/// RFC 9110's tchar: what a method and a field name are made of.
bool is_token_char(unsigned char c) {
  if (c >= '0' && c <= '9') return true;
  if ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') return true;
  return std::string_view("!#$%&'*+-.^_`|~").find(static_cast<char>(c)) != std::string_view::npos;
}

bool is_token(std::string_view text) {
  return !text.empty() && std::ranges::all_of(text, [](char c) { return is_token_char(c); });
}

std::string_view trim_blanks(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

std::string lowercase(std::string_view text) {
  std::string out(text);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c | 0x20);
  return out;
}

/// RFC 9110 5.5: CR and NUL in a field value must be refused (or replaced). Some parsers end a line at a
/// bare CR, so a proxy in front of the server could read other fields than the server does. (The line's
/// CRLF is already cut off, and a name with either is no token.)
bool holds_cr_or_nul(std::string_view field_line) {
  return field_line.find_first_of(std::string_view("\r\0", 2)) != std::string_view::npos;
}

HttpHeadParse refuse(int status, std::string message) {
  HttpHeadParse out;
  out.state = HttpHeadParse::State::refused;
  out.status = status;
  out.message = std::move(message);
  return out;
}

/// The end of the head (the index just past its blank line), or npos while there is none within the first
/// `max_head` bytes: a head that ends one byte later is over the bound.
std::size_t head_end(std::string_view data, std::size_t max_head) {
  data = data.substr(0, std::min(data.size(), max_head));
  for (std::size_t i = data.find('\n'); i != std::string_view::npos; i = data.find('\n', i + 1)) {
    if (i + 1 < data.size() && data[i + 1] == '\n') return i + 2;
    if (i + 2 < data.size() && data[i + 1] == '\r' && data[i + 2] == '\n') return i + 3;
  }
  return std::string_view::npos;
}

struct RequestLine {
  std::string_view method, target, version;
};

/// "METHOD SP TARGET SP HTTP/1.x": exactly two spaces, a token method, an origin-form target without
/// controls or blanks, and an HTTP/1 version; nothing for anything else.
std::optional<RequestLine> split_request_line(std::string_view line) {
  const std::size_t first = line.find(' ');
  const std::size_t second = first == std::string_view::npos ? first : line.find(' ', first + 1);
  if (first == std::string_view::npos || second == std::string_view::npos ||
      line.find(' ', second + 1) != std::string_view::npos)
    return std::nullopt;
  const RequestLine parts{line.substr(0, first), line.substr(first + 1, second - first - 1),
                          line.substr(second + 1)};
  const auto bad_target_char = [](char c) { return static_cast<unsigned char>(c) <= ' ' || c == 0x7f; };
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  if (!is_token(parts.method) || parts.target.empty() || parts.target.front() != '/' ||
      std::ranges::any_of(parts.target, bad_target_char) || parts.version.size() != 8 ||
      !parts.version.starts_with("HTTP/") || !digit(parts.version[5]) || parts.version[6] != '.' ||
      !digit(parts.version[7]))
    return std::nullopt;
  return parts;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/// The path with its %XX escapes decoded ("/prove/bn%2Fkey" names the key "bn/key"); nothing for a '%' not
/// followed by two hex digits, or an escape of a control character.
std::optional<std::string> percent_decoded(std::string_view path) {
  std::string out;
  out.reserve(path.size());
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (path[i] != '%') {
      out.push_back(path[i]);
      continue;
    }
    const int high = i + 2 < path.size() ? hex_digit(path[i + 1]) : -1;
    const int low = i + 2 < path.size() ? hex_digit(path[i + 2]) : -1;
    if (high < 0 || low < 0 || high * 16 + low < 0x20 || high * 16 + low == 0x7f) return std::nullopt;
    out.push_back(static_cast<char>(high * 16 + low));
    i += 2;
  }
  return out;
}

}  // namespace

const std::string* HttpRequest::header(std::string_view name) const {
  for (const auto& [field, value] : headers)
    if (field == name) return &value;
  return nullptr;
}

namespace {

/// parse_http_head of a head that starts with its request line.
HttpHeadParse parse_request_head(std::string_view data, const HttpLimits& limits) {
  const std::size_t end = head_end(data, limits.max_head);
  const std::size_t line_end = data.find('\n');
  // The request line is judged as soon as it is whole, so garbage is refused without waiting for more; but
  // only a line within max_head, like every other byte of the head. Judging a longer one would make the
  // answer depend on how the bytes arrived: a line cut at the bound by a short read is malformed, while the
  // same line read whole, its end past the bound, could be judged on its method instead.
  if (line_end == std::string_view::npos || line_end >= limits.max_head) {
    if (data.size() <= limits.max_head) return {};
    return refuse(400, "the request head is over " + std::to_string(limits.max_head) + " bytes");
  }
  std::string_view head = data.substr(0, std::min(end, data.size()));
  std::size_t position = 0;
  const auto next_line = [&]() -> std::optional<std::string_view> {
    const std::size_t newline = head.find('\n', position);
    if (newline == std::string_view::npos) return std::nullopt;
    std::string_view line = head.substr(position, newline - position);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    position = newline + 1;
    return line;
  };
  const std::string_view line = next_line().value_or(std::string_view());
  const std::optional<RequestLine> parts = split_request_line(line);
  if (!parts) return refuse(400, "malformed request line " + quote_for_message(line, 80, '\''));
  const auto& [method, target, version] = *parts;
  if (version[5] != '1')
    return refuse(505, "only HTTP/1.0 and HTTP/1.1 are served, not " + std::string(version));
  if (std::ranges::find(limits.methods, method) == limits.methods.end()) {
    std::string allowed;
    for (const std::string& m : limits.methods) allowed += (allowed.empty() ? "" : ", ") + m;
    return refuse(405, "method " + std::string(method) + " is not allowed here (only " + allowed + ")");
  }
  if (end == std::string_view::npos) {
    if (data.size() > limits.max_head)
      return refuse(400, "the request head is over " + std::to_string(limits.max_head) + " bytes");
    return {};
  }
  HttpHeadParse out;
  out.state = HttpHeadParse::State::complete;
  out.head_bytes = end;
  HttpRequest& request = out.request;
  request.method = std::string(method);
  const std::size_t question = target.find('?');
  const std::optional<std::string> path = percent_decoded(target.substr(0, question));
  if (!path) return refuse(400, "a malformed %-escape in " + quote_for_message(target, 80, '\''));
  request.path = *path;
  if (question != std::string_view::npos) request.query = std::string(target.substr(question + 1));
  request.minor_version = version[7] - '0';
  std::optional<std::uint64_t> length;
  while (const std::optional<std::string_view> field = next_line()) {
    if (field->empty()) break;  // the blank line that ends the head
    if (field->front() == ' ' || field->front() == '\t')
      return refuse(400, "obsolete line folding in the header fields");
    const std::size_t colon = field->find(':');
    if (colon == std::string_view::npos || !is_token(field->substr(0, colon)) || holds_cr_or_nul(*field))
      return refuse(400, "malformed header field " + quote_for_message(*field, 80, '\''));
    std::string name = lowercase(field->substr(0, colon));
    const std::string_view value = trim_blanks(field->substr(colon + 1));
    if (name == "content-length") {
      if (value.empty() || value.size() > 19 ||
          value.find_first_not_of("0123456789") != std::string_view::npos)
        return refuse(400, "Content-Length " + quote_for_message(value, 40, '\'') + " is not a length");
      const std::uint64_t n = std::stoull(std::string(value));
      if (length && *length != n) return refuse(400, "two different Content-Length fields");
      length = n;
    } else if (name == "transfer-encoding") {
      return refuse(501, "Transfer-Encoding is not supported: send the body with a Content-Length");
    }
    request.headers.emplace_back(std::move(name), std::string(value));
  }
  if (!length && std::ranges::find(limits.methods_with_body, method) != limits.methods_with_body.end())
    return refuse(411, "a " + std::string(method) + " needs a Content-Length");
  if (length && *length > limits.max_body)
    return refuse(413, limits.max_body == 0 ? std::string("this request takes no body")
                                            : "a body of " + std::to_string(*length) + " bytes is over the " +
                                                  std::to_string(limits.max_body) + "-byte limit");
  request.content_length = length.value_or(0);
  return out;
}

}  // namespace

HttpHeadParse parse_http_head(std::string_view data, const HttpLimits& limits) {
  // Empty lines before the request line are passed over, as HTTP asks of servers (some clients send a
  // CRLF after a request's body); they count toward max_head.
  std::size_t blank = 0;
  while (blank < data.size() && blank < limits.max_head && (data[blank] == '\n' || data[blank] == '\r'))
    ++blank;
  if (blank == 0) return parse_request_head(data, limits);
  if (blank == limits.max_head)
    return refuse(400, "the request head is over " + std::to_string(limits.max_head) + " bytes");
  HttpLimits rest = limits;
  rest.max_head -= blank;
  HttpHeadParse parsed = parse_request_head(data.substr(blank), rest);
  if (parsed.state == HttpHeadParse::State::complete) parsed.head_bytes += blank;
  return parsed;
}

HttpBodyFrame frame_http_body(std::string_view data, const HttpHeadParse& head, const HttpLimits& limits) {
  HttpBodyFrame out;
  const auto refuse = [&out](int status, std::string message) {
    out.state = HttpBodyFrame::State::refused;
    out.status = status;
    out.message = std::move(message);
    return out;
  };
  if (head.state != HttpHeadParse::State::complete || head.head_bytes == 0 || head.head_bytes > data.size())
    return refuse(500, "the request's body was framed before its head was whole");
  const std::uint64_t length = head.request.content_length;
  if (length > limits.max_body)
    return refuse(413, "a body of " + std::to_string(length) + " bytes is over the " +
                           std::to_string(limits.max_body) + "-byte limit");
  // Compared without adding to head_bytes: a length near 2^64 must not wrap into a short body.
  const std::size_t after_head = data.size() - head.head_bytes;
  if (after_head < length) {
    out.missing = length - after_head;
    return out;
  }
  out.state = HttpBodyFrame::State::complete;
  out.body = data.substr(head.head_bytes, static_cast<std::size_t>(length));
  out.leftover = data.substr(head.head_bytes + static_cast<std::size_t>(length));
  return out;
}

std::string_view http_reason(int status) noexcept {
  switch (status) {
    case 200:
      return "OK";
    case 400:
      return "Bad Request";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 408:
      return "Request Timeout";
    case 411:
      return "Length Required";
    case 413:
      return "Content Too Large";
    case 422:
      return "Unprocessable Content";
    case 500:
      return "Internal Server Error";
    case 501:
      return "Not Implemented";
    case 503:
      return "Service Unavailable";
    case 505:
      return "HTTP Version Not Supported";
  }
  return "Unknown";
}

}  // namespace proofline
