#pragma once

#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <string>

namespace reviewer::test_support {

// Connects to 127.0.0.1:`port`, sends `request` as given (any bytes: tests send hostile ones),
// and returns what the server answers until it closes the connection or `timeout` passes; ""
// when the connection cannot be made.
inline std::string http_exchange(int port, const std::string& request,
                                 std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  if (fd < 0 || ::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0) {
    if (fd >= 0) {
      ::close(fd);
    }
    return "";
  }
  (void)!::send(fd, request.data(), request.size(), MSG_NOSIGNAL);
  std::string answer;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                          deadline - std::chrono::steady_clock::now())
                          .count();
    pollfd p{fd, POLLIN, 0};
    if (left <= 0 || ::poll(&p, 1, static_cast<int>(left)) <= 0) {
      break;
    }
    char buf[65536];
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) {
      break;
    }
    answer.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return answer;
}

// A GET of `target` that asks the server to close the connection after its answer.
inline std::string get_request(const std::string& target, const std::string& accept = "") {
  return "GET " + target + " HTTP/1.1\r\nHost: registry\r\n" +
         (accept.empty() ? "" : "Accept: " + accept + "\r\n") + "Connection: close\r\n\r\n";
}

// The port of an "http://127.0.0.1:PORT/" URL.
inline int port_of(const std::string& url) { return std::stoi(url.substr(url.rfind(':') + 1)); }

}  // namespace reviewer::test_support
