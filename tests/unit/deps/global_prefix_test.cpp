// The job's npm global prefix: writable, corepack installed in it as Node's distributions do, so
// `corepack enable` writes its shims there and `npm install -g corepack` replaces it as its own.
// (The real corepack and npm in it: tests/image/fetch_image_test.cpp.)
#include "core/deps/provision/global_prefix.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "tests/support/temp_dir.h"

namespace reviewer::deps {
namespace {

namespace fs = std::filesystem;

TEST(GlobalPrefix, HoldsTheImagesCorepackAsNodeInstallsIt) {
  test_support::TempDir image;
  image.write("corepack/package.json", R"({"name": "corepack", "version": "0.35.0"})");
  image.write("corepack/dist/corepack.js", "require('./lib/corepack.cjs')");
  image.write("corepack/dist/lib/corepack.cjs", "// corepack");
  test_support::TempDir job;
  const std::string prefix = job.path() + "/npm-global";
  auto bin = make_global_prefix(prefix, image.path() + "/corepack/dist/lib/corepack.cjs");
  ASSERT_TRUE(bin) << bin.error().message;
  EXPECT_EQ(*bin, prefix + "/bin");
  // A real folder (npm renames it when `npm install -g corepack` replaces it) of links to the
  // image's entries.
  const std::string folder = prefix + "/lib/node_modules/corepack";
  EXPECT_FALSE(fs::is_symlink(folder));
  EXPECT_EQ(fs::read_symlink(folder + "/dist"), image.path() + "/corepack/dist");
  EXPECT_EQ(fs::read_symlink(folder + "/package.json"), image.path() + "/corepack/package.json");
  EXPECT_EQ(std::distance(fs::directory_iterator(folder), fs::directory_iterator()), 2);
  EXPECT_TRUE(fs::is_regular_file(folder + "/dist/lib/corepack.cjs"));
  EXPECT_EQ(fs::read_symlink(prefix + "/bin/corepack"),
            "../lib/node_modules/corepack/dist/corepack.js");
  EXPECT_TRUE(fs::is_regular_file(prefix + "/bin/corepack"));
  // Nothing else until `corepack enable` or `npm install -g` writes there.
  EXPECT_EQ(std::distance(fs::directory_iterator(*bin), fs::directory_iterator()), 1);
  auto again = make_global_prefix(prefix, image.path() + "/corepack/dist/lib/corepack.cjs");
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().rule, "corepack-setup");
  auto missing = make_global_prefix(job.path() + "/other", "/nonexistent/dist/lib/corepack.cjs");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().rule, "corepack-setup");
}

TEST(GlobalPrefix, WithoutCorepackItIsEmpty) {
  test_support::TempDir job;
  auto bin = make_global_prefix(job.path() + "/p", "");
  ASSERT_TRUE(bin) << bin.error().message;
  EXPECT_TRUE(fs::is_directory(job.path() + "/p/lib/node_modules"));
  EXPECT_TRUE(fs::is_empty(*bin));
}

}  // namespace
}  // namespace reviewer::deps
