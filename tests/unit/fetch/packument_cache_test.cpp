// The registry metadata a resolution sandbox leaves in npm's cache is hostile input: read from a
// real cache npm 11 wrote (tests/data/fetch/resolution/cache: `npm install --package-lock-only`
// of is-number@7.0.0), every tampered variant refused by name, and the index written back at
// exactly the bucket and line npm wrote.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/fetch/integrity.h"
#include "core/fetch/packument_cache.h"
#include "tests/support/temp_dir.h"

namespace reviewer::fetch {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

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
    cache_ = dir_ / "cache";
    fs::copy(kRealCache, cache_, fs::copy_options::recursive);
    const std::string text = slurp(bucket());
    real_json_ = text.substr(text.find('\t') + 1);
  }
  std::string bucket() const { return cache_ + "/" + kBucket; }
  // Rewrites the bucket with `line` (its JSON), hashed as cacache hashes it unless `hash` given.
  void write_line(const std::string& json, std::string hash = "") {
    if (hash.empty()) {
      hash = line_hash(json);
    }
    std::ofstream(bucket(), std::ios::trunc) << "\n" << hash << "\t" << json;
  }
  // cacache's hash of an index line (SHA-1 hex of its JSON).
  std::string line_hash(const std::string& json) {
    std::ofstream(dir_ / "line", std::ios::trunc) << json;
    // SHA-1 through openssl's command line: an independent implementation of the hash.
    const std::string cmd = "openssl dgst -sha1 -r " + (dir_ / "line") + " > " + (dir_ / "h");
    EXPECT_EQ(std::system(cmd.c_str()), 0);
    return slurp(dir_ / "h").substr(0, 40);
  }
  std::string rule_of_read() {
    auto r = read_packuments(cache_, kRegistry);
    return r ? "" : r.error().rule + ": " + r.error().message;
  }
  // The index entry npm wrote, as the tests' starting point.
  const std::string& real_json() const { return real_json_; }

  test_support::TempDir dir_;
  std::string cache_;
  std::string real_json_;
};

TEST_F(PackumentCache, ReadsTheCacheNpmWrote) {
  auto r = read_packuments(cache_, kRegistry);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->size(), 1u);
  EXPECT_EQ((*r)[0].name, "is-number");
  EXPECT_EQ((*r)[0].key, "make-fetch-happen:request-cache:https://registry.npmjs.org/is-number");
  EXPECT_EQ((*r)[0].sha512, kContentHex);
  EXPECT_EQ((*r)[0].hash, "02ef80326c91e9cdfd5c26cc2eae1eee40d66cd3");
}

// Written back into an empty view, the index is byte for byte the bucket npm wrote: cacache's
// bucket path (SHA-256 of the key) and line format, so npm finds it by URL.
TEST_F(PackumentCache, WritesTheIndexAtTheBucketNpmUses) {
  auto r = read_packuments(cache_, kRegistry);
  ASSERT_TRUE(r);
  const std::string view = dir_ / "view";
  ASSERT_TRUE(write_packument_index(view, *r));
  EXPECT_EQ(slurp(view + "/" + kBucket), slurp(bucket()));
}

TEST_F(PackumentCache, StoresTheMetadataVerifiedAndRefusesOtherBytes) {
  auto store = Store::open(dir_ / "store");
  ASSERT_TRUE(store);
  auto r = read_packuments(cache_, kRegistry);
  ASSERT_TRUE(r);
  ASSERT_TRUE(store_packuments(*r, *store));
  EXPECT_EQ(store->size_of(kContentHex), 19537u);

  auto other = Store::open(dir_ / "other");
  ASSERT_TRUE(other);
  std::ofstream((*r)[0].content, std::ios::app) << " ";
  auto tampered = store_packuments(*r, *other);
  ASSERT_FALSE(tampered);
  EXPECT_EQ(tampered.error().rule, "dependency-integrity-mismatch");
  EXPECT_FALSE(other->size_of(kContentHex));
}

TEST_F(PackumentCache, NoIndexMeansNothingWasRead) {
  fs::remove_all(cache_ + "/_cacache/index-v5");
  auto r = read_packuments(cache_, kRegistry);
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->empty());
}

TEST_F(PackumentCache, RefusesALineWhoseHashIsNotItsSha1) {
  write_line(real_json(), std::string(40, 'a'));
  EXPECT_THAT(rule_of_read(), HasSubstr("dependency-resolution-invalid: "));
  EXPECT_THAT(rule_of_read(), HasSubstr("SHA-1"));
}

TEST_F(PackumentCache, RefusesAKeyOfAnotherHost) {
  std::string json = real_json();
  json.replace(json.find("registry.npmjs.org"), 18, "evil.example.com");
  write_line(json);
  EXPECT_THAT(rule_of_read(), HasSubstr("dependency-resolution-invalid: "));
  EXPECT_THAT(rule_of_read(), HasSubstr("is not a package's metadata at"));
}

TEST_F(PackumentCache, RefusesANameThatIsAPathOrAQuery) {
  for (const char* name : {"..", "a/b", "is-number?x=1", "%2e%2e", "@scope/x", "x y"}) {
    std::string json = real_json();
    json.replace(json.find("is-number"), 9, name);
    write_line(json);
    EXPECT_THAT(rule_of_read(), HasSubstr("dependency-resolution-invalid: ")) << name;
  }
}

TEST_F(PackumentCache, AcceptsAScopedNameAsNpmEscapesIt) {
  std::string json = real_json();
  json.replace(json.find("is-number"), 9, "@types%2fnode");
  write_line(json);
  auto r = read_packuments(cache_, kRegistry);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ((*r)[0].name, "@types%2fnode");
}

TEST_F(PackumentCache, SkipsTarballsAndDeletedEntries) {
  std::string tarball = real_json();
  tarball.replace(tarball.find("is-number\""), 10, "is-number/-/is-number-7.0.0.tgz\"");
  std::string deleted = real_json();
  deleted.replace(deleted.find("\"sha512-"),
                  deleted.find("\",\"time\"") - deleted.find("\"sha512-") + 1, "null");
  std::ofstream(bucket(), std::ios::trunc) << "\n"
                                           << line_hash(tarball) << "\t" << tarball << "\n"
                                           << line_hash(deleted) << "\t" << deleted;
  auto r = read_packuments(cache_, kRegistry);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_TRUE(r->empty());
}

TEST_F(PackumentCache, RefusesAnEntryWithoutSha512OrWithoutContent) {
  std::string sha1 = real_json();
  const auto at = sha1.find("\"sha512-");
  sha1.replace(at, sha1.find("\",\"time\"") - at + 1, "\"sha1-AAAAAAAAAAAAAAAAAAAAAAAAAAA=\"");
  write_line(sha1);
  EXPECT_THAT(rule_of_read(), HasSubstr("has no sha512 integrity"));

  write_line(real_json());
  fs::remove(cache_ + "/_cacache/content-v2/sha512/42/f1/" + std::string(kContentHex).substr(4));
  EXPECT_THAT(rule_of_read(), HasSubstr("is not in the cache"));
}

TEST_F(PackumentCache, RefusesLinksFifosAndLargeBuckets) {
  fs::remove(bucket());
  fs::create_symlink("/etc/passwd", bucket());
  EXPECT_THAT(rule_of_read(), HasSubstr("dependency-resolution-invalid: "));

  fs::remove(bucket());
  ASSERT_EQ(::mkfifo(bucket().c_str(), 0644), 0);
  EXPECT_THAT(rule_of_read(), HasSubstr("is neither a directory nor a regular file"));

  fs::remove(bucket());
  std::ofstream(bucket()) << std::string(2u << 20, '\n');
  EXPECT_THAT(rule_of_read(), HasSubstr("is larger than"));
}

TEST_F(PackumentCache, RefusesMoreEntriesThanTheBound) {
  const std::string json = real_json();
  const std::string hash = line_hash(json);
  std::ofstream(bucket(), std::ios::trunc) << "\n"
                                           << hash << "\t" << json << "\n"
                                           << hash << "\t" << json;
  PackumentBounds bounds;
  bounds.max_entries = 1;
  auto r = read_packuments(cache_, kRegistry, bounds);
  ASSERT_FALSE(r);
  EXPECT_THAT(r.error().message, HasSubstr("more than 1 index entries"));
}

}  // namespace
}  // namespace reviewer::fetch
