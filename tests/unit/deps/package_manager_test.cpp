// fetch_package_manager with a downloader that serves a registry from memory: the version
// document's integrity admits the tarball, corepack's hash is checked too, the store's index makes
// a second fetch ask nothing, and every refusal with its rule id.
#include "core/deps/package_manager.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "core/deps/integrity.h"
#include "tests/support/temp_dir.h"

namespace reviewer::deps {
namespace {

namespace fs = std::filesystem;

constexpr const char* kDoc = "https://registry.npmjs.org/pnpm/10.33.0";
constexpr const char* kTarball = "https://registry.npmjs.org/pnpm/-/pnpm-10.33.0.tgz";

class Registry final : public Downloader {
 public:
  std::map<std::string, std::string> files;  // url -> bytes; absent: 404
  std::vector<std::string> asked;
  util::Status download(const std::vector<Download>& list, std::uint64_t) override {
    for (const auto& d : list) {
      asked.push_back(d.url);
      std::ofstream(d.file, std::ios::binary) << files.at(d.url);
    }
    return util::ok_status();
  }
  util::Result<bool> download_document(const Download& d, std::uint64_t) override {
    asked.push_back(d.url);
    if (!files.count(d.url)) {
      return false;
    }
    std::ofstream(d.file, std::ios::binary) << files.at(d.url);
    return true;
  }
};

class PackageManagerFetch : public ::testing::Test {
 protected:
  void SetUp() override {
    auto store = Store::open(dir_ / "store");
    ASSERT_TRUE(store);
    store_.emplace(*store);
    serve("pnpm tarball bytes");
  }
  std::string hex_of(const std::string& bytes, const std::string& algorithm = "sha512") {
    std::ofstream(dir_ / "h", std::ios::binary | std::ios::trunc) << bytes;
    return *digest_file(dir_ / "h", algorithm);
  }
  // The registry serves `tarball` and a version document naming its integrity (or `integrity`).
  void serve(const std::string& tarball, std::string integrity = "",
             std::string tarball_url = kTarball) {
    if (integrity.empty()) {
      integrity = integrity_of_hex(hex_of(tarball));
    }
    net_.files[kTarball] = tarball;
    net_.files[kDoc] = R"({"name": "pnpm", "version": "10.33.0", "dist": {"tarball": ")" +
                       tarball_url + R"(", "integrity": ")" + integrity + R"("}})";
  }
  util::Result<FetchedPackageManager> fetch(const std::string& declared = "",
                                            const std::string& version = "10.33.0") {
    return fetch_package_manager({"pnpm", version, declared, "pnpm/action-setup at ci.yml:9:7"},
                                 *store_, net_, options_);
  }
  test_support::TempDir dir_;
  std::optional<Store> store_;
  Registry net_;
  FetchOptions options_;
};

TEST_F(PackageManagerFetch, FetchesOnceVerifiedThenAsksNothing) {
  auto cold = fetch();
  ASSERT_TRUE(cold) << cold.error().to_string();
  EXPECT_FALSE(cold->hit);
  EXPECT_EQ(cold->sha512, hex_of("pnpm tarball bytes"));
  EXPECT_EQ(cold->view_path, "package-managers/pnpm-10.33.0.tgz");
  EXPECT_EQ(cold->bytes, 18u);
  EXPECT_EQ(net_.asked, (std::vector<std::string>{kDoc, kTarball}));
  net_.asked.clear();
  auto warm = fetch();
  ASSERT_TRUE(warm);
  EXPECT_TRUE(warm->hit);
  EXPECT_EQ(warm->sha512, cold->sha512);
  EXPECT_TRUE(net_.asked.empty()) << "a second fetch asked the registry";
}

TEST_F(PackageManagerFetch, PackageManagersHashIsCheckedColdAndWarm) {
  const std::string good = "pnpm@10.33.0+sha512." + hex_of("pnpm tarball bytes");
  ASSERT_TRUE(fetch(good));
  ASSERT_TRUE(fetch(good));  // warm
  const std::string wrong = "pnpm@10.33.0+sha512." + std::string(128, '0');
  auto warm = fetch(wrong);
  ASSERT_FALSE(warm);
  EXPECT_EQ(warm.error().rule, "package-manager-integrity-mismatch");
  EXPECT_THAT(warm.error().message, ::testing::HasSubstr("Mismatch hashes"));
}

TEST_F(PackageManagerFetch, AWrongSha512IsRefusedBeforeTheTarballIsDownloaded) {
  auto r = fetch("pnpm@10.33.0+sha512." + std::string(128, 'a'));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().rule, "package-manager-integrity-mismatch");
  EXPECT_EQ(net_.asked, (std::vector<std::string>{kDoc}));
  EXPECT_FALSE(store_->size_of(hex_of("pnpm tarball bytes")));
}

TEST_F(PackageManagerFetch, OtherCorepackAlgorithmsHashTheTarball) {
  ASSERT_TRUE(fetch("pnpm@10.33.0+sha256." + hex_of("pnpm tarball bytes", "sha256")));
  auto r = fetch("pnpm@10.33.0+sha1." + std::string(40, 'f'));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().rule, "package-manager-integrity-mismatch");
}

TEST_F(PackageManagerFetch, Refusals) {
  struct Case {
    std::string declared;
    std::string version;
    std::string rule;
  };
  for (const Case& c : std::vector<Case>{
           {"", "latest", "package-manager-version-not-exact"},
           {"", "next-11", "package-manager-version-not-exact"},
           {"", "10", "package-manager-version-missing"},  // this registry has no packument
           {"", "10.33.0/../../x", "package-manager-version-not-exact"},
           {"pnpm@10.33.0+md5.d41d8cd98f00b204e9800998ecf8427e", "10.33.0",
            "package-manager-hash-unsupported"},
           {"pnpm@10.33.0+sha512.ABC", "10.33.0", "package-manager-hash-unsupported"},
           {"pnpm@10.33.0+sha512", "10.33.0", "package-manager-hash-unsupported"},
           {"", "10.99.0", "package-manager-version-missing"},
       }) {
    auto r = fetch(c.declared, c.version);
    ASSERT_FALSE(r) << c.version << " " << c.declared;
    EXPECT_EQ(r.error().rule, c.rule)
        << c.version << " " << c.declared << ": " << r.error().message;
  }
}

TEST_F(PackageManagerFetch, ARangeIsResolvedFromTheMetadataEachTimeAndItsReleaseFetchedOnce) {
  constexpr const char* kPackument = "https://registry.npmjs.org/pnpm";
  net_.files[kPackument] =
      R"({"name": "pnpm", "dist-tags": {"latest": "11.0.0"},
          "versions": {"9.15.9": {}, "10.33.0": {}, "10.2.0": {}, "11.0.0": {}}})";
  auto cold = fetch("", "10");
  ASSERT_TRUE(cold) << cold.error().to_string();
  EXPECT_EQ(cold->spec, "10");
  EXPECT_EQ(cold->version, "10.33.0");
  EXPECT_EQ(cold->view_path, "package-managers/pnpm-10.33.0.tgz");
  EXPECT_FALSE(cold->hit);
  EXPECT_EQ(net_.asked, (std::vector<std::string>{kPackument, kDoc, kTarball}));
  net_.asked.clear();
  // CI resolves at its own time: the range is read again; the release it names is a hit.
  auto warm = fetch("", "^10.2.0");
  ASSERT_TRUE(warm) << warm.error().to_string();
  EXPECT_EQ(warm->version, "10.33.0");
  EXPECT_TRUE(warm->hit);
  EXPECT_EQ(net_.asked, (std::vector<std::string>{kPackument}));
  auto none = fetch("", "12");
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().rule, "package-manager-version-missing");
  net_.files[kPackument] = R"({"name": "yarn", "versions": {"10.33.0": {}}})";
  auto other = fetch("", "10");
  ASSERT_FALSE(other);
  EXPECT_EQ(other.error().rule, "package-manager-metadata-invalid");
}

// pnpm 11 and later are fetched as any release (the loopback registry serves them the view,
// deps/provision/loopback_registry.h); a range may pick one.
TEST_F(PackageManagerFetch, Pnpm11IsFetchedAsAnyRelease) {
  const std::string tarball = "pnpm 11 tarball bytes";
  net_.files["https://registry.npmjs.org/pnpm/-/pnpm-11.28.11.tgz"] = tarball;
  net_.files["https://registry.npmjs.org/pnpm/11.28.11"] =
      R"({"name": "pnpm", "version": "11.28.11", "dist": {"tarball": )"
      R"("https://registry.npmjs.org/pnpm/-/pnpm-11.28.11.tgz", "integrity": ")" +
      integrity_of_hex(hex_of(tarball)) + R"("}})";
  net_.files["https://registry.npmjs.org/pnpm"] =
      R"({"name": "pnpm", "dist-tags": {"latest": "11.28.11"},
          "versions": {"10.33.0": {}, "11.28.11": {}}})";
  auto range = fetch("", ">=10");
  ASSERT_TRUE(range) << range.error().to_string();
  EXPECT_EQ(range->version, "11.28.11");
  EXPECT_EQ(range->sha512, hex_of(tarball));
  EXPECT_EQ(range->view_path, "package-managers/pnpm-11.28.11.tgz");
}

TEST_F(PackageManagerFetch, ARegistryNamingAnotherTarballIsRefused) {
  serve("pnpm tarball bytes", "", "https://evil.example/pnpm-10.33.0.tgz");
  auto r = fetch();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().rule, "package-manager-metadata-invalid");
  serve("pnpm tarball bytes", "sha1-2jmj7l5rSw0yVb/vlWAYkK/YBwk=");
  r = fetch();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().rule, "package-manager-metadata-invalid");
}

TEST_F(PackageManagerFetch, ATarballThatIsNotTheDocumentsIntegrityNeverEntersTheStore) {
  serve("pnpm tarball bytes", integrity_of_hex(hex_of("other bytes")));
  auto r = fetch();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().rule, "dependency-integrity-mismatch");
  EXPECT_FALSE(store_->size_of(hex_of("pnpm tarball bytes")));
  EXPECT_FALSE(fs::exists(dir_ / "store/package-managers"));
}

// yarn 2 and later for corepack: the registry's @yarnpkg/cli-dist, whose bin/yarn.js corepack
// keeps; packageManager's hash is of that file, so the host passes it on for the launcher to check
// (deps/provision/corepack_cache_seed.h) instead of holding the tarball to it.
TEST_F(PackageManagerFetch, Yarn2AndLaterComeFromCliDistWithTheirHashLeftToTheSandbox) {
  const std::string doc = "https://registry.npmjs.org/@yarnpkg%2fcli-dist/4.18.1";
  const std::string tarball = "https://registry.npmjs.org/@yarnpkg/cli-dist/-/cli-dist-4.18.1.tgz";
  net_.files[tarball] = "cli-dist bytes";
  net_.files[doc] = R"({"name": "@yarnpkg/cli-dist", "version": "4.18.1", "dist": {"tarball": ")" +
                    tarball + R"(", "integrity": ")" + integrity_of_hex(hex_of("cli-dist bytes")) +
                    R"("}})";
  const std::string declared = "yarn@4.18.1+sha224." + std::string(56, 'a');
  auto got = fetch_package_manager({"yarn", "4.18.1", declared, "corepack", true, true}, *store_,
                                   net_, options_);
  ASSERT_TRUE(got) << got.error().to_string();
  EXPECT_EQ(net_.asked, (std::vector<std::string>{doc, tarball}));
  EXPECT_EQ(got->sha512, hex_of("cli-dist bytes"));
  EXPECT_EQ(got->view_path, "package-managers/yarn-4.18.1.tgz");
  EXPECT_EQ(got->corepack_reference, "4.18.1+sha224." + std::string(56, 'a'));
  EXPECT_EQ(got->corepack_hash, "sha224." + std::string(56, 'a'));
  EXPECT_TRUE(single_file_release({"yarn", "4.18.1", "", ""}));
  EXPECT_FALSE(single_file_release({"yarn", "1.22.22", "", ""}));
  EXPECT_FALSE(single_file_release({"pnpm", "10.33.0", "", ""}));
  // Without packageManager's hash, the launcher takes the digest of yarn.js itself.
  net_.asked.clear();
  auto bare = fetch_package_manager({"yarn", "4.18.1", "yarn@4.18.1", "corepack", true, true},
                                    *store_, net_, options_);
  ASSERT_TRUE(bare) << bare.error().to_string();
  EXPECT_TRUE(bare->hit);
  EXPECT_TRUE(net_.asked.empty());
  EXPECT_EQ(bare->corepack_hash, "sha512");
}

}  // namespace
}  // namespace reviewer::deps
