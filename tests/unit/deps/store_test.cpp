// The store and fetch_into_store with a downloader that serves bytes from memory: hits, misses,
// a tampered tarball never stored, the size bound, and the view a review mounts.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "core/deps/fetch.h"
#include "core/deps/integrity.h"
#include "tests/support/temp_dir.h"

namespace reviewer::deps {
namespace {

namespace fs = std::filesystem;

class ServingDownloader final : public Downloader {
 public:
  std::map<std::string, std::string> files;  // url -> bytes
  int calls = 0;
  std::size_t items = 0;
  util::Status download(const std::vector<Download>& list, std::uint64_t max_each) override {
    ++calls;
    items += list.size();
    for (const auto& d : list) {
      const std::string& bytes = files.at(d.url);
      if (bytes.size() > max_each) {
        return util::refusal("dependency-too-large", "over");
      }
      std::ofstream(d.file, std::ios::binary) << bytes;
    }
    return util::ok_status();
  }
};

std::string sha512_hex_of(const std::string& bytes, const std::string& dir) {
  std::ofstream(dir + "/h", std::ios::binary) << bytes;
  return *sha512_file(dir + "/h");
}

class StoreFetch : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = Store::open(dir_ / "store");
    ASSERT_TRUE(store);
    store_.emplace(*store);
  }
  // A list of tarballs named by url, each pinned to the hash of `pinned_bytes`.
  void pin(const std::string& url, const std::string& pinned_bytes, const std::string& served) {
    list_.tarballs.push_back({"package-lock.json: \"node_modules/" + url + "\"", url,
                              sha512_hex_of(pinned_bytes, dir_.path()), "", ""});
    net_.files[url] = served;
  }
  test_support::TempDir dir_;
  std::optional<Store> store_;
  FetchList list_;
  ServingDownloader net_;
  FetchOptions options_;
};

TEST_F(StoreFetch, FetchesMissesThenCostsNothing) {
  list_.lock_file = "package-lock.json";
  pin("a", "tarball a", "tarball a");
  pin("b", "tarball bb", "tarball bb");
  auto cold = fetch_into_store(list_, *store_, net_, options_);
  ASSERT_TRUE(cold) << cold.error().to_string();
  EXPECT_EQ(cold->misses, 2u);
  EXPECT_EQ(cold->hits, 0u);
  EXPECT_EQ(cold->bytes, 19u);
  EXPECT_EQ(cold->bytes_fetched, 19u);
  const std::string stored = store_->root() + "/" + Store::relative_path(list_.tarballs[0].sha512);
  EXPECT_TRUE(fs::is_regular_file(stored));
  EXPECT_EQ(fs::status(stored).permissions() & fs::perms::others_read, fs::perms::others_read);

  auto warm = fetch_into_store(list_, *store_, net_, options_);
  ASSERT_TRUE(warm);
  EXPECT_EQ(warm->hits, 2u);
  EXPECT_EQ(warm->misses, 0u);
  EXPECT_EQ(warm->bytes, 19u);
  EXPECT_EQ(warm->bytes_fetched, 0u);
  EXPECT_EQ(net_.calls, 1) << "a warm fetch must not download";
  EXPECT_THAT(describe(list_, *warm),
              ::testing::StartsWith("package-lock.json: 2 tarballs (0.0 KiB), 2 hits, 0 "
                                    "misses, nothing downloaded in "));
  // Nothing is left behind in the download area.
  EXPECT_TRUE(fs::is_empty(store_->root() + "/tmp"));
}

TEST_F(StoreFetch, RefusesATamperedTarballAndNeverStoresIt) {
  pin("a", "what the lock pinned", "what the registry served");
  auto r = fetch_into_store(list_, *store_, net_, options_);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().rule, "dependency-integrity-mismatch");
  EXPECT_THAT(r.error().message,
              ::testing::StartsWith("package-lock.json: \"node_modules/a\" downloaded with "
                                    "integrity sha512-"));
  EXPECT_THAT(r.error().message, ::testing::HasSubstr(", but the lock file pins sha512-"));
  EXPECT_FALSE(store_->size_of(list_.tarballs[0].sha512));
  EXPECT_TRUE(fs::is_empty(store_->root() + "/tmp"));
}

TEST_F(StoreFetch, RefusesTarballsOverTheBoundWhetherStoredOrNot) {
  pin("a", std::string(100, 'a'), std::string(100, 'a'));
  options_.max_total_bytes = 50;
  auto r = fetch_into_store(list_, *store_, net_, options_);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().rule, "dependency-too-large");
  options_.max_total_bytes = 1000;
  ASSERT_TRUE(fetch_into_store(list_, *store_, net_, options_));
  options_.max_total_bytes = 50;
  r = fetch_into_store(list_, *store_, net_, options_);  // now a hit, and still too large
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().rule, "dependency-too-large");
  EXPECT_EQ(r.error().message,
            "the tarballs the lock file pins are 100 bytes or more together, over the 50-byte "
            "bound (--max-dependency-bytes)");
}

TEST_F(StoreFetch, TheViewHoldsExactlyTheLocksTarballs) {
  pin("a", "tarball a", "tarball a");
  pin("b", "tarball b", "tarball b");
  ASSERT_TRUE(fetch_into_store(list_, *store_, net_, options_));
  const std::string view = dir_ / "view";
  const mode_t umask_before = ::umask(077);  // a host's strict umask must not hide the view
  auto made = store_->make_view({list_.tarballs[0].sha512}, view);
  ::umask(umask_before);
  ASSERT_TRUE(made);
  for (fs::path p =
           fs::path(view + "/" + Store::relative_path(list_.tarballs[0].sha512)).parent_path();
       p.string().size() >= view.size(); p = p.parent_path()) {
    EXPECT_EQ(fs::status(p).permissions() & fs::perms::others_exec, fs::perms::others_exec) << p;
  }
  EXPECT_TRUE(fs::is_regular_file(view + "/" + Store::relative_path(list_.tarballs[0].sha512)));
  EXPECT_FALSE(fs::exists(view + "/" + Store::relative_path(list_.tarballs[1].sha512)));
  std::ifstream in(view + "/" + Store::relative_path(list_.tarballs[0].sha512));
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(), "tarball a");
}

// One URL, forty integrities: every entry but the first is refused by name, and nothing is
// downloaded (each integrity was once a download of its own, 1 MiB each on the host's disk).
TEST_F(StoreFetch, OneUrlNamedWithTwoIntegritiesIsRefusedBeforeAnyDownload) {
  for (int i = 0; i < 40; ++i) {
    pin("a", "fake " + std::to_string(i), std::string(1 << 20, 'a'));
  }
  auto r = fetch_into_store(list_, *store_, net_, options_);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.refusals().size(), 39u);
  for (const auto& refusal : r.refusals()) {
    EXPECT_EQ(refusal.rule, "dependency-integrity-conflict");
  }
  EXPECT_THAT(r.error().message,
              ::testing::StartsWith("package-lock.json: \"node_modules/a\" pins a with integrity "
                                    "sha512-"));
  EXPECT_THAT(r.error().message,
              ::testing::HasSubstr(", but package-lock.json: \"node_modules/a\" pins the same "
                                   "tarball with sha512-"));
  EXPECT_EQ(net_.calls, 0);
}

// The same integrity at two URLs is two downloads, each verified: one URL cannot lend its bytes
// to another. One URL named twice with one integrity is one download.
TEST_F(StoreFetch, EachUrlIsDownloadedOnce) {
  pin("a", "tarball a", "tarball a");
  pin("b", "tarball a", "tarball a");
  list_.tarballs.push_back(list_.tarballs[0]);
  auto r = fetch_into_store(list_, *store_, net_, options_);
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ(net_.items, 2u);
  EXPECT_EQ(r->misses, 2u);
}

// pnpm's file: registry in the view: the same verified bytes at a registry path, and never a
// path that leaves the view.
TEST_F(StoreFetch, TheViewPlacesATarballAtItsRegistryPathOnly) {
  pin("a", "tarball a", "tarball a");
  ASSERT_TRUE(fetch_into_store(list_, *store_, net_, options_));
  const std::string view = dir_ / "view";
  ASSERT_TRUE(store_->link_as(list_.tarballs[0].sha512, view, "registry/@s/a/-/a-1.0.0.tgz"));
  std::ifstream in(view + "/registry/@s/a/-/a-1.0.0.tgz");
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(), "tarball a");
  for (const char* hostile : {"registry/../../escape.tgz", "/etc/x.tgz", "registry/./a.tgz"}) {
    auto placed = store_->link_as(list_.tarballs[0].sha512, view, hostile);
    ASSERT_FALSE(placed) << hostile;
    EXPECT_EQ(placed.error().rule, "dependency-store");
  }
  EXPECT_FALSE(fs::exists(dir_ / "escape.tgz"));
}

}  // namespace
}  // namespace reviewer::deps
