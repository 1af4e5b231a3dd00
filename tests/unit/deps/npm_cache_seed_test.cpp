// Each job gets its own writable npm cache seeded from the host's read-only view: npm writes to
// its cache in some commands (npm pack stages in _cacache/tmp), as it may on CI.
#include "core/deps/provision/npm_cache_seed.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "tests/support/temp_dir.h"

namespace reviewer::deps {
namespace {

namespace fs = std::filesystem;

TEST(NpmCacheSeed, CopiesTheViewIntoAWritableCacheOfTheJob) {
  test_support::TempDir view;
  test_support::TempDir job;
  view.write("_cacache/content-v2/sha512/ab/cd/ef", "tarball");
  view.write("_cacache/index-v5/12/34/entry", "index");
  fs::permissions(view.path() + "/_cacache", fs::perms::owner_read | fs::perms::owner_exec);
  auto seeded = seed_npm_cache(view.path(), job.path());
  fs::permissions(view.path() + "/_cacache", fs::perms::owner_all);
  ASSERT_TRUE(seeded) << seeded.error().message;
  EXPECT_EQ(*seeded, job.path() + "/npm");
  std::ifstream in(*seeded + "/_cacache/content-v2/sha512/ab/cd/ef");
  std::string text((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(text, "tarball");
  // What npm pack does: a temporary directory inside the cache.
  EXPECT_TRUE(fs::create_directory(*seeded + "/_cacache/tmp"));
  EXPECT_EQ(::access((*seeded + "/_cacache/index-v5/12/34/entry").c_str(), W_OK), 0);
}

TEST(NpmCacheSeed, ALinkInTheViewIsRefused) {
  test_support::TempDir view;
  test_support::TempDir job;
  view.write("_cacache/content-v2/x", "tarball");
  fs::create_symlink("/etc/passwd", view.path() + "/_cacache/content-v2/link");
  auto seeded = seed_npm_cache(view.path(), job.path());
  ASSERT_FALSE(seeded);
  EXPECT_EQ(seeded.error().rule, "dependency-cache-seed");
  EXPECT_FALSE(fs::exists(job.path() + "/npm/_cacache/content-v2/link"));
}

}  // namespace
}  // namespace reviewer::deps
