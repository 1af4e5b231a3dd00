// The lock file reader: npm's v2/v3 shape, its bounds, and the formats it refuses by name.
#include "core/deps/npm_lock.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

namespace reviewer::deps {
namespace {

using ::testing::HasSubstr;

constexpr const char* kLock = R"({
  "name": "app", "version": "1.0.0", "lockfileVersion": 3, "requires": true,
  "packages": {
    "": {"name": "app", "dependencies": {"ms": "^2.1.0"},
         "devDependencies": {"@scope/x": "1.0.0"}, "optionalDependencies": {"fsevents": "2"},
         "peerDependencies": {"p": "1", "q": "1"},
         "peerDependenciesMeta": {"q": {"optional": true}}},
    "node_modules/ms": {"version": "2.1.3",
      "resolved": "https://registry.npmjs.org/ms/-/ms-2.1.3.tgz",
      "integrity": "sha512-6FlzubTLZG3J2a/NVCAleEhjzq5oxgHyaCU9yYXvcLsvoVaHJq/s5xXI6/XXP6tz7R9xAOtHnSO/tXtF3WRTlA=="},
    "node_modules/a/node_modules/@scope/x": {"version": "1.0.0", "dev": true,
      "dependencies": {"ms": "2"}},
    "node_modules/fsevents": {"version": "2.3.3", "optional": true, "os": ["darwin"]},
    "node_modules/alias": {"name": "real", "version": "1.0.0", "inBundle": true},
    "node_modules/linked": {"resolved": "packages/linked", "link": true}
  }
})";

TEST(NpmLock, ReadsEveryEntryAsNpmCiDoes) {
  auto lock = parse_npm_lock(kLock, "package-lock.json");
  ASSERT_TRUE(lock) << lock.error().to_string();
  EXPECT_EQ(lock->version, 3);
  ASSERT_EQ(lock->packages.size(), 5u);  // the root is package.json's business
  auto at = [&](const std::string& path) -> const LockedPackage& {
    for (const auto& p : lock->packages) {
      if (p.path == path) {
        return p;
      }
    }
    ADD_FAILURE() << path;
    return lock->packages.front();
  };
  const auto& ms = at("node_modules/ms");
  EXPECT_EQ(ms.name, "ms");
  EXPECT_EQ(ms.version, "2.1.3");
  EXPECT_EQ(ms.resolved, "https://registry.npmjs.org/ms/-/ms-2.1.3.tgz");
  EXPECT_THAT(ms.integrity, ::testing::StartsWith("sha512-6Flz"));
  const auto& x = at("node_modules/a/node_modules/@scope/x");
  EXPECT_EQ(x.name, "@scope/x");  // the last node_modules/ segment
  EXPECT_EQ(x.wants.at("ms"), "2");
  EXPECT_TRUE(at("node_modules/fsevents").optional);
  EXPECT_EQ(at("node_modules/fsevents").os, std::vector<std::string>{"darwin"});
  EXPECT_EQ(at("node_modules/alias").name, "real");  // an alias keeps its real name
  EXPECT_TRUE(at("node_modules/alias").in_bundle);
  EXPECT_TRUE(at("node_modules/linked").link);
}

TEST(NpmLock, ReadsThePackageJsonEdgesByKind) {
  auto root = parse_manifest(R"({"dependencies": {"a": "1", "o": "2"},
    "devDependencies": {"d": "^1"}, "optionalDependencies": {"o": "2"},
    "peerDependencies": {"p": "1", "q": "1"}, "peerDependenciesMeta": {"q": {"optional": true}}})");
  ASSERT_TRUE(root);
  EXPECT_EQ(root->wants, (std::map<std::string, std::string>{{"a", "1"}, {"d", "^1"}, {"p", "1"}}));
  EXPECT_EQ(root->wants_optional, (std::map<std::string, std::string>{{"o", "2"}, {"q", "1"}}));
}

struct Refused {
  const char* name;
  std::string text;
  const char* rule;
  const char* message;
};

class NpmLockRefuses : public ::testing::TestWithParam<Refused> {};

TEST_P(NpmLockRefuses, ByName) {
  LockBounds bounds;
  bounds.max_bytes = 4096;
  bounds.max_nodes = 200;
  bounds.max_depth = 8;
  bounds.max_packages = 3;
  auto lock = parse_npm_lock(GetParam().text, "package-lock.json", bounds);
  ASSERT_FALSE(lock);
  EXPECT_EQ(lock.error().rule, GetParam().rule);
  EXPECT_THAT(lock.error().message, HasSubstr(GetParam().message));
}

std::string many_values(int n) {
  std::string s = R"({"lockfileVersion": 3, "packages": {}, "x": [)";
  for (int i = 0; i < n; ++i) {
    s += (i ? ",1" : "1");
  }
  return s + "]}";
}

INSTANTIATE_TEST_SUITE_P(
    Cases, NpmLockRefuses,
    ::testing::Values(Refused{"v1", R"({"lockfileVersion": 1, "dependencies": {}})",
                              "dependency-lock-version",
                              "package-lock.json has lockfileVersion 1; accepted: 2 or 3"},
                      Refused{"noversion", R"({"dependencies": {}})", "dependency-lock-version",
                              "package-lock.json has no lockfileVersion (npm 6 or older)"},
                      Refused{"v4", R"({"lockfileVersion": 4, "packages": {}})",
                              "dependency-lock-version", "has lockfileVersion 4"},
                      Refused{"bytes", std::string(5000, ' ') + "{}", "dependency-lock-invalid",
                              "package-lock.json is 5002 bytes, over the 4096-byte bound"},
                      Refused{"nodes", many_values(300), "dependency-lock-invalid",
                              "has more than 200 JSON values"},
                      Refused{"depth", R"({"a":[[[[[[[[[1]]]]]]]]]})", "dependency-lock-invalid",
                              "nests deeper than 8 levels"},
                      Refused{"json", R"({"lockfileVersion": 3,)", "dependency-lock-invalid",
                              "is not valid JSON"},
                      Refused{"array", "[]", "dependency-lock-invalid", "is not a JSON object"},
                      Refused{"nopackages", R"({"lockfileVersion": 3})", "dependency-lock-invalid",
                              "has no `packages` object"},
                      Refused{"packages", R"({"lockfileVersion": 3, "packages": {"":{},
                "node_modules/a":{},"node_modules/b":{},"node_modules/c":{}}})",
                              "dependency-lock-invalid", "has 4 packages, over the 3 bound"},
                      Refused{"type", R"({"lockfileVersion": 3, "packages": {"node_modules/a":
                {"integrity": 5}}})",
                              "dependency-lock-invalid",
                              "entry \"node_modules/a\" has a field of the wrong type"}),
    [](const auto& p) { return std::string(p.param.name); });

TEST(NpmLock, RefusesAManifestThatIsNotOneByName) {
  auto root = parse_manifest(R"({"dependencies": {"a": 1}})");
  ASSERT_FALSE(root);
  EXPECT_EQ(root.error().rule, "dependency-manifest-invalid");
}

}  // namespace
}  // namespace reviewer::deps
