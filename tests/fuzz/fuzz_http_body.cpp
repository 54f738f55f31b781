// libFuzzer target: the body framing of the small HTTP servers (frame_http_body in util/http_request.hpp),
// driven as HttpServer::read_request drives it: the client's bytes arrive in pieces of any size (a short read
// each), the head is parsed again after each until it is whole, then only the bytes the body still misses
// are read. Whatever the bytes and however they are split, the outcome must be the one the whole stream
// gives at once: the same refusal, or the same body (exactly Content-Length bytes right after the head), or
// a connection that ends before the request does. Each frame must keep its own promises too: a body and
// leftover that are the data after the head, a `missing` count that is what the body lacks, a refusal with
// a status and a one-line message.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <proofline/util/http_request.hpp>

namespace {

using proofline::HttpBodyFrame;
using proofline::HttpHeadParse;
using proofline::HttpLimits;

/// What a connection comes to: a refusal, a body, or nothing (the client stopped sending first).
struct Outcome {
  enum class Kind { refused, body, ended } kind = Kind::ended;
  int status = 0;
  std::string body;
  bool operator==(const Outcome&) const = default;
};

bool has_control(std::string_view text) {
  return std::ranges::any_of(text, [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
}

/// Checks what frame_http_body promises about `frame`, framed in `data` after `head`.
void check_frame(std::string_view data, const HttpHeadParse& head, const HttpLimits& limits,
                 const HttpBodyFrame& frame) {
  const std::uint64_t length = head.request.content_length;
  const std::size_t after_head = data.size() - head.head_bytes;
  switch (frame.state) {
    case HttpBodyFrame::State::incomplete:
      if (frame.missing == 0 || after_head >= length || frame.missing != length - after_head)
        __builtin_trap();
      if (!frame.body.empty() || !frame.leftover.empty()) __builtin_trap();
      return;
    case HttpBodyFrame::State::refused:
      // A head that parse_http_head made with these limits is never refused here.
      __builtin_trap();
    case HttpBodyFrame::State::complete:
      break;
  }
  if (frame.body.size() != length || frame.body.data() != data.data() + head.head_bytes) __builtin_trap();
  if (frame.leftover.data() != frame.body.data() + frame.body.size() ||
      frame.body.size() + frame.leftover.size() != after_head)
    __builtin_trap();
  if (frame.body.size() > limits.max_body) __builtin_trap();
}

/// The whole stream at once.
Outcome at_once(std::string_view stream, const HttpLimits& limits) {
  const HttpHeadParse head = proofline::parse_http_head(stream, limits);
  if (head.state == HttpHeadParse::State::refused) return {Outcome::Kind::refused, head.status, {}};
  if (head.state == HttpHeadParse::State::incomplete) return {};
  const HttpBodyFrame frame = proofline::frame_http_body(stream, head, limits);
  check_frame(stream, head, limits, frame);
  if (frame.state == HttpBodyFrame::State::incomplete) return {};
  return {Outcome::Kind::body, 0, std::string(frame.body)};
}

/// The stream in pieces of `sizes` (in turn, again and again; 0: as much as the server's buffer takes), read
/// as HttpServer::read_request reads a socket.
Outcome in_pieces(std::string_view stream, const std::vector<std::size_t>& sizes, const HttpLimits& limits) {
  constexpr std::size_t buffer = 16384;  // read_request's
  std::string data;
  HttpHeadParse head;
  std::size_t at = 0;  // of `stream`: what the client has sent that the server has read
  for (std::size_t piece = 0;; ++piece) {
    if (head.state == HttpHeadParse::State::incomplete) {
      head = proofline::parse_http_head(data, limits);
      if (head.state == HttpHeadParse::State::refused) {
        // Refused or not, the parse of a prefix promises nothing the whole stream does not confirm.
        if (head.status == 0 || head.message.empty() || has_control(head.message)) __builtin_trap();
        return {Outcome::Kind::refused, head.status, {}};
      }
    }
    std::size_t want = buffer;
    if (head.state == HttpHeadParse::State::complete) {
      const HttpBodyFrame frame = proofline::frame_http_body(data, head, limits);
      check_frame(data, head, limits, frame);
      if (frame.state == HttpBodyFrame::State::complete) {
        // The server reads no byte past the body once the head is whole: only what came with the head.
        if (frame.leftover.size() >= buffer) __builtin_trap();
        return {Outcome::Kind::body, 0, std::string(frame.body)};
      }
      want = static_cast<std::size_t>(std::min<std::uint64_t>(want, frame.missing));
    }
    if (at == stream.size()) return {};  // the client closed: the request never ended
    const std::size_t size = sizes.empty() ? 0 : sizes[piece % sizes.size()];
    const std::size_t got = std::min({want, size == 0 ? buffer : size, stream.size() - at});
    data.append(stream.substr(at, got));
    at += got;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 3) return 0;
  // The first two bytes pick the limits as fuzz_http_request's do; the third how many piece sizes follow.
  HttpLimits limits;
  limits.max_head = data[0] < 128 ? 8192 : 16 + (data[0] & 0x7f) * 4;
  limits.max_body = (data[1] & 3) == 0 ? 0 : (data[1] & 3) == 1 ? 100 : std::uint64_t{1} << (data[1] >> 2);
  if ((data[1] & 2) != 0) {
    limits.methods = {"GET", "HEAD", "POST"};
    limits.methods_with_body = {"POST"};
  }
  const std::size_t pieces = std::min<std::size_t>(data[2] % 8, size - 3);
  std::vector<std::size_t> sizes;
  for (std::size_t i = 0; i < pieces; ++i) sizes.push_back(data[3 + i]);
  const std::string_view stream(reinterpret_cast<const char*>(data) + 3 + pieces, size - 3 - pieces);

  const Outcome whole = at_once(stream, limits);
  // One byte a read, the sizes the input gives, and the server's whole buffer each time: one outcome.
  if (in_pieces(stream, {1}, limits) != whole) __builtin_trap();
  if (in_pieces(stream, sizes, limits) != whole) __builtin_trap();
  if (in_pieces(stream, {}, limits) != whole) __builtin_trap();
  return 0;
}
