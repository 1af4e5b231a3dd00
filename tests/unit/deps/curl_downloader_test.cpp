// The host's curl downloads against a server of the test's own on 127.0.0.1: what a review writes
// to the host's disk stays within --max-dependency-bytes, every transfer of every batch
// together, whether the registry sends a Content-Length or not; a lock that names one tarball
// with two integrities is refused before anything is downloaded, and a tarball named twice is
// downloaded once.
#include "core/deps/curl_downloader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <thread>

#include "core/deps/fetch.h"
#include "core/deps/integrity.h"
#include "tests/support/temp_dir.h"
#include "tests/unit/deps/local_http_server.h"

namespace reviewer::deps {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr std::uint64_t kMiB = 1 << 20;
// What the host may hold beyond the bound: one read of a body. The control writes none of it,
// the slack is for the test's sampling.
constexpr std::uint64_t kSlack = 65536;
constexpr const char* kTarball = "/ms/-/ms-2.1.3.tgz";

// "/size/N..." answers N bytes with a Content-Length, "/chunked/N..." N bytes without one,
// kTarball kTarballBytes, anything else a 404.
const std::string kTarballBytes(3000, 't');
test_support::HttpAnswer answer(const std::string& path) {
  if (auto sized = test_support::sized_answer(path)) {
    return *sized;
  }
  if (path == kTarball || path == "/big/-/big-1.0.0.tgz") {
    return {200, path == kTarball ? kTarballBytes.size() : kMiB, false, 't'};
  }
  return {404, 9, false, 'n'};
}

// The largest number of bytes the regular files below `dir` held at once while it ran,
// sampled as fast as the host allows.
class DiskPeak {
 public:
  explicit DiskPeak(std::string dir)
      : dir_(std::move(dir)), thread_([this] {
          while (!stop_) {
            const std::uint64_t now = bytes_below(dir_);
            peak_ = std::max<std::uint64_t>(peak_, now);
            std::this_thread::sleep_for(std::chrono::microseconds(100));
          }
        }) {}
  ~DiskPeak() { stop(); }
  std::uint64_t stop() {
    stop_ = true;
    if (thread_.joinable()) {
      thread_.join();
    }
    return peak_;
  }
  static std::uint64_t bytes_below(const std::string& dir) {
    std::uint64_t total = 0;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(dir, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      std::error_code size_ec;
      if (it->is_regular_file(size_ec)) {
        const auto size = it->file_size(size_ec);
        total += size_ec ? 0 : size;
      }
    }
    return total;
  }

 private:
  std::string dir_;
  std::atomic<bool> stop_{false};
  std::atomic<std::uint64_t> peak_{0};
  std::thread thread_;
};

class CurlDownloads : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(server_.listening());
    fs::create_directory(dir_ / "dl");
  }
  // Items for `paths` of the server, written to dl/0.tgz, dl/1.tgz, ...
  std::vector<deps::Download> items(const std::vector<std::string>& paths,
                                    const std::string& prefix = "") {
    std::vector<deps::Download> out;
    for (const auto& p : paths) {
      out.push_back({server_.url() + p.substr(1),
                     dir_ / ("dl/" + prefix + std::to_string(out.size()) + ".tgz")});
    }
    return out;
  }
  test_support::LocalHttpServer server_{answer};
  test_support::TempDir dir_;
};

// The issue's first attack: one registry URL, named by forty lock entries, was downloaded forty
// times, each under the bound: 40 MiB written under a 2,000,000-byte bound.
TEST_F(CurlDownloads, ManyTransfersTogetherStopAtTheReviewsBoundNotEachAtIt) {
  auto meter = std::make_shared<deps::DownloadMeter>(2'000'000);
  auto downloader = make_curl_downloader_for_test(meter);
  const auto list = items(std::vector<std::string>(40, "/size/1048576"));
  DiskPeak peak(dir_.path());
  auto r = downloader->download(list, 2'000'000);
  const std::uint64_t most = peak.stop();
  std::cout << "forty 1 MiB transfers under a 2,000,000-byte bound: at most " << most
            << " bytes on disk, " << DiskPeak::bytes_below(dir_.path()) << " left\n";
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().rule, "dependency-too-large");
  EXPECT_THAT(r.error().message, StartsWith("the review's downloads wrote "));
  EXPECT_THAT(r.error().message,
              HasSubstr(" had more to come, over the 2000000-byte bound on what one review "
                        "writes to the host's disk (--max-dependency-bytes); the transfers under "
                        "way were stopped and their files removed"));
  EXPECT_LE(meter->written(), 2'000'000u);
  EXPECT_LE(most, 2'000'000u + kSlack);
  for (const auto& item : list) {
    EXPECT_FALSE(fs::exists(item.file)) << item.file;
  }
}

// The issue's second attack: an answer without a Content-Length passes curl's --max-filesize:
// 64 MiB written under a 1,000,000-byte bound.
TEST_F(CurlDownloads, AChunkedAnswerWithoutContentLengthStopsAtTheBound) {
  auto meter = std::make_shared<deps::DownloadMeter>(1'000'000);
  auto downloader = make_curl_downloader_for_test(meter);
  const auto list = items({"/chunked/" + std::to_string(64 * kMiB)});
  DiskPeak peak(dir_.path());
  auto r = downloader->download(list, 1'000'000);
  const std::uint64_t most = peak.stop();
  std::cout << "a 64 MiB chunked answer under a 1,000,000-byte bound: at most " << most
            << " bytes on disk, " << DiskPeak::bytes_below(dir_.path()) << " left\n";
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().rule, "dependency-too-large");
  EXPECT_EQ(r.error().message, list[0].url +
                                   " is over the 1000000 bytes left of the bound "
                                   "(--max-dependency-bytes); the transfers under way were "
                                   "stopped and their files removed");
  EXPECT_LE(most, 1'000'000u + kSlack);
  EXPECT_FALSE(fs::exists(list[0].file));
}

TEST_F(CurlDownloads, EachBatchOfAReviewCountsAgainstTheSameBound) {
  auto meter = std::make_shared<deps::DownloadMeter>(2'000'000);
  auto first = make_curl_downloader_for_test(meter);
  auto second = make_curl_downloader_for_test(meter);  // another phase of the same review
  ASSERT_TRUE(first->download(items({"/size/1500000"}, "a"), 2'000'000));
  DiskPeak peak(dir_.path());
  const auto list = items({"/chunked/1500000"}, "b");
  auto r = second->download(list, 2'000'000);
  const std::uint64_t most = peak.stop();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().rule, "dependency-too-large");
  EXPECT_THAT(r.error().message, HasSubstr("over the 2000000-byte bound"));
  EXPECT_LE(most, 2'000'000u + kSlack);
  EXPECT_FALSE(fs::exists(list[0].file));
  EXPECT_GT(meter->written(), 1'500'000u);  // the second batch wrote until the bound
  EXPECT_LE(meter->written(), 2'000'000u);
}

TEST_F(CurlDownloads, DownloadsWithinTheBoundAndNamesWhatTheRegistryRefuses) {
  auto meter = std::make_shared<deps::DownloadMeter>(10 * kMiB);
  auto downloader = make_curl_downloader_for_test(meter);
  const auto good = items({"/size/100", "/chunked/70000", "/size/0"});
  ASSERT_TRUE(downloader->download(good, kMiB));
  EXPECT_EQ(fs::file_size(good[0].file), 100u);
  EXPECT_EQ(fs::file_size(good[1].file), 70000u);
  EXPECT_EQ(fs::file_size(good[2].file), 0u);
  EXPECT_EQ(meter->written(), 70100u);

  const auto bad = items({"/size/10", "/missing"}, "m");
  auto r = downloader->download(bad, kMiB);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().rule, "dependency-fetch-failed");
  EXPECT_THAT(r.error().message, HasSubstr("1 not downloaded: " + bad[1].url + " (HTTP 404)"));

  auto found = downloader->download_document({server_.url() + "size/20", dir_ / "doc.json"}, 100);
  ASSERT_TRUE(found);
  EXPECT_TRUE(*found);
  EXPECT_EQ(fs::file_size(dir_ / "doc.json"), 20u);
  auto missing = downloader->download_document({server_.url() + "nope", dir_ / "nope.json"}, 100);
  ASSERT_TRUE(missing);
  EXPECT_FALSE(*missing);
}

TEST_F(CurlDownloads, ADocumentWithoutContentLengthStopsAtItsBound) {
  auto downloader = make_curl_downloader_for_test(nullptr);
  auto chunked = downloader->download_document(
      {server_.url() + "chunked/" + std::to_string(8 * kMiB), dir_ / "big.json"}, 100000);
  ASSERT_FALSE(chunked);
  EXPECT_EQ(chunked.error().rule, "dependency-too-large");
  EXPECT_FALSE(fs::exists(dir_ / "big.json"));
}

// A lock's tarballs through the whole fetch (plan_fetch, then fetch_into_store with the host's
// curl), the registry's URLs pointed at the test's server.
class LockDownloads : public CurlDownloads {
 protected:
  // package.json wanting ms, and a lock of `entries` (key -> integrity), every one resolved to
  // the registry's `tarball` ("ms/-/ms-2.1.3.tgz").
  util::Result<deps::FetchReport> fetch_lock(
      const std::vector<std::pair<std::string, std::string>>& entries,
      const std::string& tarball = std::string(kTarball).substr(1)) {
    fs::create_directory(dir_ / "work");
    std::ofstream(dir_ / "work/package.json") << R"({"dependencies": {"ms": "2.1.3"}})";
    std::string lock =
        R"({"lockfileVersion": 3, "packages": {"": {"dependencies": {"ms": "2.1.3"}})";
    for (const auto& [key, integrity] : entries) {
      lock += ",\n\"" + key + R"(": {"version": "2.1.3", "resolved": ")" +
              std::string(deps::kDefaultRegistry) + tarball + "\", \"integrity\": \"" + integrity +
              "\"}";
    }
    std::ofstream(dir_ / "work/package-lock.json") << lock << "}}";
    deps::FetchOptions options;
    options.max_total_bytes = 2'000'000;
    options.meter = std::make_shared<deps::DownloadMeter>(options.max_total_bytes);
    auto list = deps::plan_fetch(dir_ / "work", options);
    if (!list) {
      return list.refusals();
    }
    for (auto& t : (*list)->tarballs) {
      t.url = server_.url() + t.url.substr(std::string(deps::kDefaultRegistry).size());
    }
    list_ = std::move(**list);
    auto store = deps::Store::open(dir_ / "store");
    if (!store) {
      return store.refusals();
    }
    auto downloader = make_curl_downloader_for_test(options.meter);
    return deps::fetch_into_store(list_, *store, *downloader, options);
  }
  std::string integrity_of(const std::string& bytes) {
    std::ofstream(dir_ / "bytes", std::ios::binary) << bytes;
    return deps::integrity_of_hex(*deps::sha512_file(dir_ / "bytes"));
  }
  // A well-formed integrity no bytes have: the attack's.
  static std::string fake_integrity(int i) {
    char hex[129];
    std::snprintf(hex, sizeof hex, "%0128x", i + 1);
    return deps::integrity_of_hex(hex);
  }
  deps::FetchList list_;
};

TEST_F(LockDownloads, OneTarballNamedWithManyIntegritiesIsRefusedBeforeAnyDownload) {
  std::vector<std::pair<std::string, std::string>> entries{{"node_modules/ms", fake_integrity(0)}};
  for (int i = 1; i < 40; ++i) {
    entries.push_back(
        {"node_modules/p" + std::to_string(i) + "/node_modules/ms", fake_integrity(i)});
  }
  DiskPeak peak(dir_.path());
  auto r = fetch_lock(entries, "big/-/big-1.0.0.tgz");  // 1 MiB
  const std::uint64_t most = peak.stop();
  std::cout << "forty integrities naming one 1 MiB tarball under a 2,000,000-byte bound: at most "
            << most << " bytes on disk, " << server_.hits("/big/-/big-1.0.0.tgz") << " downloads\n";
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().rule, "dependency-integrity-conflict");
  EXPECT_EQ(r.error().message,
            "package-lock.json: \"node_modules/p1/node_modules/ms\" pins " + list_.tarballs[1].url +
                " with integrity " + fake_integrity(1) +
                ", but package-lock.json: \"node_modules/ms\" pins the same tarball with " +
                fake_integrity(0) +
                "; a tarball has one integrity, and the review downloads it once; accepted: the "
                "integrity the registry publishes for it, in every entry that names it "
                "(regenerate the lock file)");
  EXPECT_EQ(r.refusals().size(), 39u) << "each conflicting entry is named";
  EXPECT_EQ(server_.hits("/big/-/big-1.0.0.tgz"), 0);
  EXPECT_LE(most, 2'000'000u + kSlack);
}

TEST_F(LockDownloads, ATarballNamedTwiceWithOneIntegrityIsDownloadedOnce) {
  const std::string integrity = integrity_of(kTarballBytes);
  auto r =
      fetch_lock({{"node_modules/ms", integrity}, {"node_modules/a/node_modules/ms", integrity}});
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ(server_.hits(kTarball), 1);
  EXPECT_EQ(r->bytes_fetched, kTarballBytes.size());
}

// A list that names one URL twice with one integrity (two phases' lists joined) still fetches it
// once.
TEST_F(LockDownloads, AListNamingOneUrlTwiceFetchesItOnce) {
  const std::string integrity = integrity_of(kTarballBytes);
  auto store = deps::Store::open(dir_ / "store");
  ASSERT_TRUE(store);
  deps::FetchList list;
  const std::string url = server_.url() + std::string(kTarball).substr(1);
  const std::string hex = *deps::sha512_of_integrity(integrity, "");
  list.tarballs.push_back({"package-lock.json: \"node_modules/ms\"", url, hex, "", ""});
  list.tarballs.push_back({"pnpm-lock.yaml: \"ms@2.1.3\"", url, hex, "ms/-/ms-2.1.3.tgz", ""});
  deps::FetchOptions options;
  auto downloader = make_curl_downloader_for_test(nullptr);
  auto r = deps::fetch_into_store(list, *store, *downloader, options);
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ(server_.hits(kTarball), 1);
  EXPECT_EQ(r->misses, 1u);
  EXPECT_EQ(r->bytes_fetched, kTarballBytes.size());
}

}  // namespace
}  // namespace reviewer::deps
