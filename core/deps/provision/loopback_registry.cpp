#include "core/deps/provision/loopback_registry.h"

#include <arpa/inet.h>
#include <linux/openat2.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstring>
#include <list>
#include <optional>
#include <thread>
#include <vector>

#include "core/deps/registry_request.h"
#include "core/util/unique_fd.h"

namespace reviewer::deps {
namespace {

using Clock = std::chrono::steady_clock;

// A head larger than any client sends is refused with a 431.
constexpr std::size_t kMaxHead = 16 * 1024;
// How long a connection must have waited for its request before a new one may take its place
// when the server is full: a package manager sends its request as soon as it has connected, so a
// connection this old is one a step holds.
constexpr auto kEvictAfter = std::chrono::seconds(1);
// Connections taken per wakeup, so that a flood of connects cannot keep those in progress waiting.
constexpr int kAcceptsPerRound = 64;
// How long the listener rests when accept() fails for want of descriptors or memory: the
// connection stays queued and keeps the listener readable, and polling it would spin.
constexpr auto kAcceptPause = std::chrono::milliseconds(100);

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
  Connection(util::UniqueFd s, Clock::time_point now) : socket(std::move(s)), since(now) {}

  util::UniqueFd socket;
  std::string in;       // received, not yet answered
  std::string out;      // the answer's head (and a short body), not yet sent
  util::UniqueFd body;  // the answer's file, sent after `out`
  off_t body_offset = 0;
  off_t body_left = 0;
  bool close_after = false;
  bool eof = false;  // the client sent all it will: answer what it asked, then close
  // Since when the connection has waited on its client: for the whole head of its next request
  // (from its accept or the end of its last answer; bytes that do not complete a head do not
  // count), or to take the next byte of its answer. The timeout runs from here.
  Clock::time_point since;

  bool answering() const { return !out.empty() || body_left > 0; }
};

std::string head(int code, const char* reason, const char* type, off_t length, bool close) {
  return "HTTP/1.1 " + std::to_string(code) + " " + reason + "\r\nContent-Type: " + type +
         "\r\nContent-Length: " + std::to_string(length) +
         (close ? "\r\nConnection: close" : "\r\nConnection: keep-alive") + "\r\n\r\n";
}

// poll()'s timeout for the deadline `next` seen at `now`: rounded up, so that poll never returns
// just before a deadline and is called again with 0 until it passes.
int poll_timeout(Clock::time_point next, Clock::time_point now) {
  if (next == Clock::time_point::max()) {
    return -1;
  }
  const auto left = std::chrono::ceil<std::chrono::milliseconds>(next - now).count();
  return static_cast<int>(std::clamp<long long>(left, 0, INT_MAX));
}

}  // namespace

struct LoopbackRegistry::State {
  RegistryLimits limits;
  util::UniqueFd root;
  util::UniqueFd listener;
  util::UniqueFd wake;
  int port = 0;
  std::list<Connection> connections;
  std::optional<Clock::time_point> listen_again;  // the listener rests until then
  std::thread thread;

  // Answers the request at the start of c.in once its head is complete: a malformed or
  // oversized head gets its 400 or 431 and ends the connection, as nothing after it can be
  // framed.
  void answer(Connection& c) {
    const deps::HeadParse parsed = deps::parse_request_head(c.in);
    if (parsed.state == deps::HeadParse::State::kIncomplete) {
      if (c.in.size() > kMaxHead) {
        c.out = head(431, "Request Header Fields Too Large", "text/plain", 0, true);
        c.close_after = true;
        c.in.clear();
      }
      return;
    }
    if (parsed.state == deps::HeadParse::State::kMalformed) {
      c.out = head(400, "Bad Request", "text/plain", 0, true);
      c.close_after = true;
      c.in.clear();
      return;
    }
    c.in.erase(0, parsed.length);
    const deps::HttpRequest& r = parsed.request;
    c.close_after = !r.keep_alive;
    const bool head_only = r.method == "HEAD";
    if (r.method != "GET" && !head_only) {
      c.out = head(405, "Method Not Allowed", "text/plain", 0, c.close_after);
      return;
    }
    util::UniqueFd file;
    struct stat st {};
    if (auto path = deps::registry_file(r.target)) {
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
  bool send_pending(Connection& c, Clock::time_point now) {
    while (!c.out.empty()) {
      const ssize_t n = ::send(c.socket.get(), c.out.data(), c.out.size(), MSG_NOSIGNAL);
      if (n < 0) {
        return errno == EAGAIN || errno == EINTR;
      }
      c.out.erase(0, static_cast<std::size_t>(n));
      c.since = now;
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
      c.since = now;
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

  // Handles what poll() reported on `c`; false when it is to be closed.
  bool serve(Connection& c, short got, Clock::time_point now) {
    if (got & (POLLERR | POLLNVAL)) {
      return false;
    }
    // A client whose answer is not sent is not read from: what it sends meanwhile waits in the
    // kernel, so `in` never holds more than a head and one read.
    if (c.answering()) {
      if ((got & (POLLOUT | POLLHUP)) && !send_pending(c, now)) {
        return false;
      }
    } else if ((got & (POLLIN | POLLHUP)) && !receive(c)) {
      return false;
    }
    // Pipelined requests are answered one after another, each once the last is sent. `in` changes
    // only on an event: a head is not parsed again on every other connection's wakeup.
    if (got != 0 && !c.answering() && !c.in.empty()) {
      answer(c);
      if (c.answering()) {
        c.since = now;
      }
    }
    return !(c.eof && !c.answering()) && now < c.since + limits.timeout;
  }

  // Closes the connection that has waited longest for its request, if it has waited long
  // enough that no package manager is still sending it; false when there is none.
  bool make_room(Clock::time_point now) {
    auto oldest = connections.end();
    for (auto it = connections.begin(); it != connections.end(); ++it) {
      if (!it->answering() && (oldest == connections.end() || it->since < oldest->since)) {
        oldest = it;
      }
    }
    if (oldest == connections.end() || now - oldest->since < kEvictAfter) {
      return false;
    }
    connections.erase(oldest);
    return true;
  }

  // Takes the queued connections. Every one is accepted, even past the bound (then closed at
  // once), so that none stays queued: one that did would keep the listener readable and poll()
  // returning at once.
  void accept_pending(Clock::time_point now) {
    for (int i = 0; i < kAcceptsPerRound; ++i) {
      util::UniqueFd fd(::accept4(listener.get(), nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC));
      if (!fd.valid()) {
        if (errno == EINTR || errno == ECONNABORTED) {
          continue;
        }
        if (errno != EAGAIN && errno != EWOULDBLOCK) {
          listen_again = now + kAcceptPause;
        }
        return;
      }
      if (connections.size() < limits.max_connections || make_room(now)) {
        connections.emplace_back(std::move(fd), now);
      }
    }
  }

  void run() {
    // sendfile() has no MSG_NOSIGNAL: a client that closes in the middle of an answer would end
    // the whole launcher with a SIGPIPE. Blocked in this thread, the signal stays pending on it
    // and the write fails with EPIPE, which closes that connection only.
    sigset_t sigpipe;
    sigemptyset(&sigpipe);
    sigaddset(&sigpipe, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &sigpipe, nullptr);
    std::vector<pollfd> fds;
    std::vector<std::list<Connection>::iterator> of;
    for (;;) {
      const auto before = Clock::now();
      if (listen_again && before >= *listen_again) {
        listen_again.reset();
      }
      // A negative descriptor is one poll() skips.
      fds.assign({{wake.get(), POLLIN, 0}, {listen_again ? -1 : listener.get(), POLLIN, 0}});
      of.clear();
      auto next = listen_again.value_or(Clock::time_point::max());
      for (auto it = connections.begin(); it != connections.end(); ++it) {
        fds.push_back(
            {it->socket.get(), static_cast<short>(it->answering() ? POLLOUT : POLLIN), 0});
        of.push_back(it);
        next = std::min(next, it->since + limits.timeout);
      }
      if (::poll(fds.data(), fds.size(), poll_timeout(next, before)) < 0 && errno != EINTR) {
        return;
      }
      if (fds[0].revents != 0) {
        return;
      }
      const auto now = Clock::now();
      for (std::size_t i = 0; i < of.size(); ++i) {
        if (!serve(*of[i], fds[i + 2].revents, now)) {
          connections.erase(of[i]);
        }
      }
      if (fds[1].revents & POLLIN) {
        accept_pending(now);
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

util::Result<std::unique_ptr<LoopbackRegistry>> LoopbackRegistry::start(
    const std::string& dir, const RegistryLimits& limits) {
  auto state = std::make_unique<State>();
  state->limits = limits;
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

}  // namespace reviewer::deps
