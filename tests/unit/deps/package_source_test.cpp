// Only tarballs of the configured registry: every other source is refused and named.
#include "core/deps/package_source.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace reviewer::deps {
namespace {

LockedPackage entry(std::string resolved, std::string name = "a", bool link = false) {
  LockedPackage p;
  p.path = "node_modules/" + name;
  p.name = name;
  p.version = "1.0.0";
  p.resolved = std::move(resolved);
  p.link = link;
  return p;
}

TEST(PackageSource, AcceptsTheRegistrysTarballs) {
  auto url = registry_tarball_url(entry("https://registry.npmjs.org/a/-/a-1.0.0.tgz"),
                                  "package-lock.json", kDefaultRegistry);
  ASSERT_TRUE(url);
  EXPECT_EQ(*url, "https://registry.npmjs.org/a/-/a-1.0.0.tgz");
  auto scoped =
      registry_tarball_url(entry("https://registry.npmjs.org/@s/b/-/b-2.0.0-rc.1.tgz", "@s/b"),
                           "package-lock.json", kDefaultRegistry);
  EXPECT_TRUE(scoped);
}

// Without `resolved`, npm ci reads the registry's metadata at install time (ENOTCACHED offline
// with every tarball cached, measured with npm 11), so the lock is refused by name.
TEST(PackageSource, RefusesAnEntryWithoutResolvedByName) {
  auto url = registry_tarball_url(entry("", "@types/ms"), "package-lock.json", kDefaultRegistry);
  ASSERT_FALSE(url);
  EXPECT_EQ(url.error().rule, "dependency-resolved-missing");
  EXPECT_THAT(url.error().message,
              ::testing::StartsWith("package-lock.json has no `resolved` URL for "
                                    "\"node_modules/@types/ms\" (written with "
                                    "omit-lockfile-registry-resolved)"));
}

struct Source {
  const char* name;
  LockedPackage package;
  const char* message;
};

class PackageSourceRefuses : public ::testing::TestWithParam<Source> {};

TEST_P(PackageSourceRefuses, NamingWhichSource) {
  auto url = registry_tarball_url(GetParam().package, "package-lock.json", kDefaultRegistry);
  ASSERT_FALSE(url);
  EXPECT_EQ(url.error().rule, "dependency-source-refused");
  EXPECT_EQ(url.error().message, GetParam().message);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, PackageSourceRefuses,
    ::testing::Values(
        Source{"git",
               entry("git+ssh://git@github.com/o/a.git#0123456789abcdef0123456789abcdef01234567"),
               "package-lock.json pins \"node_modules/a\" to the git source "
               "\"git+ssh://git@github.com/o/a.git#0123456789abcdef0123456789abcdef01234567\"; "
               "accepted: a tarball of https://registry.npmjs.org/ with a sha512 integrity"},
        Source{"github", entry("github:o/a#v1"),
               "package-lock.json pins \"node_modules/a\" to the git source \"github:o/a#v1\"; "
               "accepted: a tarball of https://registry.npmjs.org/ with a sha512 integrity"},
        Source{"file", entry("file:vendor/a-1.0.0.tgz"),
               "package-lock.json pins \"node_modules/a\" to the file "
               "\"file:vendor/a-1.0.0.tgz\"; accepted: a tarball of https://registry.npmjs.org/ "
               "with a sha512 integrity"},
        Source{"link", entry("packages/a", "a", true),
               "package-lock.json pins \"node_modules/a\" to a link to the folder "
               "\"packages/a\"; accepted: a tarball of https://registry.npmjs.org/ with a sha512 "
               "integrity"},
        Source{"http", entry("http://registry.npmjs.org/a/-/a-1.0.0.tgz"),
               "package-lock.json pins \"node_modules/a\" to the plain http URL "
               "\"http://registry.npmjs.org/a/-/a-1.0.0.tgz\"; accepted: a tarball of "
               "https://registry.npmjs.org/ with a sha512 integrity"},
        Source{"foreign", entry("https://registry.evil.example/a/-/a-1.0.0.tgz"),
               "package-lock.json pins \"node_modules/a\" to the foreign host "
               "https://registry.evil.example: \"https://registry.evil.example/a/-/a-1.0.0.tgz\"; "
               "accepted: a tarball of https://registry.npmjs.org/ with a sha512 integrity"},
        Source{"lookalike", entry("https://registry.npmjs.org.evil.example/a/-/a-1.0.0.tgz"),
               "package-lock.json pins \"node_modules/a\" to the foreign host "
               "https://registry.npmjs.org.evil.example: "
               "\"https://registry.npmjs.org.evil.example/a/-/a-1.0.0.tgz\"; accepted: a tarball "
               "of https://registry.npmjs.org/ with a sha512 integrity"},
        Source{"query", entry("https://registry.npmjs.org/a/-/a-1.0.0.tgz?x=1"),
               "package-lock.json pins \"node_modules/a\" to a registry URL that is not a tarball "
               "\"https://registry.npmjs.org/a/-/a-1.0.0.tgz?x=1\"; accepted: a tarball of "
               "https://registry.npmjs.org/ with a sha512 integrity"},
        Source{"dotdot", entry("https://registry.npmjs.org/a/-/../../x.tgz"),
               "package-lock.json pins \"node_modules/a\" to a registry URL that is not a tarball "
               "\"https://registry.npmjs.org/a/-/../../x.tgz\"; accepted: a tarball of "
               "https://registry.npmjs.org/ with a sha512 integrity"}),
    [](const auto& p) { return std::string(p.param.name); });

}  // namespace
}  // namespace reviewer::deps
