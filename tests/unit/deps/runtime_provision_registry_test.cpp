// A review's runtime set from the shipped catalogue, laid out from the real npm registry with the
// host's curl, and run: Node 24.18.1 with the npm and corepack it bundles. Skipped, saying why,
// where the registry cannot be reached.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <iostream>

#include "core/deps/curl_downloader.h"
#include "core/deps/runtime_provision.h"
#include "core/exec/host_process.h"
#include "core/resolve/runtime_catalogue.h"
#include "tests/support/temp_dir.h"

namespace reviewer::deps {
namespace {

using Clock = std::chrono::steady_clock;

long long ms_since(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
}

class RuntimeProvisionRegistry : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::system("curl -q -sSfI --max-time 20 -o /dev/null "
                    "https://registry.npmjs.org/corepack/-/corepack-0.35.0.tgz") != 0) {
      GTEST_SKIP() << "the npm registry (https://registry.npmjs.org/) cannot be reached with curl "
                      "from this host";
    }
  }
  test_support::TempDir dir_;
};

TEST_F(RuntimeProvisionRegistry, ProvidesNode24WithItsBundledNpmAndCorepackThatRun) {
  auto catalogue = resolve::load_runtime_catalogue(REVIEWER_SOURCE_DIR "/matrix/runtimes.json");
  ASSERT_TRUE(catalogue) << catalogue.error().to_string();
  resolve::RuntimeSet set;
  set.node = catalogue->find("node", "24.18.1");
  ASSERT_NE(set.node, nullptr);
  set.npm = catalogue->find("npm", set.node->npm);
  set.corepack = catalogue->find("corepack", set.node->corepack);
  ASSERT_NE(set.npm, nullptr);
  ASSERT_NE(set.corepack, nullptr);

  auto store = Store::open(dir_ / "store");
  ASSERT_TRUE(store);
  auto downloader = make_curl_downloader();
  const auto cold_start = Clock::now();
  auto cold = provide_runtime_set(set, dir_ / "cold", *store, *downloader, FetchOptions{});
  const long long cold_ms = ms_since(cold_start);
  ASSERT_TRUE(cold) << cold.error().to_string();
  const auto warm_start = Clock::now();
  auto warm = provide_runtime_set(set, dir_ / "warm", *store, *downloader, FetchOptions{});
  const long long warm_ms = ms_since(warm_start);
  ASSERT_TRUE(warm) << warm.error().to_string();
  std::cout << "node " << set.node->version << ", npm " << set.npm->version << ", corepack "
            << set.corepack->version << ": cold " << cold_ms << " ms (download, unpack, check), "
            << "from the store " << warm_ms << " ms\n";
  RecordProperty("cold_ms", static_cast<int>(cold_ms));
  RecordProperty("warm_ms", static_cast<int>(warm_ms));

  const std::string node = dir_ / "cold/node/bin/node";
  auto version = exec::command_output({node, "--version"});
  ASSERT_TRUE(version) << version.error().to_string();
  EXPECT_EQ(*version, "v24.18.1\n");
  auto npm = exec::command_output(
      {node, dir_ / "cold/node/lib/node_modules/npm/bin/npm-cli.js", "--version"});
  ASSERT_TRUE(npm) << npm.error().to_string();
  EXPECT_EQ(*npm, set.npm->version + "\n");
  // The package's bin (the launcher's `corepack` link), which runs the catalogue's file.
  auto corepack = exec::command_output(
      {node, dir_ / "cold/node/lib/node_modules/corepack/dist/corepack.js", "--version"});
  ASSERT_TRUE(corepack) << corepack.error().to_string();
  EXPECT_EQ(*corepack, set.corepack->version + "\n");
}

}  // namespace
}  // namespace reviewer::deps
