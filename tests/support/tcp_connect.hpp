// A TCP connection to a test server's bound address ("HOST:PORT" or "[V6]:PORT", as the HTTP servers report
// it), for the tests that talk to those servers over real sockets.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include <proofline/util/file_descriptor.hpp>

namespace proofline::test_support {

/// A connected socket, or an empty descriptor (-1) when the connection is refused. "HOST:PORT" with an IPv4
/// host, or "[V6]:PORT".
inline FileDescriptor connect_tcp(const std::string& address) {
  const auto colon = address.rfind(':');
  if (colon == std::string::npos) throw std::invalid_argument("not a HOST:PORT address: " + address);
  const auto port = htons(static_cast<std::uint16_t>(std::stoi(address.substr(colon + 1))));
  std::string host = address.substr(0, colon);
  sockaddr_storage peer{};
  socklen_t length = 0;
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    auto* v6 = reinterpret_cast<sockaddr_in6*>(&peer);
    v6->sin6_family = AF_INET6;
    v6->sin6_port = port;
    if (::inet_pton(AF_INET6, host.substr(1, host.size() - 2).c_str(), &v6->sin6_addr) != 1)
      throw std::invalid_argument("not an [IPv6]:PORT address: " + address);
    length = sizeof(sockaddr_in6);
  } else {
    auto* v4 = reinterpret_cast<sockaddr_in*>(&peer);
    v4->sin_family = AF_INET;
    v4->sin_port = port;
    if (::inet_pton(AF_INET, host.c_str(), &v4->sin_addr) != 1)
      throw std::invalid_argument("not an IPv4 HOST:PORT address: " + address);
    length = sizeof(sockaddr_in);
  }
  FileDescriptor fd(::socket(peer.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (::connect(fd.get(), reinterpret_cast<sockaddr*>(&peer), length) != 0) return FileDescriptor();
  return fd;
}

}  // namespace proofline::test_support
