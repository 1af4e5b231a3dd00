// The package managers a review fetches: the pnpm each setup step pins, and the release
// package.json's packageManager names, for corepack's cache (any step may run corepack). The
// corepack-only pin is soft: its failure is reported, not refused (deps/dependencies.cpp).
#include <gtest/gtest.h>

#include "core/deps/dependencies.h"
#include "core/deps/fetch_phase.h"
#include "tests/support/temp_dir.h"

namespace reviewer::deps {
namespace {

resolve::Declaration package_manager(const std::string& tool, const std::string& value) {
  resolve::Declaration d;
  d.tool = tool;
  d.value = value;
  d.source = "package.json packageManager";
  d.constrains = false;
  return d;
}

plan::Plan pinning(const std::vector<std::string>& pnpm_versions) {
  plan::Plan plan;
  for (const auto& v : pnpm_versions) {
    plan.pins.push_back({"pnpm", v, {".github/workflows/ci.yml", 12, 9}});
  }
  return plan;
}

TEST(PackageManagerPins, PackageManagersReleaseIsPinnedForCorepackAlone) {
  resolve::Resolution r;
  r.declarations.push_back(package_manager("pnpm", "10.33.0+sha512.abc"));
  const auto pins = package_manager_pins(pinning({}), r);
  ASSERT_EQ(pins.size(), 1U);
  EXPECT_EQ(pins[0].name, "pnpm");
  EXPECT_EQ(pins[0].version, "10.33.0");
  EXPECT_EQ(pins[0].declared, "pnpm@10.33.0+sha512.abc");
  EXPECT_EQ(pins[0].what, "corepack (package.json packageManager)");
  EXPECT_TRUE(pins[0].corepack);
  EXPECT_TRUE(pins[0].corepack_only);
}

TEST(PackageManagerPins, ASetupStepsPinOfTheSameReleaseServesCorepackToo) {
  resolve::Resolution r;
  r.declarations.push_back(package_manager("pnpm", "10.33.0"));
  const auto pins = package_manager_pins(pinning({"10.33.0", "9.15.9"}), r);
  ASSERT_EQ(pins.size(), 2U);
  EXPECT_EQ(pins[0].version, "10.33.0");
  EXPECT_EQ(pins[0].declared, "pnpm@10.33.0");
  EXPECT_TRUE(pins[0].corepack);
  EXPECT_FALSE(pins[0].corepack_only) << "the step needs it: its failure is a refusal";
  EXPECT_EQ(pins[1].version, "9.15.9");
  EXPECT_EQ(pins[1].declared, "");
  EXPECT_FALSE(pins[1].corepack);
}

TEST(PackageManagerPins, AnotherReleaseThanTheStepsIsPinnedForCorepackBeside) {
  resolve::Resolution r;
  r.declarations.push_back(package_manager("pnpm", "10.33.0"));
  const auto pins = package_manager_pins(pinning({"9.15.9"}), r);
  ASSERT_EQ(pins.size(), 2U);
  EXPECT_FALSE(pins[0].corepack);
  EXPECT_EQ(pins[1].version, "10.33.0");
  EXPECT_TRUE(pins[1].corepack_only);
}

TEST(PackageManagerPins, YarnOneIsPinnedForCorepackBerryAndNpmAreNot) {
  resolve::Resolution yarn1;
  yarn1.declarations.push_back(package_manager("yarn", "1.22.19+sha1.abc"));
  const auto pins = package_manager_pins(pinning({}), yarn1);
  ASSERT_EQ(pins.size(), 1U);
  EXPECT_EQ(pins[0].name, "yarn");
  EXPECT_EQ(pins[0].version, "1.22.19");
  EXPECT_EQ(pins[0].declared, "yarn@1.22.19+sha1.abc");
  // yarn 2 and later too (from @yarnpkg/cli-dist, deps/package_manager.h); npm is the image's own.
  resolve::Resolution berry;
  berry.declarations.push_back(package_manager("yarn", "4.5.0"));
  const auto berry_pins = package_manager_pins(pinning({}), berry);
  ASSERT_EQ(berry_pins.size(), 1U);
  EXPECT_EQ(berry_pins[0].version, "4.5.0");
  EXPECT_TRUE(berry_pins[0].corepack_only);
  resolve::Resolution npm;
  npm.declarations.push_back(package_manager("npm", "10.9.0"));
  EXPECT_TRUE(package_manager_pins(pinning({}), npm).empty());
  // Another declaration of pnpm (engines) is not packageManager.
  resolve::Resolution engines;
  engines.declarations.push_back(package_manager("pnpm", "10.33.0"));
  engines.declarations.back().source = "package.json engines.pnpm";
  EXPECT_TRUE(package_manager_pins(pinning({}), engines).empty());
}

// A release that cannot be served (here a hash the review cannot check, decided before any
// download): for corepack alone the review says so and goes on; for a setup step it is refused.
TEST(PackageManagerPins, ACorepackOnlyReleaseThatCannotBeServedIsReportedNotRefused) {
  test_support::TempDir store;
  deps::PackageManagerPin pin{"pnpm",
                              "10.33.0",
                              "pnpm@10.33.0+md5.0123456789abcdef0123456789abcdef",
                              "corepack (package.json "
                              "packageManager)",
                              true,
                              true};
  Dependencies deps;
  ::testing::internal::CaptureStdout();
  auto soft = fetch_package_managers({pin}, store.path(), {}, deps);
  const std::string said = ::testing::internal::GetCapturedStdout();
  ASSERT_TRUE(soft) << soft.error().message;
  EXPECT_TRUE(deps.package_managers.empty());
  EXPECT_EQ(said.rfind("review: package manager: pnpm 10.33.0 for corepack (package.json "
                       "packageManager) not provided: package-manager-hash-unsupported: ",
                       0),
            0U)
      << said;
  EXPECT_NE(said.find("; a step that runs it through corepack fails offline\n"), std::string::npos);
  pin.corepack_only = false;
  auto hard = fetch_package_managers({pin}, store.path(), {}, deps);
  ASSERT_FALSE(hard);
  EXPECT_EQ(hard.error().rule, "package-manager-hash-unsupported");
}

}  // namespace
}  // namespace reviewer::deps
