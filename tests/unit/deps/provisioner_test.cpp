// The job loop's one way to the package managers: each job's provision from the view the host
// mounted, with real files, a real loopback registry and the job's real scratch.
#include "core/deps/provision/provisioner.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "tests/support/temp_dir.h"

namespace reviewer::deps {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::StartsWith;

std::map<std::string, std::string> as_map(
    const std::vector<std::pair<std::string, std::string>>& entries) {
  return {entries.begin(), entries.end()};
}

exec::JobDirs dirs_in(const std::string& root) {
  exec::JobDirs dirs{root, root + "/home", root + "/tmp", root + "/cache", root + "/runner-temp"};
  for (const auto& d : {dirs.home, dirs.tmp, dirs.cache, dirs.runner_temp}) {
    fs::create_directories(d);
  }
  return dirs;
}

// Without a view a job still gets the runner's defaults and npm's global prefix first on PATH,
// and nothing points at a registry.
TEST(Provisioner, WithoutAViewAJobGetsTheRunnersDefaultsAndItsGlobalPrefix) {
  test_support::TempDir job;
  std::vector<std::string> lines;
  Provisioner provisioner("", "", {}, [&](const std::string& l) { lines.push_back(l); });
  const auto dirs = dirs_in(job.path());
  auto got = provisioner.prepare(dirs);
  ASSERT_TRUE(got) << got.error().to_string();
  const auto defaults = as_map(got->settings.defaults);
  EXPECT_EQ(defaults.at("npm_config_cache"), dirs.cache + "/npm");
  EXPECT_EQ(defaults.at("BUN_INSTALL_CACHE_DIR"), dirs.cache + "/bun");
  const auto settings = as_map(got->settings.settings);
  EXPECT_EQ(settings.at("npm_config_prefix"), dirs.root + "/npm-global");
  EXPECT_EQ(settings.count("npm_config_registry"), 0u);
  EXPECT_EQ(settings.count("pnpm_config_registry"), 0u);
  ASSERT_EQ(got->path_first.size(), 1u);
  EXPECT_EQ(got->path_first[0], dirs.root + "/npm-global/bin");
  EXPECT_TRUE(got->path_last.empty());
  EXPECT_TRUE(lines.empty()) << lines.front();
}

// With a view holding an npm cache and a pnpm registry: the job's own writable copy of the
// cache, offline; the file: registry for pnpm 9 and 10, and the loopback serving it for pnpm 11
// and yarn 2, which answers.
TEST(Provisioner, AViewsCacheAndRegistryReachTheJobsSettings) {
  test_support::TempDir view;
  test_support::TempDir job;
  view.write("_cacache/content-v2/sha512/ab/cd/ef", "tarball");
  view.write("registry/is-number/-/is-number-7.0.0.tgz", "tgz");
  std::vector<std::string> lines;
  Provisioner provisioner(view.path(), "", {}, [&](const std::string& l) { lines.push_back(l); });
  const auto dirs = dirs_in(job.path());
  auto got = provisioner.prepare(dirs);
  ASSERT_TRUE(got) << got.error().to_string();
  const auto settings = as_map(got->settings.settings);
  EXPECT_EQ(settings.at("npm_config_cache"), dirs.cache + "/npm");
  EXPECT_TRUE(fs::is_regular_file(dirs.cache + "/npm/_cacache/content-v2/sha512/ab/cd/ef"));
  EXPECT_EQ(settings.at("npm_config_offline"), "true");
  EXPECT_EQ(settings.at("npm_config_registry"), "file://" + view.path() + "/registry/");
  EXPECT_THAT(settings.at("pnpm_config_registry"), StartsWith("http://127.0.0.1:"));
  EXPECT_EQ(settings.at("YARN_UNSAFE_HTTP_WHITELIST"), "127.0.0.1");
  // The next job gets the same registry and a cache of its own.
  test_support::TempDir second;
  auto again = provisioner.prepare(dirs_in(second.path()));
  ASSERT_TRUE(again);
  EXPECT_EQ(as_map(again->settings.settings).at("pnpm_config_registry"),
            settings.at("pnpm_config_registry"));
  EXPECT_EQ(as_map(again->settings.settings).at("npm_config_cache"), second.path() + "/cache/npm");
}

// A view whose npm cache cannot be copied refuses the job by the seed's own rule: its steps would
// install from nowhere.
TEST(Provisioner, AViewItsCacheCannotBeCopiedFromRefusesTheJob) {
  test_support::TempDir view;
  test_support::TempDir job;
  view.write("_cacache/content-v2/x", "tarball");
  fs::create_symlink("/etc/passwd", view.path() + "/_cacache/content-v2/link");
  Provisioner provisioner(view.path(), "", {}, [](const std::string&) {});
  auto got = provisioner.prepare(dirs_in(job.path()));
  ASSERT_FALSE(got);
  EXPECT_EQ(got.error().rule, "dependency-cache-seed");
}

}  // namespace
}  // namespace reviewer::deps
