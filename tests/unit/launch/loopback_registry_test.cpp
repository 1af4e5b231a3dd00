// The loopback registry over real sockets: what a package manager asks (metadata, tarballs, on
// kept-alive and pipelined connections) is answered from the view's registry directory byte for
// byte; what a hostile step asks (a way out of the directory, a link the directory holds, a body,
// an endless head, a method other than GET) is answered with the status that says so and never
// with a file outside. (pnpm 11 against it in a real image: tests/image/fetch_image_test.cpp.)
#include "core/launch/loopback_registry.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <thread>
#include <vector>

#include "tests/support/temp_dir.h"

namespace reviewer::launch {
namespace {

namespace fs = std::filesystem;

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

  int port() const { return std::stoi(registry_->url().substr(17)); }

  int connect_to() const {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
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

TEST(LoopbackRegistry, RefusesADirectoryThatCannotBeOpened) {
  auto started = LoopbackRegistry::start("/nonexistent/registry");
  ASSERT_FALSE(started);
  EXPECT_EQ(started.error().rule, "dependency-registry");
}

}  // namespace
}  // namespace reviewer::launch
