#include "core/launch/loopback_registry.h"

#include <arpa/inet.h>
#include <linux/openat2.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <list>
#include <thread>

#include "core/launch/registry_request.h"
#include "core/util/unique_fd.h"

namespace reviewer::launch {
namespace {

using Clock = std::chrono::steady_clock;

// Bounds on what the steps can make the server hold: a head larger than any client sends, more
// connections than a package manager opens, a connection left idle.
constexpr std::size_t kMaxHead = 16 * 1024;
constexpr std::size_t kMaxConnections = 256;
constexpr auto kIdle = std::chrono::seconds(120);

util::Refusal registry_error(const std::string& what) {
  return util::refusal("dependency-registry", "the loopback registry for the dependency view: " +
                                                  what + ": " + std::strerror(errno));
}

// The file under `root` by a path registry_file() made, never through a link: the view is the
// host's, but the check costs nothing and keeps a request inside it whatever the view holds.
util::UniqueFd open_beneath(int root, const std::string& path) {
  open_how how{};
  how.flags = O_RDONLY | O_CLOEXEC | O_NOFOLLOW;
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
  const long fd = ::syscall(SYS_openat2, root, path.c_str(), &how, sizeof how);
  if (fd < 0 && errno == ENOSYS) {
    return util::UniqueFd();  // no openat2 (Linux before 5.6): serve nothing rather than risk it
  }
  return util::UniqueFd(static_cast<int>(fd));
}

struct Connection {
  util::UniqueFd socket;
  std::string in;       // received, not yet answered
  std::string out;      // the answer's head (and a short body), not yet sent
  util::UniqueFd body;  // the answer's file, sent after `out`
  off_t body_offset = 0;
  off_t body_left = 0;
  bool close_after = false;
  bool eof = false;  // the client sent all it will: answer what it asked, then close
  Clock::time_point last = Clock::now();

  bool answering() const { return !out.empty() || body_left > 0; }
};

std::string head(int code, const char* reason, const char* type, off_t length, bool close) {
  return "HTTP/1.1 " + std::to_string(code) + " " + reason + "\r\nContent-Type: " + type +
         "\r\nContent-Length: " + std::to_string(length) +
         (close ? "\r\nConnection: close" : "\r\nConnection: keep-alive") + "\r\n\r\n";
}

}  // namespace

struct LoopbackRegistry::State {
  util::UniqueFd root;
  util::UniqueFd listener;
  util::UniqueFd wake;
  int port = 0;
  std::list<Connection> connections;
  std::thread thread;

  // Answers the request at the start of c.in once its head is complete: a malformed or
  // oversized head gets its 400 or 431 and ends the connection, as nothing after it can be
  // framed.
  void answer(Connection& c) {
    const HeadParse parsed = parse_request_head(c.in);
    if (parsed.state == HeadParse::State::kIncomplete) {
      if (c.in.size() > kMaxHead) {
        c.out = head(431, "Request Header Fields Too Large", "text/plain", 0, true);
        c.close_after = true;
        c.in.clear();
      }
      return;
    }
    if (parsed.state == HeadParse::State::kMalformed) {
      c.out = head(400, "Bad Request", "text/plain", 0, true);
      c.close_after = true;
      c.in.clear();
      return;
    }
    c.in.erase(0, parsed.length);
    const HttpRequest& r = parsed.request;
    c.close_after = !r.keep_alive;
    const bool head_only = r.method == "HEAD";
    if (r.method != "GET" && !head_only) {
      c.out = head(405, "Method Not Allowed", "text/plain", 0, c.close_after);
      return;
    }
    util::UniqueFd file;
    struct stat st {};
    if (auto path = registry_file(r.target)) {
      file = open_beneath(root.get(), *path);
      if (file.valid() && (::fstat(file.get(), &st) != 0 || !S_ISREG(st.st_mode))) {
        file.reset();
      }
    }
    if (!file.valid()) {
      // The registry's own answer for a package or version it does not have.
      static constexpr std::string_view kNotFound = R"({"error":"Not found"})";
      c.out = head(404, "Not Found", "application/json", static_cast<off_t>(kNotFound.size()),
                   c.close_after);
      if (!head_only) {
        c.out += kNotFound;
      }
      return;
    }
    const bool tarball = r.target.find("/-/") != std::string::npos;
    c.out = head(200, "OK", tarball ? "application/octet-stream" : "application/json", st.st_size,
                 c.close_after);
    if (!head_only) {
      c.body = std::move(file);
      c.body_offset = 0;
      c.body_left = st.st_size;
    }
  }

  // Sends what is pending; false when the connection is done with or broken.
  bool send_pending(Connection& c) {
    while (!c.out.empty()) {
      const ssize_t n = ::send(c.socket.get(), c.out.data(), c.out.size(), MSG_NOSIGNAL);
      if (n < 0) {
        return errno == EAGAIN || errno == EINTR;
      }
      c.out.erase(0, static_cast<std::size_t>(n));
    }
    while (c.body_left > 0) {
      const ssize_t n = ::sendfile(c.socket.get(), c.body.get(), &c.body_offset,
                                   static_cast<std::size_t>(c.body_left));
      if (n < 0) {
        return errno == EAGAIN || errno == EINTR;
      }
      if (n == 0) {
        return false;  // the file shrank: the view is read-only, so never; end the answer
      }
      c.body_left -= n;
    }
    c.body.reset();
    return !c.close_after;
  }

  // Reads what the client sent; false when the connection failed.
  bool receive(Connection& c) {
    char buf[8192];
    const ssize_t n = ::recv(c.socket.get(), buf, sizeof buf, 0);
    if (n < 0) {
      return errno == EAGAIN || errno == EINTR;
    }
    if (n == 0) {
      c.eof = true;
    }
    c.in.append(buf, static_cast<std::size_t>(n));
    return true;
  }

  void accept_all() {
    while (connections.size() < kMaxConnections) {
      const int fd = ::accept4(listener.get(), nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
      if (fd < 0) {
        return;
      }
      connections.emplace_back().socket.reset(fd);
    }
  }

  void run() {
    std::vector<pollfd> fds;
    std::vector<std::list<Connection>::iterator> of;
    for (;;) {
      fds.assign({{wake.get(), POLLIN, 0}, {listener.get(), POLLIN, 0}});
      of.clear();
      for (auto it = connections.begin(); it != connections.end(); ++it) {
        const short want = it->answering() ? POLLOUT : (it->eof ? 0 : POLLIN);
        fds.push_back({it->socket.get(), want, 0});
        of.push_back(it);
      }
      if (::poll(fds.data(), fds.size(), 10000) < 0 && errno != EINTR) {
        return;
      }
      if (fds[0].revents != 0) {
        return;
      }
      const auto now = Clock::now();
      for (std::size_t i = 0; i < of.size(); ++i) {
        Connection& c = *of[i];
        const short got = fds[i + 2].revents;
        bool keep = (got & (POLLERR | POLLNVAL)) == 0;
        if (keep && (got & POLLOUT)) {
          keep = send_pending(c);
        } else if (keep && (got & (POLLIN | POLLHUP))) {
          keep = receive(c);
        }
        if (got != 0) {
          c.last = now;
        }
        // Pipelined requests are answered one after another, each once the last is sent.
        if (keep && !c.answering() && !c.in.empty()) {
          answer(c);
        }
        if (!keep || (c.eof && !c.answering()) || now - c.last > kIdle) {
          connections.erase(of[i]);
        }
      }
      if (fds[1].revents & POLLIN) {
        accept_all();
      }
    }
  }
};

LoopbackRegistry::LoopbackRegistry(std::unique_ptr<State> state) : state_(std::move(state)) {}

LoopbackRegistry::~LoopbackRegistry() {
  const std::uint64_t one = 1;
  (void)!::write(state_->wake.get(), &one, sizeof one);
  state_->thread.join();
}

std::string LoopbackRegistry::url() const {
  return "http://127.0.0.1:" + std::to_string(state_->port) + "/";
}

util::Result<std::unique_ptr<LoopbackRegistry>> LoopbackRegistry::start(const std::string& dir) {
  auto state = std::make_unique<State>();
  state->root = util::open_directory(AT_FDCWD, dir.c_str());
  if (!state->root.valid()) {
    return registry_error("cannot open " + dir);
  }
  state->listener =
      util::UniqueFd(::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
  state->wake = util::UniqueFd(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
  if (!state->listener.valid() || !state->wake.valid()) {
    return registry_error("cannot make its socket");
  }
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  if (::bind(state->listener.get(), reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      ::listen(state->listener.get(), 128) != 0 ||
      ::getsockname(state->listener.get(), reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    return registry_error("cannot listen on 127.0.0.1");
  }
  state->port = ntohs(addr.sin_port);
  State* s = state.get();
  state->thread = std::thread([s] { s->run(); });
  return std::unique_ptr<LoopbackRegistry>(new LoopbackRegistry(std::move(state)));
}

}  // namespace reviewer::launch
