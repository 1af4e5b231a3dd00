// pnpm-lock.yaml (v6, v9) through plan_fetch: the tarballs pnpm installs here, where the view
// holds them, and every hostile lock refused by name with the full message.
#include "core/deps/pnpm_lock.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

#include "core/deps/fetch.h"
#include "tests/support/temp_dir.h"
#include "tests/unit/deps/lock_plan_fixture.h"

namespace reviewer::deps {
namespace {

constexpr const char* kMs =
    "sha512-6FlzubTLZG3J2a/NVCAleEhjzq5oxgHyaCU9yYXvcLsvoVaHJq/s5xXI6/XXP6tz7R9xAOtHnSO/"
    "tXtF3WRTlA==";

constexpr const char* kManifest =
    R"({"name": "app", "dependencies": {"ms": "^2.1.3"}, "devDependencies": {"@s/x": "1.0.0"}})";

std::string v9(const std::string& packages, const std::string& importer_extra = "") {
  return "lockfileVersion: '9.0'\n\nsettings:\n  autoInstallPeers: true\n\nimporters:\n\n  .:\n"
         "    dependencies:\n      ms:\n        specifier: ^2.1.3\n        version: 2.1.3\n"
         "    devDependencies:\n      '@s/x':\n        specifier: 1.0.0\n        version: 1.0.0\n" +
         importer_extra + "\npackages:\n\n" + packages;
}

const std::string kMsPackage =
    "  ms@2.1.3:\n    resolution: {integrity: " + std::string(kMs) + "}\n";
const std::string kScoped =
    "  '@s/x@1.0.0':\n    resolution: {integrity: " + std::string(kMs) + "}\n";

class PnpmPlan : public testing::LockPlan {
 protected:
  PnpmPlan() : LockPlan("pnpm-lock.yaml", kManifest) {}
};

TEST_F(PnpmPlan, V9RegistryPackagesAreTheRegistrysTarballsAtTheirRegistryPaths) {
  auto r = plan(v9(kMsPackage + "\n" + kScoped));
  ASSERT_TRUE(r) << r.error().to_string();
  ASSERT_TRUE(*r);
  EXPECT_EQ((*r)->lock_file, "pnpm-lock.yaml");
  ASSERT_EQ((*r)->tarballs.size(), 2u);
  EXPECT_EQ((*r)->tarballs[0].url, "https://registry.npmjs.org/ms/-/ms-2.1.3.tgz");
  EXPECT_EQ((*r)->tarballs[0].registry_path, "ms/-/ms-2.1.3.tgz");
  EXPECT_EQ((*r)->tarballs[1].url, "https://registry.npmjs.org/@s/x/-/x-1.0.0.tgz");
  EXPECT_EQ((*r)->tarballs[1].registry_path, "@s/x/-/x-1.0.0.tgz");
  EXPECT_EQ((*r)->tarballs[1].bun_dir, "");
}

TEST_F(PnpmPlan, V6KeysWithPeersAndTopLevelGroups) {
  const std::string lock =
      "lockfileVersion: '6.0'\n\ndependencies:\n  ms:\n    specifier: ^2.1.3\n    version: 2.1.3\n"
      "\ndevDependencies:\n  '@s/x':\n    specifier: 1.0.0\n    version: 1.0.0(ms@2.1.3)\n\n"
      "packages:\n\n  /ms@2.1.3:\n    resolution: {integrity: " +
      std::string(kMs) +
      "}\n    dev: false\n\n  /@s/x@1.0.0(ms@2.1.3):\n    resolution: "
      "{integrity: " +
      kMs + "}\n    dev: true\n\n  /fsevents@2.3.3:\n    resolution: {integrity: " + kMs +
      "}\n    os: [darwin]\n    optional: true\n";
  auto r = plan(lock);
  ASSERT_TRUE(r) << r.error().to_string();
  ASSERT_EQ((*r)->tarballs.size(), 2u);
  EXPECT_EQ((*r)->tarballs[1].registry_path, "@s/x/-/x-1.0.0.tgz");
  EXPECT_EQ((*r)->other_platform, 1u);
}

TEST_F(PnpmPlan, V9OptionalOnlyWhenEverySnapshotIs) {
  const std::string pkgs = kMsPackage + "\n" + kScoped +
                           "\n  fsevents@2.3.3:\n    resolution: {integrity: " + kMs +
                           "}\n    os: [darwin]\n";
  auto r = plan(v9(pkgs) + "\nsnapshots:\n\n  fsevents@2.3.3:\n    optional: true\n");
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ((*r)->tarballs.size(), 2u);
  EXPECT_EQ((*r)->other_platform, 1u);
  // pnpm 11 checks every entry against its supply-chain settings, another platform's too, so
  // the registry's metadata of each is fetched (measured: a 404 for @esbuild/aix-ppc64 failed
  // the install of a project on linux-x64).
  EXPECT_EQ((*r)->pnpm_packages,
            (std::map<std::string, std::set<std::string>>{
                {"@s/x", {"1.0.0"}}, {"fsevents", {"2.3.3"}}, {"ms", {"2.1.3"}}}));
}

TEST_F(PnpmPlan, HostileSourcesAreRefusedByName) {
  const std::string pkgs =
      kMsPackage + "\n" + kScoped +
      "\n  g@1.0.0:\n    resolution: {type: git, repo: 'https://github.com/o/g', commit: abc}\n"
      "\n  h@1.0.0:\n    resolution: {tarball: 'http://example.com/h-1.0.0.tgz', integrity: " +
      kMs +
      "}\n\n  f@1.0.0:\n    resolution: {tarball: 'https://evil.example/f/-/f-1.0.0.tgz', "
      "integrity: " +
      kMs +
      "}\n\n  d@1.0.0:\n    resolution: {directory: ../d, type: directory}\n"
      "\n  n@1.0.0:\n    resolution: {integrity: sha1-abc}\n";
  EXPECT_THAT(
      refused(v9(pkgs)),
      ::testing::ElementsAre(
          "dependency-source-refused: pnpm-lock.yaml pins \"g@1.0.0\" to the git source "
          "\"git+https://github.com/o/g#abc\"; accepted: a tarball of https://registry.npmjs.org/ "
          "with a sha512 integrity",
          "dependency-source-refused: pnpm-lock.yaml pins \"h@1.0.0\" to the plain http URL "
          "\"http://example.com/h-1.0.0.tgz\"; accepted: a tarball of "
          "https://registry.npmjs.org/ with a sha512 integrity",
          "dependency-source-refused: pnpm-lock.yaml pins \"f@1.0.0\" to the foreign host "
          "https://evil.example: \"https://evil.example/f/-/f-1.0.0.tgz\"; accepted: a tarball "
          "of https://registry.npmjs.org/ with a sha512 integrity",
          "dependency-source-refused: pnpm-lock.yaml pins \"d@1.0.0\" to a link to the folder "
          "\"file:../d\"; accepted: a tarball of https://registry.npmjs.org/ with a sha512 "
          "integrity",
          ::testing::StartsWith("dependency-integrity-missing: pnpm-lock.yaml: \"n@1.0.0\"")));
}

TEST_F(PnpmPlan, WorkspacesAndLinkedRootDependenciesAreRefused) {
  auto lock =
      v9(kMsPackage + "\n" + kScoped,
         "      local:\n        specifier: link:../local\n        version: link:../local\n") +
      "";
  // The importer's `local` sits under devDependencies; package.json declares it too.
  auto out = refused(lock + "", R"({"dependencies": {"ms": "^2.1.3"},
                     "devDependencies": {"@s/x": "1.0.0", "local": "link:../local"}})");
  EXPECT_THAT(out, ::testing::ElementsAre(
                       "dependency-source-refused: pnpm-lock.yaml pins \"local\" to the folder "
                       "\"link:../local\"; accepted: a tarball of the registry with a sha512 "
                       "integrity"));
  std::string ws = v9(kMsPackage + "\n" + kScoped);
  ws.replace(ws.find("\npackages:"), 0, "\n  packages/a:\n    dependencies: {}\n");
  EXPECT_THAT(refused(ws), ::testing::ElementsAre(
                               "dependency-source-refused: pnpm-lock.yaml has the workspace "
                               "importer \"packages/a\"; accepted: a single project (importer "
                               "\".\"), whose packages all come from the registry"));
}

TEST_F(PnpmPlan, SpecifiersAreComparedAsFrozenLockfileDoes) {
  const std::string lock = v9(kMsPackage + "\n" + kScoped);
  EXPECT_THAT(
      refused(lock, R"({"dependencies": {"ms": "^2.1.0", "new": "1"}})"),
      ::testing::ElementsAre(
          "dependency-lock-mismatch: package.json and pnpm-lock.yaml are not in sync: "
          "dependencies \"ms\" is \"^2.1.0\" in package.json but \"^2.1.3\" in the lock; a "
          "frozen-lockfile install would refuse it (update the lock with `pnpm install`)",
          "dependency-lock-mismatch: package.json and pnpm-lock.yaml are not in sync: "
          "dependencies \"new\": \"1\" is not in the lock; a frozen-lockfile install would "
          "refuse it (update the lock with `pnpm install`)",
          "dependency-lock-mismatch: package.json and pnpm-lock.yaml are not in sync: "
          "devDependencies \"@s/x\": \"1.0.0\" is in the lock only; a frozen-lockfile install "
          "would refuse it (update the lock with `pnpm install`)"));
  // With autoInstallPeers, a peer declared nowhere else is a dependency.
  EXPECT_TRUE(plan(lock, R"({"peerDependencies": {"ms": "^2.1.3"},
                             "devDependencies": {"@s/x": "1.0.0"}})"));
}

TEST_F(PnpmPlan, VersionsAndShapesPnpmDoesNotWriteAreRefused) {
  EXPECT_THAT(refused("lockfileVersion: 5.4\n"),
              ::testing::ElementsAre("dependency-lock-version: pnpm-lock.yaml has lockfileVersion "
                                     "\"5.4\"; accepted: 6.x (pnpm 8) or 9.x (pnpm 9 and 10)"));
  EXPECT_THAT(refused(v9("  ms@2.1.3: {}\n")),
              ::testing::ElementsAre("dependency-lock-invalid: pnpm-lock.yaml package "
                                     "\"ms@2.1.3\" has no `resolution` mapping or a platform field "
                                     "that is not a list"));
  EXPECT_THAT(refused("a: &x [*x]\n"),
              ::testing::ElementsAre(::testing::StartsWith(
                  "dependency-lock-invalid: pnpm-lock.yaml is not YAML pnpm writes: yaml-")));
  // A billion laughs costs a bounded pass.
  std::string laughs = "lockfileVersion: '9.0'\na: &a [x, x, x, x, x, x, x, x, x, x]\n";
  for (char c = 'b'; c <= 'k'; ++c) {
    laughs += std::string(1, c) + ": &" + c + " [*" + char(c - 1) + ", *" + char(c - 1) + ", *" +
              char(c - 1) + ", *" + char(c - 1) + ", *" + char(c - 1) + "]\n";
  }
  EXPECT_THAT(refused(laughs), ::testing::ElementsAre(::testing::StartsWith(
                                   "dependency-lock-invalid: pnpm-lock.yaml is not YAML pnpm "
                                   "writes: yaml-too-many-nodes")));
}

}  // namespace
}  // namespace reviewer::deps
