// The loopback registry over real sockets: what a package manager asks (metadata, tarballs, on
// kept-alive and pipelined connections) is answered from the view's registry directory byte for
// byte; what a hostile step asks (a way out of the directory, a link the directory holds, a body,
// an endless head, a method other than GET) is answered with the status that says so and never
// with a file outside; connections a step opens and holds are bounded and timed out, and cost the
// server no CPU while they wait. (pnpm 11 against it in a real image:
// tests/image/fetch_image_test.cpp.)
#include "core/deps/provision/loopback_registry.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <optional>
#include <thread>
#include <vector>

#include "core/util/unique_fd.h"
#include "tests/support/temp_dir.h"

namespace reviewer::deps {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

class LoopbackRegistryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_.write("registry/chalk/.packument", R"({"name":"chalk"})");
    dir_.write("registry/chalk/-/chalk-4.1.2.tgz", tarball_);
    dir_.write("registry/@types/node/.packument", R"({"name":"@types/node"})");
    dir_.write("outside/secret", "secret");
    fs::create_directories(dir_ / "registry/evil/-");
    fs::create_symlink(dir_ / "outside/secret", dir_ / "registry/evil/.packument");
    fs::create_symlink(dir_ / "outside", dir_ / "registry/linked");
    fs::create_directories(dir_ / "registry/folder/.packument");
    auto started = LoopbackRegistry::start(dir_ / "registry");
    ASSERT_TRUE(started) << started.error().to_string();
    registry_ = std::move(*started);
  }

  void restart(const RegistryLimits& limits) {
    registry_.reset();
    auto started = LoopbackRegistry::start(dir_ / "registry", limits);
    ASSERT_TRUE(started) << started.error().to_string();
    registry_ = std::move(*started);
  }

  int port() const { return std::stoi(registry_->url().substr(17)); }

  // A connection to the server; `receive_buffer`, when not 0, keeps the client's window small so
  // that an answer the client does not read soon fills it.
  int connect_to(int receive_buffer = 0) const {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (receive_buffer != 0) {
      ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &receive_buffer, sizeof receive_buffer);
    }
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<std::uint16_t>(port()));
    EXPECT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    timeval tv{5, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    return fd;
  }

  static void send_all(int fd, const std::string& bytes) {
    ASSERT_EQ(::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL),
              static_cast<ssize_t>(bytes.size()));
  }

  // Everything the server sends until it closes the connection (or 5 s pass).
  static std::string read_all(int fd) {
    std::string out;
    char buf[4096];
    for (;;) {
      const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
      if (n <= 0) {
        return out;
      }
      out.append(buf, static_cast<std::size_t>(n));
    }
  }

  // Whether the server has closed `fd` (end of stream or reset), reading and dropping whatever it
  // sent before; never waits.
  static bool peer_closed(int fd) {
    char buf[4096];
    for (;;) {
      const ssize_t n = ::recv(fd, buf, sizeof buf, MSG_DONTWAIT);
      if (n == 0) {
        return true;
      }
      if (n < 0) {
        return errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR;
      }
    }
  }

  // One request on its own connection, asking the server to close after it.
  std::string ask(const std::string& head) const {
    const int fd = connect_to();
    send_all(fd, head);
    std::string got = read_all(fd);
    ::close(fd);
    return got;
  }
  std::string get(const std::string& target) const {
    return ask("GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
  }

  static std::string response(int code, const char* reason, const char* type,
                              const std::string& body, bool close = true) {
    return "HTTP/1.1 " + std::to_string(code) + " " + reason + "\r\nContent-Type: " + type +
           "\r\nContent-Length: " + std::to_string(body.size()) +
           (close ? "\r\nConnection: close" : "\r\nConnection: keep-alive") + "\r\n\r\n" + body;
  }
  static std::string not_found(bool close = true) {
    return response(404, "Not Found", "application/json", R"({"error":"Not found"})", close);
  }

  test_support::TempDir dir_;
  std::string tarball_ = std::string("\x1f\x8b\x08\x00", 4) + std::string(200000, 'x');
  std::unique_ptr<LoopbackRegistry> registry_;
};

TEST_F(LoopbackRegistryTest, ServesMetadataAndTarballsByteForByte) {
  EXPECT_EQ(registry_->url(), "http://127.0.0.1:" + std::to_string(port()) + "/");
  EXPECT_EQ(get("/chalk"), response(200, "OK", "application/json", R"({"name":"chalk"})"));
  EXPECT_EQ(get("/@types%2fnode"),
            response(200, "OK", "application/json", R"({"name":"@types/node"})"));
  EXPECT_EQ(get("/chalk/-/chalk-4.1.2.tgz"),
            response(200, "OK", "application/octet-stream", tarball_));
  EXPECT_EQ(ask("HEAD /chalk HTTP/1.1\r\nConnection: close\r\n\r\n"),
            response(200, "OK", "application/json", "").substr(0, 0) +
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 16\r\n"
                "Connection: close\r\n\r\n");
}

TEST_F(LoopbackRegistryTest, AnswersWhatTheViewLacksAsTheRegistryDoes) {
  for (const char* target :
       {"/left-pad", "/chalk/-/chalk-5.0.0.tgz", "/-/npm/v1/attestations/chalk@4.1.2", "/folder"}) {
    EXPECT_EQ(get(target), not_found()) << target;
  }
}

TEST_F(LoopbackRegistryTest, NeverServesAFileOutsideTheDirectory) {
  for (const char* target :
       {"/../outside/secret", "/%2e%2e/outside/secret", "/evil", "/linked/-/secret.tgz",
        "/chalk/-/..%2f..%2f..%2foutside%2fsecret.tgz", "/chalk/.packument"}) {
    const std::string got = get(target);
    EXPECT_EQ(got, not_found()) << target;
    EXPECT_EQ(got.find("secret\""), std::string::npos);
  }
}

TEST_F(LoopbackRegistryTest, KeepsConnectionsAliveAndAnswersPipelinedRequestsInOrder) {
  const int fd = connect_to();
  send_all(fd, "GET /chalk HTTP/1.1\r\n\r\nGET /nothing HTTP/1.1\r\n\r\n");
  send_all(fd, "GET /@types/node HTTP/1.1\r\nConnection: close\r\n\r\n");
  EXPECT_EQ(read_all(fd), response(200, "OK", "application/json", R"({"name":"chalk"})", false) +
                              not_found(false) +
                              response(200, "OK", "application/json", R"({"name":"@types/node"})"));
  ::close(fd);
}

TEST_F(LoopbackRegistryTest, AnswersARequestWhoseClientStoppedSending) {
  const int fd = connect_to();
  send_all(fd, "GET /chalk HTTP/1.1\r\n\r\n");
  ::shutdown(fd, SHUT_WR);
  EXPECT_EQ(read_all(fd), response(200, "OK", "application/json", R"({"name":"chalk"})", false));
  ::close(fd);
}

TEST_F(LoopbackRegistryTest, RefusesMethodsBodiesAndMalformedOrEndlessHeads) {
  EXPECT_EQ(ask("PUT /chalk HTTP/1.1\r\nConnection: close\r\n\r\n"),
            "HTTP/1.1 405 Method Not Allowed\r\nContent-Type: text/plain\r\nContent-Length: "
            "0\r\nConnection: close\r\n\r\n");
  const std::string bad =
      "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nContent-Length: 0\r\nConnection: "
      "close\r\n\r\n";
  EXPECT_EQ(ask("GET /chalk HTTP/1.1\r\nContent-Length: 3\r\n\r\nabcGET /chalk HTTP/1.1\r\n\r\n"),
            bad);
  EXPECT_EQ(ask("GET /chalk\r\n\r\n"), bad);
  const int fd = connect_to();
  std::string endless = "GET /chalk HTTP/1.1\r\n";
  while (endless.size() < 64 * 1024) {
    endless += "X-Padding: " + std::string(1000, 'p') + "\r\n";
  }
  ::send(fd, endless.data(), endless.size(), MSG_NOSIGNAL);
  EXPECT_EQ(read_all(fd).substr(0, 46), "HTTP/1.1 431 Request Header Fields Too Large\r\n");
  ::close(fd);
}

TEST_F(LoopbackRegistryTest, ServesManyClientsAtOnceAndStopsWhenDestroyed) {
  std::vector<std::thread> clients;
  std::vector<std::string> got(24);
  for (std::size_t i = 0; i < got.size(); ++i) {
    clients.emplace_back([&, i] { got[i] = get("/chalk/-/chalk-4.1.2.tgz"); });
  }
  for (auto& c : clients) {
    c.join();
  }
  for (const auto& g : got) {
    EXPECT_EQ(g, response(200, "OK", "application/octet-stream", tarball_));
  }
  const int idle = connect_to();  // left open: destruction must not wait for it
  const std::string url = registry_->url();
  registry_.reset();
  EXPECT_EQ(read_all(idle), "");
  ::close(idle);
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<std::uint16_t>(std::stoi(url.substr(17))));
  EXPECT_NE(::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  ::close(fd);
}

// A client that goes away in the middle of an answer: it sends its end and closes with the
// answer still coming, so the server's next write meets a reset connection. That write must fail
// as an error, not as a SIGPIPE that ends the launcher (and this test) with the build.
TEST_F(LoopbackRegistryTest, AClientLeavingMidAnswerEndsItsConnectionNotTheServer) {
  std::string tarballs;
  for (int i = 0; i < 40; ++i) {
    tarballs += "GET /chalk/-/chalk-4.1.2.tgz HTTP/1.1\r\n\r\n";
  }
  for (int round = 0; round < 20; ++round) {
    const int fd = connect_to(64 * 1024);
    send_all(fd, tarballs);
    std::string some(100000, '\0');
    ASSERT_EQ(::recv(fd, some.data(), some.size(), MSG_WAITALL), static_cast<ssize_t>(some.size()));
    ::shutdown(fd, SHUT_WR);
    ::close(fd);
  }
  std::this_thread::sleep_for(100ms);
  EXPECT_EQ(get("/chalk"), response(200, "OK", "application/json", R"({"name":"chalk"})"));
}

// CPU time of every thread of the process but the caller's: while the test's thread sleeps, the
// server's.
double server_cpu_seconds() {
  timespec process{};
  timespec self{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &process);
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &self);
  return static_cast<double>(process.tv_sec - self.tv_sec) +
         static_cast<double>(process.tv_nsec - self.tv_nsec) / 1e9;
}

// The attack of issue 37: a step opens more connections than the server serves, half of them
// idle and half part-way through a request head, and holds them. The server must not spin (the
// connections it would not accept kept its listener readable, so poll() returned at once, for
// ever), must close the connections past its bound at once, must still answer a package
// manager's request, and must not cut an answer under way to do so.
TEST_F(LoopbackRegistryTest, AStepHoldingEveryConnectionNeitherSpinsItNorLocksOutARequest) {
  const int busy = connect_to(64 * 1024);  // an answer larger than the sockets hold, unread
  std::string tarballs;
  for (int i = 0; i < 40; ++i) {
    tarballs += "GET /chalk/-/chalk-4.1.2.tgz HTTP/1.1\r\n\r\n";
  }
  send_all(busy, tarballs + "GET /chalk HTTP/1.1\r\nConnection: close\r\n\r\n");

  const std::size_t excess = 44;  // within the listen backlog, so every connect() succeeds
  std::vector<util::UniqueFd> held;
  for (std::size_t i = 0; i + 1 < RegistryLimits{}.max_connections + excess; ++i) {
    held.emplace_back(connect_to());
    if (i % 2 == 1) {
      const std::string part = "GET /chalk HTTP/1.1\r\nHost: 127";
      (void)!::send(held.back().get(), part.data(), part.size(), MSG_NOSIGNAL);
    }
  }
  std::this_thread::sleep_for(200ms);

  const double cpu_before = server_cpu_seconds();
  const auto wall_before = Clock::now();
  std::this_thread::sleep_for(2s);
  const double cpu = server_cpu_seconds() - cpu_before;
  const std::chrono::duration<double> wall = Clock::now() - wall_before;
  RecordProperty("server_cpu_us", std::to_string(static_cast<long>(cpu * 1e6)));
  EXPECT_LT(cpu, 0.1 * wall.count()) << "the server used " << cpu << " s of CPU in " << wall.count()
                                     << " s while the connections waited";

  std::size_t closed = 0;
  for (const auto& fd : held) {
    closed += peer_closed(fd.get()) ? 1 : 0;
  }
  EXPECT_EQ(closed, excess) << "the connections past the bound, and only those, are closed";

  const auto asked = Clock::now();
  EXPECT_EQ(get("/chalk"), response(200, "OK", "application/json", R"({"name":"chalk"})"));
  EXPECT_LT(Clock::now() - asked, 2s);

  std::string whole;
  for (int i = 0; i < 40; ++i) {
    whole += response(200, "OK", "application/octet-stream", tarball_, false);
  }
  whole += response(200, "OK", "application/json", R"({"name":"chalk"})");
  const std::string got = read_all(busy);
  EXPECT_TRUE(got == whole) << "the answer under way ended after " << got.size() << " of "
                            << whole.size() << " bytes";
  ::close(busy);
}

// A connection that never completes a request head (idle, part of a head, a head trickled a byte
// at a time), that stays open after its answer, or whose client stops taking its answer is
// closed once the timeout has passed, and not before.
TEST_F(LoopbackRegistryTest, ClosesAConnectionThatStallsBeforeOrDuringARequest) {
  restart({.max_connections = 256, .timeout = 500ms});
  const auto start = Clock::now();
  const util::UniqueFd idle(connect_to());
  const util::UniqueFd partial(connect_to());
  send_all(partial.get(), "GET /chalk HTTP/1.1\r\nHost: 127");
  const util::UniqueFd trickle(connect_to());
  send_all(trickle.get(), "GET /chalk HTTP/1.1\r\nX-Slow: ");
  const util::UniqueFd kept(connect_to());
  send_all(kept.get(), "GET /chalk HTTP/1.1\r\n\r\n");
  const std::string answer = response(200, "OK", "application/json", R"({"name":"chalk"})", false);
  std::string got(answer.size(), '\0');
  ASSERT_EQ(::recv(kept.get(), got.data(), got.size(), MSG_WAITALL),
            static_cast<ssize_t>(got.size()));
  EXPECT_EQ(got, answer);
  const util::UniqueFd stalled(connect_to(64 * 1024));
  std::string tarballs;
  for (int i = 0; i < 100; ++i) {
    tarballs += "GET /chalk/-/chalk-4.1.2.tgz HTTP/1.1\r\n\r\n";
  }
  send_all(stalled.get(), tarballs);

  struct Watched {
    const char* name;
    int fd;
    std::optional<Clock::duration> closed;
  };
  std::vector<Watched> watched = {{"idle", idle.get(), std::nullopt},
                                  {"partial head", partial.get(), std::nullopt},
                                  {"trickled head", trickle.get(), std::nullopt},
                                  {"kept alive after its answer", kept.get(), std::nullopt}};
  while (Clock::now() - start < 4s) {
    bool open = false;
    for (auto& w : watched) {
      if (!w.closed && peer_closed(w.fd)) {
        w.closed = Clock::now() - start;
      }
      open = open || !w.closed;
    }
    if (!open) {
      break;
    }
    (void)!::send(trickle.get(), "x", 1, MSG_NOSIGNAL);
    std::this_thread::sleep_for(50ms);
  }
  for (const auto& w : watched) {
    if (!w.closed) {
      ADD_FAILURE() << w.name << ": still open after 4 s";
      continue;
    }
    EXPECT_GE(*w.closed, 400ms) << w.name;
    EXPECT_LT(*w.closed, 3s) << w.name;
  }

  std::this_thread::sleep_until(start + 2s);
  std::size_t received = 0;
  char buf[65536];
  ssize_t n = 0;
  while ((n = ::recv(stalled.get(), buf, sizeof buf, 0)) > 0) {
    received += static_cast<std::size_t>(n);
  }
  EXPECT_TRUE(n == 0 || errno == ECONNRESET) << "the stalled answer was not cut";
  EXPECT_LT(received, 100 * tarball_.size());
  EXPECT_EQ(get("/chalk"), response(200, "OK", "application/json", R"({"name":"chalk"})"));
}

TEST(LoopbackRegistry, RefusesADirectoryThatCannotBeOpened) {
  auto started = LoopbackRegistry::start("/nonexistent/registry");
  ASSERT_FALSE(started);
  EXPECT_EQ(started.error().rule, "dependency-registry");
}

}  // namespace
}  // namespace reviewer::deps
