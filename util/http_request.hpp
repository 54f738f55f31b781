// An HTTP/1.x request as a small server reads it from an untrusted client: the head (request line and
// header fields) parsed strictly and within a size bound, the body framed only by Content-Length (no chunked
// transfer coding: a client that cannot say the length in advance gets 411) and bounded too. Pure parsing,
// no sockets, so that every malformed or oversized request can be tested byte by byte (util/http_server.hpp
// reads from the socket and calls these).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace proofline {

struct HttpRequest {
  std::string method;  ///< "GET", "POST", ... (case-sensitive, as HTTP says)
  std::string path;    ///< the target up to '?', %XX escapes decoded: "/prove/mul"
  std::string query;   ///< after '?', without it; empty when none
  int minor_version = 1;
  /// Header fields in order, names lowercased, values without the blanks around them.
  std::vector<std::pair<std::string, std::string>> headers;
  std::uint64_t content_length = 0;  ///< 0 when the request has no body
  std::string body;

  /// The value of the first field named `name` (lowercase), or nullptr.
  const std::string* header(std::string_view name) const;
};

/// What a server accepts.
struct HttpLimits {
  std::size_t max_head = 8192;  ///< request line and header fields, the blank line included
  std::uint64_t max_body = 0;   ///< the largest Content-Length accepted (0: no body at all)
  std::vector<std::string> methods = {"GET", "HEAD"};  ///< others are 405
  /// Methods whose requests must carry a body length (411 without Content-Length).
  std::vector<std::string> methods_with_body = {};
};

/// The outcome of parsing what has arrived so far.
struct HttpHeadParse {
  enum class State {
    incomplete,  ///< no blank line yet, and still within max_head: read more
    complete,  ///< `request` holds the head; its body is the `request.content_length` bytes after head_bytes
    refused,   ///< answer `status` with `message` and close
  };
  State state = State::incomplete;
  std::size_t head_bytes = 0;  ///< bytes of `data` the head took, the blank line included
  HttpRequest request{};
  int status = 0;  ///< 400, 405, 411, 413, 501, 505 when refused
  std::string message{};
};

/// Parses the head at the start of `data` (the bytes read so far), after any empty lines. Lines end in CRLF
/// or a bare LF. Refuses (400) a malformed request line (not "METHOD SP TARGET SP HTTP/d.d", a target not
/// starting with '/', a '%' in its path not followed by two hex digits or escaping a control character),
/// (505) a version other than HTTP/1.x,
/// a malformed field line (no colon, a blank or control character in the name, a CR or NUL in the value,
/// obsolete line folding), a head over max_head bytes, a Content-Length that is not decimal digits or given
/// twice with different values; 405 for a method not in `methods`; 501 for any Transfer-Encoding; 411 for a
/// method of `methods_with_body` without Content-Length; 413 for a Content-Length over max_body.
HttpHeadParse parse_http_head(std::string_view data, const HttpLimits& limits);

/// The body of a request whose head is whole, framed in the bytes read so far by the head's Content-Length
/// alone: the server reads exactly that many bytes after the head, however the client's bytes arrive.
struct HttpBodyFrame {
  enum class State {
    incomplete,  ///< `missing` more bytes of body are still to be read
    complete,    ///< `body` holds it, `leftover` whatever came after it
    refused,     ///< answer `status` with `message` and close
  };
  State state = State::incomplete;
  std::uint64_t missing = 0;  ///< when incomplete: bytes of body not yet in `data` (at least 1)
  /// When complete: the Content-Length bytes after the head, within `data`.
  std::string_view body{};
  /// When complete: the bytes after the body (a pipelined request, which a server that closes after one
  /// answer never reads), within `data`.
  std::string_view leftover{};
  int status = 0;  ///< 413 or 500 when refused
  std::string message{};
};

/// Frames the body of `head` (parse_http_head's complete result on the start of `data`) in `data`, the bytes
/// read so far, the head included. Refuses (413) a Content-Length over limits.max_body, should the head come
/// from other limits, and (500) a head that is not complete or longer than `data`: the caller's mistake, not
/// the client's.
HttpBodyFrame frame_http_body(std::string_view data, const HttpHeadParse& head, const HttpLimits& limits);

/// "OK", "Not Found", ... for the statuses a server here answers; "Unknown" for others.
std::string_view http_reason(int status) noexcept;

}  // namespace proofline
