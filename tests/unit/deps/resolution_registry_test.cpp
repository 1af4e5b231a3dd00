// The registry a resolution sandbox reaches, attacked as the sandbox would: only a GET of a
// package's metadata or tarball by a plain name reaches the configured registry, through the
// host's downloader; every other method, path or host is answered here and fetches nothing;
// held connections, floods and oversized heads cost it nothing it cannot give back.
#include "core/deps/resolution_registry.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <thread>

#include "core/deps/sandbox_network.h"
#include "tests/support/http_exchange.h"
#include "tests/support/temp_dir.h"

namespace reviewer::deps {
namespace {

namespace fs = std::filesystem;
using test_support::get_request;
using test_support::http_exchange;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr const char* kRegistry = "https://registry.example/";

// The registry behind the host's downloader: what it was asked, with which Accept.
class Upstream final : public deps::Downloader {
 public:
  std::map<std::string, std::string> bodies = {
      {"https://registry.example/chalk", R"({"name":"chalk"})"},
      {"https://registry.example/@types%2fnode", R"({"name":"@types/node"})"},
      {"https://registry.example/chalk/-/chalk-5.3.0.tgz", "tarball"},
      {"https://registry.example/@types/node/-/node-22.1.0.tgz", "scoped tarball"}};
  std::optional<util::Refusal> failure;

  std::vector<std::string> asked() {
    std::lock_guard lock(m_);
    return asked_;
  }
  std::vector<std::string> accepts() {
    std::lock_guard lock(m_);
    return accepts_;
  }
  util::Status download(const std::vector<deps::Download>&, std::uint64_t) override {
    return util::refusal("dependency-fetch-failed", "not this way");
  }
  util::Result<bool> download_document(const deps::Download& item, std::uint64_t) override {
    {
      std::lock_guard lock(m_);
      asked_.push_back(item.url);
      accepts_.push_back(item.accept);
    }
    if (failure) {
      return *failure;
    }
    const auto it = bodies.find(item.url);
    if (it == bodies.end()) {
      return false;
    }
    std::ofstream(item.file, std::ios::binary) << it->second;
    return true;
  }

 private:
  std::mutex m_;
  std::vector<std::string> asked_;
  std::vector<std::string> accepts_;
};

class ResolutionRegistryTest : public ::testing::Test {
 protected:
  void start(ResolutionRegistryLimits limits = {}) {
    auto listener = listen_on_loopback();
    ASSERT_TRUE(listener) << listener.error().to_string();
    registry_ = std::make_unique<ResolutionRegistry>(std::move(*listener), kRegistry, upstream_,
                                                     dir_.path(), limits);
    port_ = test_support::port_of(registry_->url());
  }
  std::string get(const std::string& target, const std::string& accept = "") {
    return http_exchange(port_, get_request(target, accept));
  }

  test_support::TempDir dir_;
  Upstream upstream_;
  std::unique_ptr<ResolutionRegistry> registry_;
  int port_ = 0;
};

TEST_F(ResolutionRegistryTest, ServesADocumentFromTheRegistryAndRecordsIt) {
  start();
  EXPECT_THAT(registry_->url(), ::testing::StartsWith("http://127.0.0.1:"));
  const std::string answer = get("/chalk", "application/json");
  EXPECT_THAT(answer, HasSubstr("HTTP/1.1 200 OK\r\n"));
  EXPECT_THAT(answer, HasSubstr("Content-Type: application/json\r\n"));
  EXPECT_THAT(answer, HasSubstr("Content-Length: 16\r\n"));
  EXPECT_THAT(answer, ::testing::EndsWith("\r\n\r\n{\"name\":\"chalk\"}"));
  auto served = registry_->finish();
  ASSERT_TRUE(served) << served.error().to_string();
  ASSERT_EQ(served->size(), 1u);
  EXPECT_EQ((*served)[0].name, "chalk");
  EXPECT_EQ((*served)[0].accept, "application/json");
  EXPECT_EQ((*served)[0].content_type, "application/json");
  std::ifstream in((*served)[0].file);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), R"({"name":"chalk"})");
}

// The client's Accept picks one of the two documents npm reads, and is never forwarded itself.
TEST_F(ResolutionRegistryTest, TheAbbreviatedDocumentIsAskedForAsNpmAsksAndNothingElseIsForwarded) {
  start();
  get("/chalk", "application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8, */*");
  get("/chalk", "text/html\r\nX-Evil: 1");
  EXPECT_THAT(
      upstream_.accepts(),
      ElementsAre("application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8, */*",
                  "application/json"));
  auto served = registry_->finish();
  ASSERT_TRUE(served);
  ASSERT_EQ(served->size(), 1u);  // the last answer for a name is the one kept
  EXPECT_EQ((*served)[0].accept, "application/json");
}

TEST_F(ResolutionRegistryTest, ScopedNamesAndTarballsReachTheRegistryAsItSpellsThem) {
  start();
  EXPECT_THAT(get("/@types%2fnode"), HasSubstr("200 OK"));
  EXPECT_THAT(get("/@types%2Fnode"), HasSubstr("200 OK"));
  EXPECT_THAT(get("/chalk/-/chalk-5.3.0.tgz"), ::testing::EndsWith("tarball"));
  EXPECT_THAT(get("/@types/node/-/node-22.1.0.tgz"), ::testing::EndsWith("scoped tarball"));
  EXPECT_THAT(upstream_.asked(),
              ElementsAre("https://registry.example/@types%2fnode",
                          "https://registry.example/@types%2fnode",
                          "https://registry.example/chalk/-/chalk-5.3.0.tgz",
                          "https://registry.example/@types/node/-/node-22.1.0.tgz"));
  auto served = registry_->finish();
  ASSERT_TRUE(served);
  ASSERT_EQ(served->size(), 1u);  // tarballs are not metadata; the lock names them
  EXPECT_EQ((*served)[0].name, "@types%2fnode");
}

// Every request that is not a GET of a package's document or tarball is answered here.
TEST_F(ResolutionRegistryTest, NoOtherMethodPathOrHostReachesTheRegistry) {
  start();
  const std::vector<std::pair<std::string, std::string>> attacks = {
      {"POST /chalk HTTP/1.1\r\nContent-Length: 0\r\n\r\n", "405"},
      {"PUT /chalk HTTP/1.1\r\nContent-Length: 0\r\n\r\n", "405"},
      {"CONNECT registry.npmjs.org:443 HTTP/1.1\r\n\r\n", "405"},
      {"HEAD /chalk HTTP/1.1\r\n\r\n", "405"},
      {get_request("http://evil.example/chalk"), "404"},
      {get_request("/../../etc/passwd"), "404"},
      {get_request("/chalk/../../etc"), "404"},
      {get_request("/-/npm/v1/security/advisories/bulk"), "404"},
      {get_request("/-/whoami"), "404"},
      {get_request("/.packument"), "404"},
      {get_request("/chalk%2f..%2f..%2fx"), "404"},
      {get_request("/chalk/-/evil.sh"), "404"},
      {"GET /chalk HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", "400"},
      {"GET /chalk HTTP/2\r\n\r\n", "400"},
      {"\x16\x03\x01\x02\xfc\x03\x03 binary\r\n\r\n", "400"},  // a TLS hello
  };
  for (const auto& [request, code] : attacks) {
    EXPECT_THAT(http_exchange(port_, request), ::testing::StartsWith("HTTP/1.1 " + code))
        << request;
  }
  EXPECT_THAT(upstream_.asked(), IsEmpty());
  auto served = registry_->finish();
  ASSERT_TRUE(served);
  EXPECT_THAT(*served, IsEmpty());
}

TEST_F(ResolutionRegistryTest, AMissingPackageIsA404AndNotAFailure) {
  start();
  EXPECT_THAT(get("/no-such-package"), ::testing::StartsWith("HTTP/1.1 404"));
  auto served = registry_->finish();
  ASSERT_TRUE(served);
  EXPECT_THAT(*served, IsEmpty());
}

TEST_F(ResolutionRegistryTest, ADownloadFailureIsA502AndFinishNamesIt) {
  upstream_.failure = util::Refusal{"dependency-too-large", "past the bound", std::nullopt};
  start();
  EXPECT_THAT(get("/chalk"), ::testing::StartsWith("HTTP/1.1 502"));
  auto served = registry_->finish();
  ASSERT_FALSE(served);
  EXPECT_EQ(served.error().rule, "dependency-too-large");
}

TEST_F(ResolutionRegistryTest, PastItsRequestBoundItAnswers503AndFinishNamesIt) {
  ResolutionRegistryLimits limits;
  limits.max_requests = 2;
  start(limits);
  EXPECT_THAT(get("/chalk"), HasSubstr("200 OK"));
  EXPECT_THAT(get("/chalk"), HasSubstr("200 OK"));
  EXPECT_THAT(get("/chalk"), ::testing::StartsWith("HTTP/1.1 503"));
  EXPECT_EQ(upstream_.asked().size(), 2u);
  auto served = registry_->finish();
  ASSERT_FALSE(served);
  EXPECT_EQ(served.error().rule, "resolution-too-many-requests");
}

TEST_F(ResolutionRegistryTest, AnOversizedHeadIsA431) {
  start();
  const std::string head = "GET /chalk HTTP/1.1\r\nX-Pad: " + std::string(20000, 'a') + "\r\n\r\n";
  EXPECT_THAT(http_exchange(port_, head), ::testing::StartsWith("HTTP/1.1 431"));
  EXPECT_THAT(upstream_.asked(), IsEmpty());
}

// Keep-alive: several requests on one connection, each answered in turn.
TEST_F(ResolutionRegistryTest, OneConnectionCarriesSeveralRequests) {
  start();
  const std::string two =
      "GET /chalk HTTP/1.1\r\n\r\nGET /@types%2fnode HTTP/1.1\r\n"
      "Connection: close\r\n\r\n";
  const std::string answer = http_exchange(port_, two);
  EXPECT_THAT(answer, HasSubstr("{\"name\":\"chalk\"}HTTP/1.1 200 OK"));
  EXPECT_THAT(answer, ::testing::EndsWith("{\"name\":\"@types/node\"}"));
}

// Connections that never send a request hold a place until their timeout, then give it back;
// finish() ends them at once rather than waiting.
TEST_F(ResolutionRegistryTest, HeldConnectionsAreClosedAtTheirTimeoutAndAtFinish) {
  ResolutionRegistryLimits limits;
  limits.max_connections = 2;
  limits.timeout = std::chrono::milliseconds(500);
  start(limits);
  std::vector<std::thread> holders;
  for (int i = 0; i < 2; ++i) {
    holders.emplace_back([this] { http_exchange(port_, "GET /chalk HTTP/1.1\r\n"); });
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const auto before = std::chrono::steady_clock::now();
  EXPECT_THAT(get("/chalk"), HasSubstr("200 OK"));  // once a held one timed out
  EXPECT_GE(std::chrono::steady_clock::now() - before, std::chrono::milliseconds(300));
  for (auto& t : holders) {
    t.join();
  }

  limits.timeout = std::chrono::seconds(60);
  registry_.reset();
  start(limits);
  std::thread held([this] { http_exchange(port_, "GET /chalk HTTP/1.1\r\n"); });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const auto finishing = std::chrono::steady_clock::now();
  ASSERT_TRUE(registry_->finish());
  EXPECT_LT(std::chrono::steady_clock::now() - finishing, std::chrono::seconds(5));
  held.join();
}

}  // namespace
}  // namespace reviewer::deps
