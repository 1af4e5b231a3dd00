// corepack's cache for each job, filled from the view's list of packageManager releases, each in
// the folder and with the `.corepack` record corepack itself writes; every line the list should
// not hold is named.
// (The real corepack reusing that cache offline: tests/image/fetch_image_test.cpp.)
#include "core/deps/provision/corepack_cache_seed.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/contract/view_layout.h"
#include "tests/support/npm_tarball.h"
#include "tests/support/temp_dir.h"

namespace reviewer::deps {
namespace {

namespace fs = std::filesystem;

const std::string kPnpm = "package-managers/pnpm-10.33.0.tgz";
const std::string kHash = "sha512." + std::string(128, 'a');

using test_support::pack_npm_tarball;

std::string read(const std::string& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), {}};
}

TEST(CorepackCacheSeed, SeedsEachReleaseWithTheRecordCorepackWrites) {
  test_support::TempDir view;
  test_support::TempDir cache;
  pack_npm_tarball(view, kPnpm, {"bin/pnpm.cjs", "bin/pnpx.cjs", "dist/pnpm.cjs", "package.json"});
  pack_npm_tarball(view, "package-managers/yarn-1.22.19.tgz",
                   {"bin/yarn.js", "lib/cli.js", "package.json"});
  view.write(std::string(contract::kCorepackList),
             "pnpm\t10.33.0\t10.33.0+sha512.abc\t" + kPnpm + "\t" + kHash +
                 "\nyarn\t1.22.19\t1.22.19\tpackage-managers/yarn-1.22.19.tgz\tsha224." +
                 std::string(56, '0') + "\n");
  auto seeded = seed_corepack_cache(view.path(), cache.path() + "/node/corepack");
  ASSERT_TRUE(seeded) << seeded.error().message;
  EXPECT_EQ(*seeded, (std::vector<std::string>{"pnpm@10.33.0", "yarn@1.22.19"}));
  const std::string pnpm = cache.path() + "/node/corepack/v1/pnpm/10.33.0";
  EXPECT_TRUE(fs::is_regular_file(pnpm + "/bin/pnpm.cjs"));
  EXPECT_TRUE(fs::is_regular_file(pnpm + "/dist/pnpm.cjs"));
  EXPECT_EQ(read(pnpm + "/.corepack"),
            R"({"bin":{"pnpm":"./bin/pnpm.cjs","pnpx":"./bin/pnpx.cjs"},"hash":")" + kHash +
                R"(","locator":{"name":"pnpm","reference":"10.33.0+sha512.abc"}})");
  EXPECT_EQ(read(cache.path() + "/node/corepack/v1/yarn/1.22.19/.corepack"),
            R"({"bin":{"yarn":"./bin/yarn.js","yarnpkg":"./bin/yarn.js"},"hash":"sha224.)" +
                std::string(56, '0') + R"(","locator":{"name":"yarn","reference":"1.22.19"}})");
}

TEST(CorepackCacheSeed, PnpmsEntryFilesFollowCorepacksRanges) {
  test_support::TempDir view;
  test_support::TempDir cache;
  pack_npm_tarball(view, "package-managers/pnpm-5.18.10.tgz", {"bin/pnpm.js", "bin/pnpx.js"});
  pack_npm_tarball(view, "package-managers/pnpm-11.1.2.tgz", {"bin/pnpm.mjs", "bin/pnpx.mjs"});
  view.write(std::string(contract::kCorepackList),
             "pnpm\t5.18.10\t5.18.10\tpackage-managers/pnpm-5.18.10.tgz\t" + kHash +
                 "\npnpm\t11.1.2\t11.1.2\tpackage-managers/pnpm-11.1.2.tgz\t" + kHash + "\n");
  auto seeded = seed_corepack_cache(view.path(), cache.path());
  ASSERT_TRUE(seeded) << seeded.error().message;
  EXPECT_NE(read(cache.path() + "/v1/pnpm/5.18.10/.corepack").find(R"("pnpm":"./bin/pnpm.js")"),
            std::string::npos);
  EXPECT_NE(read(cache.path() + "/v1/pnpm/11.1.2/.corepack").find(R"("pnpm":"./bin/pnpm.mjs")"),
            std::string::npos);
}

// yarn 2 and later: @yarnpkg/cli-dist's bin/yarn.js kept as `yarn.js`, the one file corepack
// runs, its digest taken here (the list names the algorithm alone) or held to packageManager's.
TEST(CorepackCacheSeed, Yarn2AndLaterIsTheOneFileCorepackKeepsHeldToPackageManagersHash) {
  const std::string sha512 =
      "57c4615264f5b2913176e2e562b2b06109f2833141a1796680fba9a01cee9290034e306ec26f00b1985e798405f"
      "1b13b911a3ba0d70af20bd89eeb3db122602b";  // of "// bin/yarn.js\n"
  const std::string sha224 = "8fdb8ed426c0df613e894bfe9a7927ba176e9f7fbb54c6d4c2dce6c5";
  test_support::TempDir view;
  pack_npm_tarball(view, "package-managers/yarn-4.18.1.tgz", {"bin/yarn.js", "package.json"});
  const std::string head = "yarn\t4.18.1\t";
  const std::string tarball = "\tpackage-managers/yarn-4.18.1.tgz\t";
  {
    test_support::TempDir cache;
    view.write(std::string(contract::kCorepackList), head + "4.18.1" + tarball + "sha512\n");
    auto seeded = seed_corepack_cache(view.path(), cache.path());
    ASSERT_TRUE(seeded) << seeded.error().message;
    EXPECT_EQ(*seeded, (std::vector<std::string>{"yarn@4.18.1"}));
    const std::string folder = cache.path() + "/v1/yarn/4.18.1";
    EXPECT_EQ(read(folder + "/yarn.js"), "// bin/yarn.js\n");
    EXPECT_EQ(read(folder + "/.corepack"),
              R"({"bin":["yarn","yarnpkg"],"hash":"sha512.)" + sha512 +
                  R"(","locator":{"name":"yarn","reference":"4.18.1"}})");
  }
  {
    test_support::TempDir cache;
    view.write(std::string(contract::kCorepackList),
               head + "4.18.1+sha224." + sha224 + tarball + "sha224." + sha224 + "\n");
    auto seeded = seed_corepack_cache(view.path(), cache.path());
    ASSERT_TRUE(seeded) << seeded.error().message;
    EXPECT_NE(read(cache.path() + "/v1/yarn/4.18.1/.corepack").find("\"hash\":\"sha224." + sha224),
              std::string::npos);
  }
  {
    // Another release than packageManager pins: corepack on CI fails with "Mismatch hashes".
    test_support::TempDir cache;
    const std::string other = std::string(56, 'b');
    view.write(std::string(contract::kCorepackList),
               head + "4.18.1+sha224." + other + tarball + "sha224." + other + "\n");
    auto seeded = seed_corepack_cache(view.path(), cache.path());
    ASSERT_FALSE(seeded);
    EXPECT_EQ(seeded.error().rule, "dependency-unpack");
    EXPECT_EQ(seeded.error().message,
              "package.json packageManager pins the sha224 of yarn@4.18.1's yarn.js as " + other +
                  ", but the registry's release has " + sha224 +
                  " (corepack fails with \"Mismatch hashes\")");
    EXPECT_FALSE(fs::exists(cache.path() + "/v1/yarn/4.18.1/.corepack"));
  }
  {
    test_support::TempDir cache;
    pack_npm_tarball(view, "package-managers/yarn-4.18.1.tgz", {"package.json"});
    view.write(std::string(contract::kCorepackList), head + "4.18.1" + tarball + "sha512\n");
    auto seeded = seed_corepack_cache(view.path(), cache.path());
    ASSERT_FALSE(seeded);
    EXPECT_EQ(seeded.error().message,
              "yarn@4.18.1 holds no bin/yarn.js; corepack's cache does not get it");
  }
}

TEST(CorepackCacheSeed, NoListSeedsNothing) {
  test_support::TempDir view;
  test_support::TempDir cache;
  auto seeded = seed_corepack_cache(view.path(), cache.path() + "/c");
  ASSERT_TRUE(seeded);
  EXPECT_TRUE(seeded->empty());
  EXPECT_FALSE(fs::exists(cache.path() + "/c"));
}

// Each line a list should not hold, as a tampered view would: named, and nothing is seeded
// outside the cache.
TEST(CorepackCacheSeed, EveryLineThatIsNotAReleaseIsNamed) {
  test_support::TempDir view;
  pack_npm_tarball(view, kPnpm, {"bin/pnpm.cjs", "bin/pnpx.cjs"});
  pack_npm_tarball(view, "package-managers/yarn-4.5.0.tgz", {"bin/yarn.js"});
  const std::string ok = "pnpm\t10.33.0\t10.33.0\t" + kPnpm + "\t" + kHash;
  const std::vector<std::string> bad = {
      "pnpm\t10.33.0\t10.33.0\t" + kPnpm,                                    // four fields
      "npm\t10.33.0\t10.33.0\t" + kPnpm + "\t" + kHash,                      // not pnpm or yarn
      "pnpm\t10.33.0\t10.33.0\t" + kPnpm + "\tsha512",                       // bare: yarn 2+ only
      "pnpm\t../../x\t../../x\t" + kPnpm + "\t" + kHash,                     // a path as version
      "pnpm\t10.33\t10.33\t" + kPnpm + "\t" + kHash,                         // not exact
      "pnpm\t10.33.0\t10.33.1\t" + kPnpm + "\t" + kHash,                     // another reference
      "pnpm\t10.33.0\t10.33.0\t../" + kPnpm + "\t" + kHash,                  // leaves the view
      "pnpm\t10.33.0\t10.33.0\t/etc/passwd\t" + kHash,                       // absolute
      "pnpm\t10.33.0\t10.33.0\t" + kPnpm + "\tmd5." + std::string(32, 'a'),  // unknown digest
      "pnpm\t10.33.0\t10.33.0\t" + kPnpm + "\tsha512.ABC",                   // not lower hex
      "pnpm\t10.33.0\t10.33.0\t" + kPnpm + "\tsha512.",                      // no digest
  };
  for (const auto& line : bad) {
    test_support::TempDir cache;
    view.write(std::string(contract::kCorepackList), ok + "\n" + line + "\n");
    auto seeded = seed_corepack_cache(view.path(), cache.path());
    ASSERT_FALSE(seeded) << line;
    EXPECT_EQ(seeded.error().rule, "dependency-unpack");
    EXPECT_EQ(seeded.error().message,
              "the line \"" + line +
                  "\" of corepack.list is not a name, version, reference, tarball path and hash");
    EXPECT_FALSE(fs::exists(cache.path() + "/v1/pnpm/x"));
  }
}

TEST(CorepackCacheSeed, AReleaseWithoutItsEntryFileOrThatTarCannotReadIsNamed) {
  test_support::TempDir view;
  test_support::TempDir cache;
  pack_npm_tarball(view, kPnpm, {"bin/pnpm.cjs", "README.md"});
  view.write(std::string(contract::kCorepackList),
             "pnpm\t10.33.0\t10.33.0\t" + kPnpm + "\t" + kHash + "\n");
  auto missing = seed_corepack_cache(view.path(), cache.path());
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().rule, "dependency-unpack");
  EXPECT_EQ(missing.error().message,
            "pnpm@10.33.0 holds no bin/pnpx.cjs; corepack's cache does not get it");
  view.write(kPnpm, "not gzip");
  auto broken = seed_corepack_cache(view.path(), cache.path() + "/2");
  ASSERT_FALSE(broken);
  EXPECT_EQ(broken.error().message.rfind(
                "cannot unpack pnpm@10.33.0 (corepack's cache) into " + cache.path() + "/2", 0),
            0u)
      << broken.error().message;
}

}  // namespace
}  // namespace reviewer::deps
