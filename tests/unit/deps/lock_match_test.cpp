// package.json against the lock, as npm ci judges the root (measured with npm 11: a range the
// locked version still satisfies and a dropped dependency install; a new or unsatisfied one
// fails with EUSAGE "Missing:"/"Invalid:").
#include "core/deps/lock_match.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace reviewer::deps {
namespace {

NpmLock lock_with(std::vector<std::pair<std::string, std::string>> entries) {
  NpmLock lock;
  lock.file = "package-lock.json";
  for (auto& [path, version] : entries) {
    LockedPackage p;
    p.path = path;
    p.name = path.substr(path.rfind("node_modules/") + 13);
    p.version = version;
    lock.packages.push_back(p);
  }
  return lock;
}

LockedPackage manifest(std::map<std::string, std::string> wants,
                       std::map<std::string, std::string> optional = {}) {
  LockedPackage m;
  m.wants = std::move(wants);
  m.wants_optional = std::move(optional);
  return m;
}

const NpmLock kLock = lock_with({{"node_modules/semver", "7.6.3"},
                                 {"node_modules/ms", "2.1.3"},
                                 {"node_modules/a/node_modules/lodash", "4.17.21"}});

TEST(LockMatch, AcceptsWhatNpmCiAccepts) {
  EXPECT_TRUE(check_lock_matches(manifest({{"semver", "7.6.3"}, {"ms", "^2.1.0"}}), kLock));
  EXPECT_TRUE(check_lock_matches(manifest({{"semver", "^7.0.0"}}), kLock));  // changed, satisfied
  EXPECT_TRUE(check_lock_matches(manifest({}), kLock));                      // dropped
  EXPECT_TRUE(check_lock_matches(manifest({{"semver", "latest"}}), kLock));  // a dist-tag
  EXPECT_TRUE(check_lock_matches(manifest({}, {{"ms", "*"}}), kLock));
}

TEST(LockMatch, RefusesAMissingDependencyAsNpmWordsIt) {
  auto r = check_lock_matches(manifest({{"left-pad", "1.3.0"}}), kLock);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().rule, "dependency-lock-mismatch");
  EXPECT_EQ(r.error().message,
            "package.json and package-lock.json are not in sync: Missing: left-pad@1.3.0 from lock "
            "file; npm ci would refuse it (update the lock with `npm install`)");
  // Nested copies do not serve the root.
  EXPECT_FALSE(check_lock_matches(manifest({{"lodash", "4"}}), kLock));
  EXPECT_FALSE(check_lock_matches(manifest({}, {{"fsevents", "2"}}), kLock));
}

TEST(LockMatch, RefusesAnUnsatisfiedRangeAsNpmWordsIt) {
  auto r = check_lock_matches(manifest({{"semver", "^6.0.0"}, {"ms", "3"}}), kLock);
  ASSERT_FALSE(r);
  ASSERT_EQ(r.refusals().size(), 2u);
  EXPECT_EQ(r.refusals()[0].message,
            "package.json and package-lock.json are not in sync: Invalid: lock file's ms@2.1.3 "
            "does not satisfy ms@3; npm ci would refuse it (update the lock with `npm install`)");
  EXPECT_EQ(r.refusals()[1].rule, "dependency-lock-mismatch");
}

TEST(LockMatch, HoldsAnAliasToItsRealName) {
  NpmLock lock = lock_with({{"node_modules/sv", "7.6.3"}});
  lock.packages[0].name = "semver";
  EXPECT_TRUE(check_lock_matches(manifest({{"sv", "npm:semver@^7"}}), lock));
  EXPECT_FALSE(check_lock_matches(manifest({{"sv", "npm:semver@^8"}}), lock));
  EXPECT_FALSE(check_lock_matches(manifest({{"sv", "npm:other@^7"}}), lock));
}

}  // namespace
}  // namespace reviewer::deps
