// pnpm itself from the real npm registry through the host's curl: pnpm@10.33.0's tarball verified
// against the registry's integrity and corepack's hash, a second fetch that asks nothing, a
// version the registry does not have, and a packageManager hash that is not the tarball's.
// Skipped, saying why, where the registry cannot be reached.
#include <gtest/gtest.h>

#include <cstdlib>

#include "core/deps/curl_downloader.h"
#include "core/deps/package_manager.h"
#include "tests/support/temp_dir.h"

namespace reviewer::deps {
namespace {

// pnpm@10.33.0's SHA-512 as `corepack use pnpm@10.33.0` writes it into packageManager, the same
// digest as the registry's dist.integrity (checked by hand with sha512sum on the tarball).
constexpr const char* kPnpm1033 =
    "10568bb4a6afb58c9eb3630da90cc9516417abebd3fabbe6739f0ae795728da1491e9db5a544c76ad8eb7570f5c4bb"
    "3d6c637b2cb41bfdcdb47fa823c8649319";

class PackageManagerRegistry : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::system("curl -q -sSfI --max-time 20 -o /dev/null "
                    "https://registry.npmjs.org/pnpm/10.33.0") != 0) {
      GTEST_SKIP() << "the npm registry (https://registry.npmjs.org/) cannot be reached with curl "
                      "from this host";
    }
    auto store = Store::open(dir_ / "store");
    ASSERT_TRUE(store);
    store_.emplace(*store);
  }
  util::Result<FetchedPackageManager> fetch(const std::string& version,
                                            const std::string& declared) {
    auto downloader = deps::make_curl_downloader();
    return fetch_package_manager({"pnpm", version, declared, "pnpm/action-setup at ci.yml:9:7"},
                                 *store_, *downloader, {});
  }
  test_support::TempDir dir_;
  std::optional<Store> store_;
};

TEST_F(PackageManagerRegistry, FetchesRealPnpmVerifiedThenHitsTheStore) {
  const std::string declared = std::string("pnpm@10.33.0+sha512.") + kPnpm1033;
  auto cold = fetch("10.33.0", declared);
  ASSERT_TRUE(cold) << cold.error().to_string();
  EXPECT_FALSE(cold->hit);
  EXPECT_EQ(cold->sha512, kPnpm1033);
  EXPECT_GT(cold->bytes, 1000000u);
  auto warm = fetch("10.33.0", declared);
  ASSERT_TRUE(warm) << warm.error().to_string();
  EXPECT_TRUE(warm->hit);
}

TEST_F(PackageManagerRegistry, AVersionTheRegistryDoesNotHaveIsRefusedByName) {
  auto r = fetch("10.999.0", "");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().rule, "package-manager-version-missing");
  EXPECT_EQ(r.error().message,
            "pnpm/action-setup at ci.yml:9:7 asks for pnpm 10.999.0, which "
            "https://registry.npmjs.org/ does not have (404 for "
            "https://registry.npmjs.org/pnpm/10.999.0); CI's install fails the same way");
}

TEST_F(PackageManagerRegistry, AHashThatIsNotTheTarballsIsRefused) {
  auto r = fetch("10.33.0", "pnpm@10.33.0+sha512." + std::string(128, '0'));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().rule, "package-manager-integrity-mismatch");
}

}  // namespace
}  // namespace reviewer::deps
