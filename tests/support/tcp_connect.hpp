// A TCP connection to a test server's bound address ("HOST:PORT", IPv4, as the HTTP servers report it), for
// the tests that talk to those servers over real sockets.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include <proofline/util/file_descriptor.hpp>

namespace proofline::test_support {

/// A connected socket, or an empty descriptor (-1) when the connection is refused.
inline FileDescriptor connect_tcp(const std::string& address) {
  const auto colon = address.rfind(':');
  sockaddr_in peer{};
  peer.sin_family = AF_INET;
  if (colon == std::string::npos ||
      ::inet_pton(AF_INET, address.substr(0, colon).c_str(), &peer.sin_addr) != 1)
    throw std::invalid_argument("not an IPv4 HOST:PORT address: " + address);
  peer.sin_port = htons(static_cast<std::uint16_t>(std::stoi(address.substr(colon + 1))));
  FileDescriptor fd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (::connect(fd.get(), reinterpret_cast<sockaddr*>(&peer), sizeof peer) != 0) return FileDescriptor();
  return fd;
}

}  // namespace proofline::test_support
