// The registry metadata a resolution read is what the host's registry served it; the review's
// npm finds it by the index entry the host writes. Checked against the entry real npm 11 wrote
// for the same document (tests/data/fetch/resolution/cache: `npm install --package-lock-only` of
// is-number@7.0.0), at exactly the bucket npm uses.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/deps/packument_cache.h"
#include "tests/support/temp_dir.h"

namespace reviewer::deps {
namespace {

namespace fs = std::filesystem;

constexpr const char* kRealCache = REVIEWER_SOURCE_DIR "/tests/data/fetch/resolution/cache";
constexpr const char* kRegistry = "https://registry.npmjs.org/";
constexpr const char* kBucket =
    "_cacache/index-v5/98/20/"
    "8cf39748e26add3139706a657e8908982a79143e5c985f1a3fd09031cf57";
constexpr const char* kContentHex =
    "42f1faedd7106f875aa5a2bf9d0b79a7561ffbdd7ce7ef3ba3c0991eeb03d1dfa5a182319b7bc95f8524cb96c4206"
    "41563af8ec7bcda8458e9f98d31476c0259";

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

class PackumentCache : public ::testing::Test {
 protected:
  void SetUp() override {
    document_ = dir_ / "0.json";
    fs::copy_file(std::string(kRealCache) + "/_cacache/content-v2/sha512/42/f1/" +
                      std::string(kContentHex).substr(4),
                  document_);
  }
  ServedMetadata served() const {
    return {"is-number", document_, "application/json", "application/json", 1796087073993};
  }
  // SHA-1 through openssl's command line: an independent implementation of cacache's hash.
  std::string sha1_of(const std::string& text) {
    std::ofstream(dir_ / "line", std::ios::trunc) << text;
    const std::string cmd = "openssl dgst -sha1 -r " + (dir_ / "line") + " > " + (dir_ / "h");
    EXPECT_EQ(std::system(cmd.c_str()), 0);
    return slurp(dir_ / "h").substr(0, 40);
  }

  test_support::TempDir dir_;
  std::string document_;
};

// Field for field npm's own entry for the document, but for the times and the registry's Date
// header (which the review's npm reads for neither a match nor its freshness offline).
TEST_F(PackumentCache, TheEntryIsTheOneNpmWritesForTheSameDocument) {
  auto p = served_packument(served(), kRegistry);
  ASSERT_TRUE(p) << p.error().to_string();
  EXPECT_EQ(p->name, "is-number");
  EXPECT_EQ(p->key, "make-fetch-happen:request-cache:https://registry.npmjs.org/is-number");
  EXPECT_EQ(p->sha512, kContentHex);
  EXPECT_EQ(p->hash, sha1_of(p->line));
  const std::string npm_bucket = slurp(std::string(kRealCache) + "/" + kBucket);
  auto npm = nlohmann::json::parse(npm_bucket.substr(npm_bucket.find('\t') + 1));
  auto ours = nlohmann::json::parse(p->line);
  for (auto* j : {&npm, &ours}) {
    j->erase("time");
    (*j)["metadata"].erase("time");
    (*j)["metadata"]["resHeaders"].erase("date");
  }
  EXPECT_EQ(ours, npm);
}

// Written into an empty view, the entry is at cacache's bucket (SHA-256 of the key) in cacache's
// line format, so npm finds it by URL.
TEST_F(PackumentCache, WritesTheIndexAtTheBucketNpmUses) {
  auto p = served_packument(served(), kRegistry);
  ASSERT_TRUE(p);
  const std::string view = dir_ / "view";
  ASSERT_TRUE(write_packument_index(view, {*p}));
  EXPECT_EQ(slurp(view + "/" + kBucket), "\n" + p->hash + "\t" + p->line);
}

TEST_F(PackumentCache, AScopedNameIsKeyedAsNpmAsksForIt) {
  ServedMetadata scoped = served();
  scoped.name = "@types%2fnode";
  auto p = served_packument(scoped, kRegistry);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->key, "make-fetch-happen:request-cache:https://registry.npmjs.org/@types%2fnode");
}

TEST_F(PackumentCache, StoresTheMetadataVerifiedAndRefusesOtherBytes) {
  auto store = Store::open(dir_ / "store");
  ASSERT_TRUE(store);
  auto p = served_packument(served(), kRegistry);
  ASSERT_TRUE(p);
  ASSERT_TRUE(store_packuments({*p}, *store));
  EXPECT_EQ(store->size_of(kContentHex), 19537u);

  auto other = Store::open(dir_ / "other");
  ASSERT_TRUE(other);
  std::ofstream(p->content, std::ios::app) << " ";
  auto tampered = store_packuments({*p}, *other);
  ASSERT_FALSE(tampered);
  EXPECT_EQ(tampered.error().rule, "dependency-integrity-mismatch");
  EXPECT_FALSE(other->size_of(kContentHex));
}

TEST_F(PackumentCache, ADocumentThatIsNoRegularFileIsAStoreError) {
  ServedMetadata linked = served();
  linked.file = dir_ / "link";
  fs::create_symlink(document_, linked.file);
  auto p = served_packument(linked, kRegistry);
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error().rule, "dependency-store");
}

}  // namespace
}  // namespace reviewer::deps
