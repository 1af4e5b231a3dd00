// pick_release: pnpm's choice of a release for a range, from hostile metadata.
#include "core/deps/release_pick.h"

#include <gtest/gtest.h>

namespace reviewer::deps {
namespace {

std::string doc(const std::string& latest, const std::string& versions) {
  return R"({"name": "pnpm", "dist-tags": {"latest": ")" + latest + R"("}, "versions": {)" +
         versions + "}}";
}

std::string pick(const std::string& packument, const std::string& range) {
  auto wanted = semver::Range::parse(range, {true, false});
  EXPECT_TRUE(wanted) << range;
  auto r = pick_release(packument, "pnpm", *wanted, range, "a step");
  return r ? *r : "refused " + r.error().rule;
}

const std::string kVersions =
    R"("10.33.0": {}, "11.0.0-rc.1": {}, "11.7.0": {}, "11.28.11": {}, "12.1.0": {})";

TEST(ReleasePick, LatestWhenItSatisfiesElseTheHighestSatisfying) {
  EXPECT_EQ(pick(doc("12.1.0", kVersions), "11"), "11.28.11");
  EXPECT_EQ(pick(doc("11.7.0", kVersions), "11"), "11.7.0");  // latest wins over a higher one
  EXPECT_EQ(pick(doc("12.1.0", kVersions), "*"), "12.1.0");
  EXPECT_EQ(pick(doc("12.1.0", kVersions), "^11.7.0"), "11.28.11");
  EXPECT_EQ(pick(doc("12.1.0", kVersions), "11.x"), "11.28.11");
  EXPECT_EQ(pick(doc("12.1.0", kVersions), "10.33.0"), "10.33.0");
  EXPECT_EQ(pick(doc("12.1.0", kVersions), ">=10 <11"), "10.33.0");
  // A prerelease satisfies only a range naming one of its tuple.
  EXPECT_EQ(pick(doc("12.1.0", kVersions), "11.0.0-rc.1"), "11.0.0-rc.1");
  EXPECT_EQ(pick(doc("12.1.0", R"("11.0.0-rc.1": {})"), "11"),
            "refused package-manager-version-missing");
}

TEST(ReleasePick, DeprecatedReleasesAreTakenOnlyWhenNothingElseSatisfies) {
  const std::string deprecated =
      R"("11.7.0": {}, "11.28.11": {"deprecated": "broken"}, "12.1.0": {"deprecated": "x"})";
  EXPECT_EQ(pick(doc("12.1.0", deprecated), "11"), "11.7.0");
  EXPECT_EQ(pick(doc("12.1.0", deprecated), "12"), "12.1.0");
  EXPECT_EQ(pick(doc("11.28.11", deprecated), "11"), "11.7.0");
  EXPECT_EQ(
      pick(doc("11.28.11", R"("11.7.0": {"deprecated": "a"}, "11.28.11": {"deprecated": "b"})"),
           "11"),
      "11.28.11");
  // An empty deprecation message is not a deprecation (npm's `npm deprecate pkg ""` undoes one).
  EXPECT_EQ(pick(doc("12.1.0", R"("11.7.0": {}, "11.28.11": {"deprecated": ""})"), "11"),
            "11.28.11");
}

TEST(ReleasePick, HostileMetadataIsRefusedByName) {
  EXPECT_EQ(pick("not json", "11"), "refused package-manager-metadata-invalid");
  EXPECT_EQ(pick("[]", "11"), "refused package-manager-metadata-invalid");
  EXPECT_EQ(pick(R"({"name": "evil", "versions": {"11.0.0": {}}})", "11"),
            "refused package-manager-metadata-invalid");
  EXPECT_EQ(pick(R"({"name": "pnpm", "versions": []})", "11"),
            "refused package-manager-metadata-invalid");
  // No dist-tags, a latest that is no string, versions that are not versions: read around.
  EXPECT_EQ(pick(R"({"name": "pnpm", "versions": {"11.1.0": 1, "x": {}, "11.2.0": null}})", "11"),
            "11.2.0");
  EXPECT_EQ(
      pick(R"({"name": "pnpm", "dist-tags": {"latest": 7}, "versions": {"11.1.0": {}}})", "11"),
      "11.1.0");
}

}  // namespace
}  // namespace reviewer::deps
