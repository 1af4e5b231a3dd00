// Which registry npm_config_registry names: the view's file: registry, or the loopback for a plan
// that pins pnpm 8 (which cannot use a file: registry); a range counts only when all of it is
// below 9. (pnpm 8.15.9 installing through it: tests/image/fetch_image_test.cpp.)
#include "core/deps/provision/npm_config_registry.h"

#include <gtest/gtest.h>

namespace reviewer::deps {
namespace {

std::vector<plugins::RuntimePin> pnpm(const std::string& version) {
  return {{"node", "22.1.0", {}}, {"pnpm", version, {}}};
}

TEST(NpmConfigRegistry, Pnpm8GetsTheLoopbackAndEverythingElseTheFileRegistry) {
  const std::string file = "file:///var/cache/reviewer-deps/registry/";
  const std::string http = "http://127.0.0.1:40123/";
  for (const char* v : {"8.15.9", "8", "^8.6.0", "7.33.7", "8.x"}) {
    EXPECT_TRUE(pins_pnpm_before_9(pnpm(v))) << v;
    EXPECT_EQ(npm_config_registry(pnpm(v), file, http), http) << v;
  }
  for (const char* v : {"9.15.9", "10.33.0", "11", ">=8", "^8 || ^9", "latest", "not a range"}) {
    EXPECT_FALSE(pins_pnpm_before_9(pnpm(v))) << v;
    EXPECT_EQ(npm_config_registry(pnpm(v), file, http), file) << v;
  }
  EXPECT_FALSE(pins_pnpm_before_9({{"node", "8.17.0", {}}}));
  // No loopback running (it could not start): the file: registry stays, and pnpm 8 fails offline.
  EXPECT_EQ(npm_config_registry(pnpm("8.15.9"), file, ""), file);
  EXPECT_EQ(npm_config_registry(pnpm("8.15.9"), "", ""), "");
}

}  // namespace
}  // namespace reviewer::deps
