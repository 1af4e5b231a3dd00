// The registry's integrity of yarn 2+'s packages, with a downloader that serves version documents
// from memory: a cold pin that reads each document, a warm one that asks nothing, and each
// document that does not pin the registry's tarball refused by its rule.
#include "core/deps/registry_integrity.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

#include "tests/support/temp_dir.h"

namespace reviewer::deps {
namespace {

using ::testing::ElementsAre;
using ::testing::UnorderedElementsAre;

// sha512-<base64> of 64 bytes 0x11.., and its hex.
constexpr const char* kChalkSri =
    "sha512-ERERERERERERERERERERERERERERERERERERERERERERERERERERERERERERERERERERERERE"
    "REREREREREREQ==";
const std::string kChalkHex(128, '1');

class Registry final : public Downloader {
 public:
  std::map<std::string, std::string> files;  // url -> bytes
  std::vector<std::string> asked;
  util::Status download(const std::vector<Download>& list, std::uint64_t) override {
    for (const auto& d : list) {
      asked.push_back(d.url);
      auto it = files.find(d.url);
      if (it == files.end()) {
        return util::refusal("dependency-fetch-failed", "404 for " + d.url);
      }
      std::ofstream(d.file, std::ios::binary) << it->second;
    }
    return util::ok_status();
  }
};

std::string document(const std::string& name, const std::string& version,
                     const std::string& tarball, const std::string& integrity) {
  return R"({"name": ")" + name + R"(", "version": ")" + version + R"(", "dist": {"tarball": ")" +
         tarball + R"(", "integrity": ")" + integrity + R"("}})";
}

class RegistryIntegrity : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = Store::open(dir_ / "store");
    ASSERT_TRUE(store);
    store_.emplace(*store);
    net_.files["https://registry.npmjs.org/chalk/4.1.2"] =
        document("chalk", "4.1.2", "https://registry.npmjs.org/chalk/-/chalk-4.1.2.tgz", kChalkSri);
    net_.files["https://registry.npmjs.org/@types%2fnode/22.1.0"] = document(
        "@types/node", "22.1.0", "https://registry.npmjs.org/@types/node/-/node-22.1.0.tgz",
        "sha1-AAAAAAAAAAAAAAAAAAAAAAAAAAA= sha512-" + std::string(86, 'A') + "==");
  }
  FetchList list(std::vector<UnpinnedPackage> packages) {
    FetchList l;
    l.unpinned = std::move(packages);
    return l;
  }
  // "rule: message" of the one refusal pinning `packages` gives.
  std::string refused(std::vector<UnpinnedPackage> packages) {
    FetchList l = list(std::move(packages));
    auto r = pin_registry_integrity(l, *store_, net_, {});
    EXPECT_FALSE(r);
    return r ? "" : r.error().rule + ": " + r.error().message;
  }
  test_support::TempDir dir_;
  std::optional<Store> store_;
  Registry net_;
};

TEST_F(RegistryIntegrity, ReadsEachVersionDocumentOnceThenAsksNothing) {
  const std::vector<UnpinnedPackage> packages = {
      {"yarn.lock: \"chalk@npm:^4\"", "chalk", "4.1.2"},
      {"yarn.lock: \"@types/node@npm:^22\"", "@types/node", "22.1.0"}};
  FetchList cold = list(packages);
  auto report = pin_registry_integrity(cold, *store_, net_, {});
  ASSERT_TRUE(report) << report.error().to_string();
  EXPECT_THAT(net_.asked, UnorderedElementsAre("https://registry.npmjs.org/chalk/4.1.2",
                                               "https://registry.npmjs.org/@types%2fnode/22.1.0"));
  EXPECT_EQ(report->packages, 2u);
  EXPECT_EQ(report->hits, 0u);
  EXPECT_TRUE(cold.unpinned.empty());
  ASSERT_EQ(cold.tarballs.size(), 2u);
  EXPECT_EQ(cold.tarballs[0].what, "yarn.lock: \"chalk@npm:^4\"");
  EXPECT_EQ(cold.tarballs[0].url, "https://registry.npmjs.org/chalk/-/chalk-4.1.2.tgz");
  EXPECT_EQ(cold.tarballs[0].sha512, kChalkHex);
  // The loopback registry serves it where yarn asks: the registry's own path.
  EXPECT_EQ(cold.tarballs[0].registry_path, "chalk/-/chalk-4.1.2.tgz");
  EXPECT_EQ(cold.tarballs[1].registry_path, "@types/node/-/node-22.1.0.tgz");
  EXPECT_EQ(cold.tarballs[1].sha512, std::string(128, '0'));

  net_.asked.clear();
  FetchList warm = list(packages);
  auto again = pin_registry_integrity(warm, *store_, net_, {});
  ASSERT_TRUE(again) << again.error().to_string();
  EXPECT_TRUE(net_.asked.empty());
  EXPECT_EQ(again->hits, 2u);
  ASSERT_EQ(warm.tarballs.size(), 2u);
  EXPECT_EQ(warm.tarballs[0].sha512, kChalkHex);
  EXPECT_THAT(describe(*again),
              ::testing::MatchesRegex("took the registry's integrity of 2 packages: 2 known, 0 "
                                      "version documents read in 0.0[0-9] s"));
}

TEST_F(RegistryIntegrity, ATarballAlreadyPinnedIsNotListedTwice) {
  FetchList l = list({{"yarn.lock: \"chalk@npm:^4\"", "chalk", "4.1.2"}});
  l.tarballs.push_back({"package-lock.json: \"node_modules/chalk\"",
                        "https://registry.npmjs.org/chalk/-/chalk-4.1.2.tgz", kChalkHex, "", ""});
  ASSERT_TRUE(pin_registry_integrity(l, *store_, net_, {}));
  ASSERT_EQ(l.tarballs.size(), 1u);
  EXPECT_EQ(l.tarballs[0].registry_path, "chalk/-/chalk-4.1.2.tgz");
}

TEST_F(RegistryIntegrity, DocumentsThatDoNotPinTheRegistrysTarballAreRefused) {
  const std::string url = "https://registry.npmjs.org/ms/2.1.3";
  const std::string tarball = "https://registry.npmjs.org/ms/-/ms-2.1.3.tgz";
  const std::vector<UnpinnedPackage> ms = {{"yarn.lock: \"ms@npm:^2\"", "ms", "2.1.3"}};
  const std::string head =
      "dependency-metadata-invalid: the registry's document for ms@2.1.3 (" + url + ") ";
  net_.files[url] = "<html>";
  EXPECT_EQ(refused(ms), head + "is not JSON");
  net_.files[url] = document("ms", "2.1.4", tarball, kChalkSri);
  EXPECT_EQ(refused(ms), head + "names another package or version");
  net_.files[url] = document("mss", "2.1.3", tarball, kChalkSri);
  EXPECT_EQ(refused(ms), head + "names another package or version");
  net_.files[url] = document("ms", "2.1.3", "https://evil.test/ms-2.1.3.tgz", kChalkSri);
  EXPECT_EQ(refused(ms), head +
                             "names the tarball \"https://evil.test/ms-2.1.3.tgz\", not the "
                             "registry's own " +
                             tarball);
  net_.files[url] = document("ms", "2.1.3", tarball, "sha1-AAAAAAAAAAAAAAAAAAAAAAAAAAA=");
  EXPECT_EQ(refused(ms), head + "has no sha512 dist.integrity");
  net_.files[url] = "[]";
  EXPECT_EQ(refused(ms), head + "names another package or version");
  // Nothing refused was recorded: a later review asks again.
  net_.files[url] = document("ms", "2.1.3", tarball, kChalkSri);
  FetchList l = list(ms);
  auto ok = pin_registry_integrity(l, *store_, net_, {});
  ASSERT_TRUE(ok) << ok.error().to_string();
  EXPECT_EQ(ok->hits, 0u);
}

TEST_F(RegistryIntegrity, AVersionTheRegistryLacksFailsTheFetch) {
  EXPECT_EQ(refused({{"yarn.lock: \"gone@npm:^1\"", "gone", "1.0.0"}}),
            "dependency-fetch-failed: 404 for https://registry.npmjs.org/gone/1.0.0");
}

}  // namespace
}  // namespace reviewer::deps
