// The isolation issue's finding 3, its last part, attacked in a real resolution sandbox of each
// engine (the namespaces engine over the e2e stage; podman with REVIEWER_E2E_ENGINE=podman,
// label `image`): what runs there (npm, or anything npm could be made to run) reaches the host's
// registry on its loopback and nothing else: no address of the internet, no name service, no
// service on the host's own loopback, and of the registry only a GET of a package's document.
// The probe is node, which every image carries, and writes what it saw into its folder.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/deps/resolution_registry.h"
#include "core/deps/sandbox_network.h"
#include "core/host/engine.h"
#include "tests/support/temp_dir.h"

namespace reviewer::host {
namespace {

namespace fs = std::filesystem;

// Serves one document, as the configured registry would.
class OneDocument final : public deps::Downloader {
 public:
  util::Status download(const std::vector<deps::Download>&, std::uint64_t) override {
    return util::ok_status();
  }
  util::Result<bool> download_document(const deps::Download& item, std::uint64_t) override {
    if (item.url != "https://registry.npmjs.org/is-number") {
      return false;
    }
    std::ofstream(item.file) << R"({"name":"is-number"})";
    return true;
  }
};

// argv[1]: the registry's URL; argv[2]: a port the host listens on, on its own loopback.
constexpr const char* kProbe = R"JS(
const net = require('net'), http = require('http'), dns = require('dns'), fs = require('fs');
const [registry, hostPort] = process.argv.slice(1);
const out = {};
const connect = (host, port) => new Promise(done => {
  const s = net.connect({host, port, timeout: 3000});
  s.on('connect', () => { s.destroy(); done('connected'); });
  s.on('timeout', () => { s.destroy(); done('timeout'); });
  s.on('error', e => done(e.code));
});
const request = (method, path) => new Promise(done => {
  const r = http.request(registry + path, {method}, res => {
    let body = '';
    res.on('data', d => body += d);
    res.on('end', () => done(res.statusCode + ' ' + body));
  });
  r.on('error', e => done(e.code));
  r.end();
});
(async () => {
  out.document = await request('GET', 'is-number');
  out.post = await request('POST', 'is-number');
  out.other_path = await request('GET', '-/whoami');
  out.internet = await connect('104.16.0.35', 443);
  out.host_loopback = await connect('127.0.0.1', Number(hostPort));
  out.dns = await new Promise(done => dns.lookup('registry.npmjs.org', e => done(e ? e.code : 'resolved')));
  out.interfaces = Object.keys(require('os').networkInterfaces());
  fs.writeFileSync('probe.json', JSON.stringify(out));
})();
)JS";

class ResolutionSandbox : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::geteuid() != 0) {
      GTEST_SKIP() << "sandboxes are made by root";
    }
    const char* engine = std::getenv("REVIEWER_E2E_ENGINE");
    engine_ = engine != nullptr && std::string(engine) == "podman"
                  ? make_container_engine("podman")
                  : make_namespace_engine(REVIEWER_E2E_STAGE);
    fs::create_directories(dir_ / "resolve");
    fs::create_directories(dir_ / "served");
  }

  test_support::TempDir dir_;
  std::unique_ptr<Engine> engine_;
};

TEST_F(ResolutionSandbox, ReachesTheHostsRegistryAndNothingElse) {
  // A service of the host's, on the host's loopback, that the sandbox must not reach.
  auto host_service = deps::listen_on_loopback();
  ASSERT_TRUE(host_service);
  const int host_port = deps::listening_port(host_service->get());
  OneDocument upstream;
  std::unique_ptr<deps::ResolutionRegistry> registry;
  deps::ResolutionSpec spec{
      REVIEWER_E2E_IMAGE, dir_ / "resolve", std::chrono::minutes(2), {}, nullptr, nullptr};
  spec.serve = [&](util::UniqueFd listener) -> util::Result<std::string> {
    registry = std::make_unique<deps::ResolutionRegistry>(
        std::move(listener), "https://registry.npmjs.org/", upstream, dir_ / "served");
    return registry->url();
  };
  spec.command = [&](const std::string&, const std::string& url) {
    return std::vector<std::string>{"node", "-e", kProbe, url, std::to_string(host_port)};
  };
  auto ran = engine_->resolve(spec);
  ASSERT_TRUE(ran) << ran.error().to_string();
  EXPECT_EQ(ran->status, 0);
  std::ifstream in(dir_ / "resolve/probe.json");
  const auto seen = nlohmann::json::parse(in, nullptr, false);
  ASSERT_TRUE(seen.is_object()) << "the probe wrote nothing";
  EXPECT_EQ(seen["document"], "200 {\"name\":\"is-number\"}") << seen.dump();
  EXPECT_THAT(seen["post"].get<std::string>(), ::testing::StartsWith("405")) << seen.dump();
  EXPECT_THAT(seen["other_path"].get<std::string>(), ::testing::StartsWith("404"));
  EXPECT_EQ(seen["internet"], "ENETUNREACH") << seen.dump();
  EXPECT_EQ(seen["host_loopback"], "ECONNREFUSED") << seen.dump();
  EXPECT_NE(seen["dns"], "resolved") << seen.dump();
  EXPECT_EQ(seen["interfaces"], nlohmann::json::array({"lo"})) << seen.dump();
  auto served = registry->finish();
  ASSERT_TRUE(served);
  ASSERT_EQ(served->size(), 1u);
  EXPECT_EQ((*served)[0].name, "is-number");
}

}  // namespace
}  // namespace reviewer::host
