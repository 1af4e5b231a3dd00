#include "core/deps/resolution_registry.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <condition_variable>
#include <list>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "core/contract/view_layout.h"
#include "core/deps/registry_request.h"
#include "core/deps/sandbox_network.h"

namespace reviewer::deps {
namespace {

using Clock = std::chrono::steady_clock;

// A head larger than any client sends is refused with a 431.
constexpr std::size_t kMaxHead = 16 * 1024;
// The two ways npm asks for a document: the abbreviated one an install reads, and the whole one
// (`npm install --package-lock-only` reads that). A client's own Accept is never forwarded.
constexpr const char* kAbbreviated = "application/vnd.npm.install-v1+json";
constexpr const char* kAbbreviatedAccept =
    "application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8, */*";
constexpr const char* kFullAccept = "application/json";

std::string status_line(int code) {
  switch (code) {
    case 200:
      return "200 OK";
    case 400:
      return "400 Bad Request";
    case 404:
      return "404 Not Found";
    case 405:
      return "405 Method Not Allowed";
    case 431:
      return "431 Request Header Fields Too Large";
    case 502:
      return "502 Bad Gateway";
    default:
      return "503 Service Unavailable";
  }
}

std::int64_t unix_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

struct ResolutionRegistry::State {
  util::UniqueFd listener;
  util::UniqueFd stop;  // an eventfd, readable once finish() began
  std::string registry;
  deps::Downloader& downloader;
  std::string dir;
  ResolutionRegistryLimits limits;
  int port = 0;

  std::mutex m;
  std::condition_variable room;  // a connection ended, or the registry stops
  bool stopping = false;
  std::size_t active = 0;
  std::size_t requests = 0;
  std::size_t files = 0;
  std::set<int> open;  // connections being served, shut down by finish()
  struct Worker {
    std::thread thread;
    bool done = false;
  };
  std::list<Worker> workers;
  std::vector<deps::ServedMetadata> served;
  std::map<std::string, std::size_t> served_at;  // name -> its place in `served`
  std::optional<util::Refusal> failure;
  std::thread acceptor;
  bool finished = false;

  State(util::UniqueFd l, std::string r, deps::Downloader& d, std::string dir_,
        ResolutionRegistryLimits lim)
      : listener(std::move(l)),
        registry(std::move(r)),
        downloader(d),
        dir(std::move(dir_)),
        limits(lim) {}

  bool stopped() {
    std::lock_guard lock(m);
    return stopping;
  }

  void fail(util::Refusal r) {
    std::lock_guard lock(m);
    if (!failure) {
      failure = std::move(r);
    }
  }

  // Waits until `fd` has `events`, the registry stops, or `deadline`; false unless it has them.
  bool wait_for(int fd, short events, Clock::time_point deadline) {
    for (;;) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
      if (left <= 0) {
        return false;
      }
      pollfd p[2] = {{fd, events, 0}, {stop.get(), POLLIN, 0}};
      const int n = ::poll(p, 2, static_cast<int>(std::min<long long>(left, 1000)));
      if (n < 0 && errno != EINTR) {
        return false;
      }
      if (p[1].revents != 0) {
        return false;
      }
      if (n > 0 && p[0].revents != 0) {
        return true;
      }
    }
  }

  bool send_all(int fd, const char* data, std::size_t size) {
    const auto deadline = Clock::now() + limits.timeout;
    while (size > 0) {
      const ssize_t n = ::send(fd, data, size, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (n > 0) {
        data += n;
        size -= static_cast<std::size_t>(n);
      } else if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
        if (!wait_for(fd, POLLOUT, deadline)) {
          return false;
        }
      } else {
        return false;
      }
    }
    return true;
  }

  bool answer(int fd, int code, bool keep_alive, const std::string& type = "",
              const std::string& body_file = "") {
    util::UniqueFd in;
    off_t length = 0;
    if (!body_file.empty()) {
      in = util::UniqueFd(::open(body_file.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW));
      length = in.valid() ? ::lseek(in.get(), 0, SEEK_END) : -1;
      if (length < 0 || ::lseek(in.get(), 0, SEEK_SET) != 0) {
        return answer(fd, 502, false);
      }
    }
    std::string head = "HTTP/1.1 " + status_line(code) + "\r\n";
    if (code == 405) {
      head += "Allow: GET\r\n";
    }
    if (!type.empty()) {
      head += "Content-Type: " + type + "\r\n";
    }
    head += "Content-Length: " + std::to_string(length) + "\r\n";
    head += std::string("Connection: ") + (keep_alive ? "keep-alive" : "close") + "\r\n\r\n";
    if (!send_all(fd, head.data(), head.size())) {
      return false;
    }
    char buf[65536];
    for (off_t left = length; left > 0;) {
      const ssize_t n = ::read(in.get(), buf, sizeof buf);
      if (n <= 0 || !send_all(fd, buf, static_cast<std::size_t>(n))) {
        return false;
      }
      left -= n;
    }
    return keep_alive;
  }

  // Answers one request; whether the connection may take another.
  bool handle(int fd, const deps::HttpRequest& request) {
    if (request.method != "GET") {
      return answer(fd, 405, false);
    }
    const auto file = deps::registry_file(request.target);
    if (!file) {
      return answer(fd, 404, request.keep_alive);
    }
    std::size_t number = 0;
    {
      std::lock_guard lock(m);
      if (++requests > limits.max_requests) {
        if (!failure) {
          failure = util::Refusal{"resolution-too-many-requests",
                                  "the resolution asked its registry for more than " +
                                      std::to_string(limits.max_requests) + " documents",
                                  std::nullopt};
        }
        return answer(fd, 503, false);
      }
      number = files++;
    }
    const std::string suffix = std::string("/") + contract::kPackumentFile;
    const bool document = file->ends_with(suffix);
    std::string path = document ? file->substr(0, file->size() - suffix.size()) : *file;
    if (document && path.starts_with('@')) {
      path.replace(path.find('/'), 1, "%2f");  // the registry's spelling of a scoped name
    }
    const bool abbreviated = document && request.accept.find(kAbbreviated) != std::string::npos;
    const std::string accept = !document ? "" : abbreviated ? kAbbreviatedAccept : kFullAccept;
    const std::string type = !document     ? "application/octet-stream"
                             : abbreviated ? kAbbreviated
                                           : "application/json";
    const std::string out = dir + "/" + std::to_string(number) + (document ? ".json" : ".tgz");
    auto got =
        downloader.download_document({registry + path, out, accept}, limits.max_document_bytes);
    if (!got) {
      fail(got.error());
      return answer(fd, 502, false);
    }
    if (!*got) {
      return answer(fd, 404, request.keep_alive);
    }
    if (document) {
      std::lock_guard lock(m);
      deps::ServedMetadata d{path, out, accept, type, unix_ms()};
      if (auto at = served_at.find(path); at != served_at.end()) {
        served[at->second] = std::move(d);
      } else {
        served_at.emplace(path, served.size());
        served.push_back(std::move(d));
      }
    }
    const bool keep = answer(fd, 200, request.keep_alive, type, out);
    if (!document) {
      ::unlink(out.c_str());  // the lock names it; the fetch downloads and verifies it again
    }
    return keep;
  }

  void serve(int fd) {
    std::string bytes;
    bool keep = true;
    while (keep) {
      const auto deadline = Clock::now() + limits.timeout;
      deps::HeadParse parsed = deps::parse_request_head(bytes);
      while (parsed.state == deps::HeadParse::State::kIncomplete) {
        if (bytes.size() > kMaxHead) {
          answer(fd, 431, false);
          return;
        }
        if (!wait_for(fd, POLLIN, deadline)) {
          return;
        }
        char buf[4096];
        const ssize_t n = ::recv(fd, buf, sizeof buf, MSG_DONTWAIT);
        if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
          return;
        }
        if (n > 0) {
          bytes.append(buf, static_cast<std::size_t>(n));
          parsed = deps::parse_request_head(bytes);
        }
      }
      if (parsed.state == deps::HeadParse::State::kMalformed || parsed.length > kMaxHead) {
        answer(fd, parsed.length > kMaxHead ? 431 : 400, false);
        return;
      }
      bytes.erase(0, parsed.length);
      keep = handle(fd, parsed.request);
    }
  }

  // Ends a connection without resetting it: what the client sent and the server did not read
  // (the rest of a refused head) is drained a moment first, so the answer before it arrives.
  void close_gently(int fd) {
    ::shutdown(fd, SHUT_WR);
    const auto deadline = Clock::now() + std::chrono::milliseconds(200);
    char buf[4096];
    for (std::size_t drained = 0; drained < 65536 && wait_for(fd, POLLIN, deadline);) {
      const ssize_t n = ::recv(fd, buf, sizeof buf, MSG_DONTWAIT);
      if (n <= 0) {
        break;
      }
      drained += static_cast<std::size_t>(n);
    }
  }

  void run_connection(int fd, std::list<Worker>::iterator self) {
    serve(fd);
    close_gently(fd);
    std::lock_guard lock(m);
    open.erase(fd);
    ::close(fd);
    --active;
    self->done = true;
    room.notify_all();
  }

  // Joins the connections' threads that have ended.
  void join_done() {
    std::list<Worker> ended;
    {
      std::lock_guard lock(m);
      for (auto it = workers.begin(); it != workers.end();) {
        auto next = std::next(it);
        if (it->done) {
          ended.splice(ended.end(), workers, it);
        }
        it = next;
      }
    }
    for (auto& w : ended) {
      w.thread.join();
    }
  }

  void accept_loop() {
    std::size_t accepted = 0;
    for (;;) {
      join_done();
      {
        std::unique_lock lock(m);
        room.wait(lock, [&] { return stopping || active < limits.max_connections; });
        if (stopping) {
          return;
        }
      }
      if (!wait_for(listener.get(), POLLIN, Clock::time_point::max())) {
        if (stopped()) {
          return;
        }
        continue;
      }
      const int fd = ::accept4(listener.get(), nullptr, nullptr, SOCK_CLOEXEC);
      if (fd < 0) {
        if (errno != EINTR && errno != EAGAIN && errno != ECONNABORTED) {
          std::this_thread::sleep_for(std::chrono::milliseconds(100));  // out of descriptors
        }
        continue;
      }
      std::lock_guard lock(m);
      // Each connection costs a thread: a request's worth, and a few held idle, at most.
      if (stopping || ++accepted > limits.max_requests + limits.max_connections) {
        ::close(fd);
        continue;
      }
      ++active;
      open.insert(fd);
      workers.emplace_back();
      auto self = std::prev(workers.end());
      self->thread = std::thread([this, fd, self] { run_connection(fd, self); });
    }
  }
};

ResolutionRegistry::ResolutionRegistry(util::UniqueFd listener, std::string registry,
                                       deps::Downloader& downloader, std::string dir,
                                       ResolutionRegistryLimits limits)
    : state_(std::make_unique<State>(std::move(listener), std::move(registry), downloader,
                                     std::move(dir), limits)) {
  state_->port = listening_port(state_->listener.get());
  state_->stop = util::UniqueFd(::eventfd(0, EFD_CLOEXEC));
  state_->acceptor = std::thread([s = state_.get()] { s->accept_loop(); });
}

ResolutionRegistry::~ResolutionRegistry() { (void)finish(); }

std::string ResolutionRegistry::url() const {
  return "http://127.0.0.1:" + std::to_string(state_->port) + "/";
}

util::Result<std::vector<deps::ServedMetadata>> ResolutionRegistry::finish() {
  State& s = *state_;
  if (!s.finished) {
    s.finished = true;
    {
      std::lock_guard lock(s.m);
      s.stopping = true;
      for (int fd : s.open) {
        ::shutdown(fd, SHUT_RDWR);
      }
    }
    const std::uint64_t one = 1;
    (void)!::write(s.stop.get(), &one, sizeof one);
    s.room.notify_all();
    s.acceptor.join();
    for (auto& w : s.workers) {
      w.thread.join();
    }
    s.workers.clear();
    s.listener.reset();
  }
  if (s.failure) {
    return *s.failure;
  }
  return s.served;
}

}  // namespace reviewer::deps
