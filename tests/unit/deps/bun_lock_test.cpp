// bun.lock (text) through plan_fetch: Bun's JSONC, the tarballs Bun installs here and their
// cache folders, and every hostile lock refused by name with the full message.
#include "core/deps/bun_lock.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

#include "core/deps/fetch.h"
#include "tests/support/temp_dir.h"
#include "tests/unit/deps/lock_plan_fixture.h"

namespace reviewer::deps {
namespace {

using ::testing::ElementsAre;

constexpr const char* kMs =
    "sha512-6FlzubTLZG3J2a/NVCAleEhjzq5oxgHyaCU9yYXvcLsvoVaHJq/s5xXI6/XXP6tz7R9xAOtHnSO/"
    "tXtF3WRTlA==";
constexpr const char* kManifest =
    R"({"name": "app", "dependencies": {"ms": "^2.1.3"}, "devDependencies": {"@s/x": "1.0.0"}})";

// A lock as Bun 1.3 writes it (trailing commas) with `packages` entries added.
std::string lock(const std::string& packages, const std::string& workspaces_extra = "") {
  return R"({
  "lockfileVersion": 1,
  "workspaces": {
    "": {
      "name": "app",
      "dependencies": {
        "ms": "^2.1.3",
      },
      "devDependencies": {
        "@s/x": "1.0.0",
      },
    },)" +
         workspaces_extra +
         R"(
  },
  "packages": {
    "ms": ["ms@2.1.3", "", {}, ")" +
         kMs + R"("],
    "@s/x": ["@s/x@1.0.0", "", { "bin": { "x": "x.js" } }, ")" +
         kMs + R"("],
)" + packages +
         R"(
  }
}
)";
}

class BunPlan : public testing::LockPlan {
 protected:
  BunPlan() : LockPlan("bun.lock", kManifest) {}
};

TEST(BunJsonc, TrailingCommasGoAndStringsStay) {
  EXPECT_EQ(without_trailing_commas("{\"a,}\": [1, 2,\n ],\n}"), "{\"a,}\": [1, 2\n ]\n}");
  EXPECT_EQ(without_trailing_commas("[\"\\\",]\",]"), "[\"\\\",]\"]");
  EXPECT_EQ(without_trailing_commas("[1, // c,]\n]"), "[1, // c,]\n]");
}

// Entries come in key order (nlohmann's objects are sorted), scoped names first.
TEST_F(BunPlan, RegistryPackagesAreTarballsWithTheirCacheFolders) {
  auto r = plan(lock(R"(    "fsevents": ["fsevents@2.3.3", "", { "os": "darwin" }, ")" +
                     std::string(kMs) + "\"],"));
  ASSERT_TRUE(r) << r.error().to_string();
  ASSERT_TRUE(*r);
  EXPECT_EQ((*r)->lock_file, "bun.lock");
  ASSERT_EQ((*r)->tarballs.size(), 2u);
  EXPECT_EQ((*r)->tarballs[1].url, "https://registry.npmjs.org/ms/-/ms-2.1.3.tgz");
  EXPECT_EQ((*r)->tarballs[1].bun_dir, "ms@2.1.3@@@1");
  EXPECT_EQ((*r)->tarballs[0].url, "https://registry.npmjs.org/@s/x/-/x-1.0.0.tgz");
  EXPECT_EQ((*r)->tarballs[0].bun_dir, "@s/x@1.0.0@@@1");
  EXPECT_EQ((*r)->tarballs[0].registry_path, "");
  EXPECT_EQ((*r)->other_platform, 1u);
}

TEST_F(BunPlan, HostileSourcesAreRefusedByName) {
  const std::string accepted =
      "; accepted: a tarball of https://registry.npmjs.org/ with a sha512 integrity";
  EXPECT_THAT(
      refused(lock(R"(    "g": ["g@github:o/g#abc", {}, "o-g-abc"],
    "f": ["f@file:../f", {}],
    "h": ["h@http://example.com/h.tgz", {}],
    "l": ["l@link:../l", {}],
    "r": ["r@1.0.0", "https://evil.example/", {}, ")" +
                   std::string(kMs) + R"("],
    "n": ["n@1.0.0", "", {}, "sha1-abc"],)")),
      ElementsAre(
          "dependency-source-refused: bun.lock pins \"f\" to the file \"file:../f\"" + accepted,
          "dependency-source-refused: bun.lock pins \"g\" to the git source \"github:o/g#abc\"" +
              accepted,
          "dependency-source-refused: bun.lock pins \"h\" to the plain http URL "
          "\"http://example.com/h.tgz\"" +
              accepted,
          "dependency-source-refused: bun.lock pins \"l\" to a link to the folder "
          "\"link:../l\"" +
              accepted,
          ::testing::StartsWith("dependency-integrity-missing: bun.lock: \"n\""),
          "dependency-source-refused: bun.lock pins \"r\" to the foreign host "
          "https://evil.example: \"https://evil.example/r/-/r-1.0.0.tgz\"" +
              accepted));
}

TEST_F(BunPlan, WorkspacesAndOtherVersionsAreRefused) {
  EXPECT_THAT(refused(lock("", R"(
    "packages/a": { "name": "a" },)")),
              ElementsAre("dependency-source-refused: bun.lock has the workspace \"packages/a\"; "
                          "accepted: a single project (workspace \"\"), whose packages all come "
                          "from the registry"));
  EXPECT_THAT(refused(R"({"lockfileVersion": 2, "workspaces": {"": {}}})"),
              ElementsAre("dependency-lock-version: bun.lock has lockfileVersion 2; accepted: 0 "
                          "or 1, the text lock of Bun 1.2 and later"));
  EXPECT_THAT(
      refused(R"({"lockfileVersion": 1, "workspaces": {"": {}}, "packages": {"a": 1}})", "{}"),
      ElementsAre("dependency-lock-invalid: bun.lock package \"a\" is not a list "
                  "starting with \"name@version\""));
  std::string deep(100, '[');
  EXPECT_THAT(refused(deep), ElementsAre("dependency-lock-invalid: bun.lock nests deeper than 32 "
                                         "levels"));
}

TEST_F(BunPlan, SpecifiersAreComparedAsFrozenLockfileDoes) {
  EXPECT_THAT(refused(lock(""), R"({"dependencies": {"ms": "2.1.3"},
                                   "devDependencies": {"@s/x": "1.0.0"}})"),
              ElementsAre("dependency-lock-mismatch: package.json and bun.lock are not in sync: "
                          "dependencies \"ms\" is \"2.1.3\" in package.json but \"^2.1.3\" in the "
                          "lock; a frozen-lockfile install would refuse it (update the lock with "
                          "`bun install`)"));
}

}  // namespace
}  // namespace reviewer::deps
