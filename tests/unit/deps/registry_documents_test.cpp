// The registry's metadata of a pnpm lock's packages, for pnpm 11, with a downloader that serves a
// registry from memory: a cold fetch of whole documents, a warm one that asks nothing, a newly
// locked version that asks again, and each refusal with its rule id. (The real registry:
// registry_documents_registry_test.cpp.)
#include "core/deps/registry_documents.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

#include "core/deps/integrity.h"
#include "tests/support/temp_dir.h"

namespace reviewer::deps {
namespace {

class Registry final : public Downloader {
 public:
  std::map<std::string, std::string> files;  // url -> bytes
  std::vector<std::string> asked;
  std::set<std::string> accepts;
  util::Status download(const std::vector<Download>& list, std::uint64_t) override {
    for (const auto& d : list) {
      asked.push_back(d.url);
      accepts.insert(d.accept);
      std::ofstream(d.file, std::ios::binary) << files.at(d.url);
    }
    return util::ok_status();
  }
};

class RegistryDocuments : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = Store::open(dir_ / "store");
    ASSERT_TRUE(store);
    store_.emplace(*store);
    net_.files["https://registry.npmjs.org/chalk"] =
        R"({"name": "chalk", "versions": {"4.1.2": {}, "5.0.0": {}}, "time": {}})";
    net_.files["https://registry.npmjs.org/@types%2fnode"] =
        R"({"name": "@types/node", "versions": {"22.1.0": {}}})";
  }
  util::Result<DocumentsFetch> fetch(const std::map<std::string, std::set<std::string>>& p) {
    return fetch_registry_documents(p, *store_, net_, {});
  }
  test_support::TempDir dir_;
  std::optional<Store> store_;
  Registry net_;
};

TEST_F(RegistryDocuments, FetchesEachWholeThenAsksNothing) {
  const std::map<std::string, std::set<std::string>> packages = {{"chalk", {"4.1.2"}},
                                                                 {"@types/node", {"22.1.0"}}};
  auto cold = fetch(packages);
  ASSERT_TRUE(cold) << cold.error().to_string();
  ASSERT_EQ(cold->documents.size(), 2u);
  EXPECT_THAT(net_.asked,
              ::testing::UnorderedElementsAre("https://registry.npmjs.org/chalk",
                                              "https://registry.npmjs.org/@types%2fnode"));
  // The whole document, which answers pnpm's abbreviated and whole requests alike.
  EXPECT_EQ(net_.accepts, (std::set<std::string>{"application/json"}));
  for (const auto& d : cold->documents) {
    EXPECT_FALSE(d.hit) << d.name;
    const std::string url =
        "https://registry.npmjs.org/" + (d.name == "chalk" ? d.name : "@types%2fnode");
    EXPECT_EQ(d.bytes, net_.files[url].size());
    // The store holds the registry's bytes, by their own SHA-512.
    std::ifstream in(store_->root() + "/" + Store::relative_path(d.sha512), std::ios::binary);
    EXPECT_EQ(std::string((std::istreambuf_iterator<char>(in)), {}), net_.files[url]);
  }
  net_.asked.clear();
  auto warm = fetch(packages);
  ASSERT_TRUE(warm) << warm.error().to_string();
  EXPECT_TRUE(net_.asked.empty());
  ASSERT_EQ(warm->documents.size(), 2u);
  EXPECT_TRUE(warm->documents[0].hit && warm->documents[1].hit);
  EXPECT_THAT(describe(*warm), ::testing::MatchesRegex("the registry's metadata of 2 packages "
                                                       "\\(0.1 KiB\\): 2 hits, 0 downloaded "
                                                       "\\(nothing\\) in 0.0[0-9] s"));
}

TEST_F(RegistryDocuments, AskAgainWhenTheLockPinsAVersionTheStoredOneLacks) {
  ASSERT_TRUE(fetch({{"chalk", {"4.1.2"}}}));
  net_.asked.clear();
  net_.files["https://registry.npmjs.org/chalk"] =
      R"({"name": "chalk", "versions": {"4.1.2": {}, "5.0.0": {}, "5.1.0": {}}})";
  auto again = fetch({{"chalk", {"4.1.2", "5.1.0"}}});
  ASSERT_TRUE(again) << again.error().to_string();
  EXPECT_EQ(net_.asked, (std::vector<std::string>{"https://registry.npmjs.org/chalk"}));
  EXPECT_FALSE(again->documents[0].hit);
  net_.asked.clear();
  ASSERT_TRUE(fetch({{"chalk", {"5.1.0"}}}));
  EXPECT_TRUE(net_.asked.empty());
}

TEST_F(RegistryDocuments, RefusesWhatCannotBeThePackagesDocument) {
  for (const char* body : {"not json", "[]", R"({"name": "evil", "versions": {}})",
                           R"({"versions": {"4.1.2": {}}})"}) {
    net_.files["https://registry.npmjs.org/chalk"] = body;
    auto r = fetch({{"chalk", {"4.1.2"}}});
    ASSERT_FALSE(r) << body;
    EXPECT_EQ(r.error().rule, "dependency-metadata-invalid") << body;
    EXPECT_THAT(r.error().message,
                ::testing::StartsWith(
                    "the registry's metadata of chalk (https://registry.npmjs.org/chalk) "));
  }
}

}  // namespace
}  // namespace reviewer::deps
