#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/util/unique_fd.h"

namespace reviewer::test_support {

// What the server answers for one path: a status, and a body of `size` bytes of `fill`, sent
// with a Content-Length or, when `chunked`, without one (Transfer-Encoding: chunked), as a
// registry that does not say how much is coming would; or, when `bytes` is set, those bytes
// (a real tarball), `size` and `fill` then unused.
struct HttpAnswer {
  int status = 200;
  std::uint64_t size = 0;
  bool chunked = false;
  char fill = 'x';
  std::string bytes = {};
};

// "/size/N..." as N bytes sent with a Content-Length, "/chunked/N..." as N bytes without one;
// nullopt for any other path. The download tests' bodies of any size.
inline std::optional<HttpAnswer> sized_answer(const std::string& path) {
  std::uint64_t n = 0;
  if (std::sscanf(path.c_str(), "/size/%lu", &n) == 1) {
    return HttpAnswer{200, n, false, 's'};
  }
  if (std::sscanf(path.c_str(), "/chunked/%lu", &n) == 1) {
    return HttpAnswer{200, n, true, 'c'};
  }
  return std::nullopt;
}

// A plain HTTP/1.1 server on 127.0.0.1 at a port the kernel picks, one thread per connection,
// one request per connection (or, `keep_alive`, as many as the client sends on it), for tests of
// the host's downloads. It counts the connections and the requests for each path, and keeps the
// last Accept header. Bodies are made as they are sent, so a test can serve far more than it
// holds.
class LocalHttpServer {
 public:
  explicit LocalHttpServer(std::function<HttpAnswer(const std::string& path)> answer,
                           bool keep_alive = false)
      : answer_(std::move(answer)), keep_alive_(keep_alive) {
    listener_ = util::UniqueFd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    if (::bind(listener_.get(), reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
        ::listen(listener_.get(), 64) != 0 ||
        ::getsockname(listener_.get(), reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
      listener_.reset();
      return;
    }
    port_ = ntohs(addr.sin_port);
    acceptor_ = std::thread([this] { accept_loop(); });
  }
  ~LocalHttpServer() {
    stop_ = true;
    if (acceptor_.joinable()) {
      acceptor_.join();
    }
    std::vector<std::thread> connections;
    {
      std::lock_guard<std::mutex> lock(mu_);
      connections.swap(connections_);
    }
    for (auto& t : connections) {
      t.join();
    }
  }
  LocalHttpServer(const LocalHttpServer&) = delete;
  LocalHttpServer& operator=(const LocalHttpServer&) = delete;

  bool listening() const { return port_ != 0; }
  // "http://127.0.0.1:PORT/"
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/"; }
  // Requests for `path` ("/a/-/a-1.0.0.tgz") so far.
  int hits(const std::string& path) const {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = hits_.find(path);
    return it == hits_.end() ? 0 : it->second;
  }
  int connections() const {
    std::lock_guard<std::mutex> lock(mu_);
    return static_cast<int>(connections_.size());
  }
  std::string last_accept() const {
    std::lock_guard<std::mutex> lock(mu_);
    return last_accept_;
  }

 private:
  void accept_loop() {
    while (!stop_) {
      pollfd p{listener_.get(), POLLIN, 0};
      if (::poll(&p, 1, 20) <= 0) {
        continue;
      }
      int fd = ::accept4(listener_.get(), nullptr, nullptr, SOCK_CLOEXEC);
      if (fd < 0) {
        continue;
      }
      std::lock_guard<std::mutex> lock(mu_);
      connections_.emplace_back([this, fd] { serve(util::UniqueFd(fd)); });
    }
  }

  void serve(util::UniqueFd conn) {
    // A client that stops reading without closing must not hold the test for ever.
    timeval timeout{5, 0};
    ::setsockopt(conn.get(), SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
    ::setsockopt(conn.get(), SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    std::string bytes;
    do {
      if (!serve_one(conn.get(), bytes)) {
        return;
      }
    } while (keep_alive_ && !stop_);
  }

  // Reads one request head from `bytes` and the connection, and answers it.
  bool serve_one(int fd, std::string& bytes) {
    char buf[4096];
    while (bytes.find("\r\n\r\n") == std::string::npos && bytes.size() < 65536) {
      const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
      if (n <= 0) {
        return false;
      }
      bytes.append(buf, static_cast<std::size_t>(n));
    }
    const std::string head = bytes.substr(0, bytes.find("\r\n\r\n") + 4);
    bytes.erase(0, head.size());
    const std::size_t start = head.find(' ') + 1;
    const std::string path = head.substr(start, head.find(' ', start) - start);
    {
      std::lock_guard<std::mutex> lock(mu_);
      ++hits_[path];
      const auto accept = head.find("\r\nAccept: ");
      last_accept_ = accept == std::string::npos
                         ? ""
                         : head.substr(accept + 10, head.find("\r\n", accept + 2) - accept - 10);
    }
    HttpAnswer a = answer_(path);
    if (!a.bytes.empty()) {
      a.size = a.bytes.size();
    }
    std::string out = "HTTP/1.1 " + std::to_string(a.status) +
                      " X\r\nConnection: " + (keep_alive_ ? "keep-alive" : "close") + "\r\n" +
                      (a.chunked ? std::string("Transfer-Encoding: chunked\r\n")
                                 : "Content-Length: " + std::to_string(a.size) + "\r\n") +
                      "\r\n";
    if (!send_all(fd, out)) {
      return false;
    }
    const std::string block(65536, a.fill);
    for (std::uint64_t sent = 0; sent < a.size;) {
      const std::size_t n =
          static_cast<std::size_t>(std::min<std::uint64_t>(block.size(), a.size - sent));
      std::string piece = a.bytes.empty() ? block.substr(0, n) : a.bytes.substr(sent, n);
      if (a.chunked) {
        char size_line[32];
        std::snprintf(size_line, sizeof size_line, "%zx\r\n", n);
        piece = size_line + piece + "\r\n";
      }
      if (!send_all(fd, piece)) {
        return false;
      }
      sent += n;
    }
    return !a.chunked || send_all(fd, "0\r\n\r\n");
  }

  bool send_all(int fd, const std::string& bytes) {
    for (std::size_t done = 0; done < bytes.size();) {
      if (stop_) {
        return false;
      }
      const ssize_t n = ::send(fd, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
      if (n <= 0) {
        return false;
      }
      done += static_cast<std::size_t>(n);
    }
    return true;
  }

  std::function<HttpAnswer(const std::string&)> answer_;
  bool keep_alive_ = false;
  std::string last_accept_;
  util::UniqueFd listener_;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::thread acceptor_;
  mutable std::mutex mu_;
  std::vector<std::thread> connections_;
  std::map<std::string, int> hits_;
};

}  // namespace reviewer::test_support
