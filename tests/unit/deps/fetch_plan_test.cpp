// plan_npm_fetch over a worktree: which lock file, which entries npm installs here, and every
// hostile input refused by name before anything is downloaded.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/deps/fetch.h"
#include "tests/support/temp_dir.h"

namespace reviewer::deps {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr const char* kMsIntegrity =
    "sha512-6FlzubTLZG3J2a/NVCAleEhjzq5oxgHyaCU9yYXvcLsvoVaHJq/s5xXI6/XXP6tz7R9xAOtHnSO/"
    "tXtF3WRTlA==";

std::string ms_entry(const std::string& resolved = "https://registry.npmjs.org/ms/-/ms-2.1.3.tgz",
                     const std::string& integrity = kMsIntegrity) {
  return R"({"version": "2.1.3", "resolved": ")" + resolved + R"(", "integrity": ")" + integrity +
         R"("})";
}

class FetchPlan : public ::testing::Test {
 protected:
  void write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name, std::ios::trunc) << text;
  }
  // A lock of the root entry and `entries` ("key": {...}, ...), and package.json wanting ms.
  void project(const std::string& entries, const std::string& file = "package-lock.json") {
    write("package.json", R"({"name": "app", "dependencies": {"ms": "^2.1.0"}})");
    write(file, R"({"lockfileVersion": 3, "packages": {"": {"dependencies": {"ms": "^2.1.0"}},)" +
                    entries + "}}");
  }
  util::Result<std::optional<FetchList>> plan() { return plan_npm_fetch(dir_.path(), {}); }
  // The rules of every refusal.
  std::vector<std::string> rules() {
    auto r = plan();
    EXPECT_FALSE(r);
    std::vector<std::string> out;
    if (!r) {
      for (const auto& x : r.refusals()) {
        out.push_back(x.rule);
      }
    }
    return out;
  }
  test_support::TempDir dir_;
};

TEST_F(FetchPlan, NoLockFileIsNothingToFetch) {
  write("package.json", "{}");
  auto r = plan();
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->has_value());
}

TEST_F(FetchPlan, ListsEachIntegrityOnceAndSkipsOtherPlatformsOptionals) {
  project(R"("node_modules/ms": )" + ms_entry() + R"(,
    "node_modules/a/node_modules/ms": )" +
          ms_entry() + R"(,
    "node_modules/fsevents": {"version": "2.3.3", "optional": true, "os": ["darwin"]},
    "node_modules/@esbuild/win32-x64": {"version": "0.24.0", "optional": true, "os": ["win32"],
      "cpu": ["x64"]},
    "node_modules/bundled": {"version": "1.0.0", "inBundle": true})");
  auto r = plan();
  ASSERT_TRUE(r) << r.error().to_string();
  ASSERT_TRUE(r->has_value());
  const FetchList& list = **r;
  EXPECT_EQ(list.lock_file, "package-lock.json");
  EXPECT_EQ(list.entries, 5u);
  EXPECT_EQ(list.other_platform, 2u);
  EXPECT_EQ(list.bundled, 1u);
  ASSERT_EQ(list.tarballs.size(), 1u);  // two entries, one tarball
  EXPECT_EQ(list.tarballs[0].url, "https://registry.npmjs.org/ms/-/ms-2.1.3.tgz");
  EXPECT_THAT(list.tarballs[0].what, ::testing::EndsWith("node_modules/ms\""));
}

TEST_F(FetchPlan, ShrinkwrapComesBeforePackageLockAsInNpm) {
  project(R"("node_modules/ms": )" + ms_entry(), "npm-shrinkwrap.json");
  write("package-lock.json", "not even json");
  auto r = plan();
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ((*r)->lock_file, "npm-shrinkwrap.json");
}

TEST_F(FetchPlan, RefusesEveryHostileEntryAtOnce) {
  project(
      R"("node_modules/ms": )" + ms_entry() + R"(,
    "node_modules/g": {"version": "1.0.0", "resolved": "git+https://github.com/o/g.git#abc"},
    "node_modules/h": )" +
      ms_entry("http://registry.npmjs.org/h/-/h-1.0.0.tgz") + R"(,
    "node_modules/f": )" +
      ms_entry("https://npm.evil.example/f/-/f-1.0.0.tgz") + R"(,
    "node_modules/n": {"version": "1.0.0", "resolved": "https://registry.npmjs.org/n/-/n-1.0.0.tgz"},
    "node_modules/s": )" +
      ms_entry("https://registry.npmjs.org/s/-/s-1.0.0.tgz", "sha1-Bq4E5zHqWqAFM2HNF0rjoZJ4bM8=") +
      R"(,
    "../w": {"name": "w", "version": "1.0.0"})");
  // In path order: ../w (a folder outside the project), f (foreign), g (git), h (http), n and s
  // (integrity).
  EXPECT_THAT(rules(), ElementsAre("dependency-source-refused", "dependency-source-refused",
                                   "dependency-source-refused", "dependency-source-refused",
                                   "dependency-integrity-missing", "dependency-integrity-missing"));
}

// classnames' lock links `"classnames-local": "file:."` to the project itself, and a workspace
// lock links node_modules/w to packages/w: npm ci makes those links from the checkout, so they
// need no download. A link anywhere else is not the pull request's to give.
TEST_F(FetchPlan, LinksToFoldersOfTheProjectNeedNoDownload) {
  project(R"("node_modules/ms": )" + ms_entry() + R"(,
    "node_modules/self": {"resolved": "", "link": true},
    "node_modules/w": {"resolved": "packages/w", "link": true},
    "packages/w": {"name": "w", "version": "1.0.0"})");
  auto r = plan();
  ASSERT_TRUE(r) << r.error().to_string();
  ASSERT_TRUE(r->has_value());
  EXPECT_EQ((*r)->project_links, 2u);
  ASSERT_EQ((*r)->tarballs.size(), 1u);
  for (const char* target : {"../elsewhere", "/etc", "packages/../../x", "node_modules/ms",
                             ".git/hooks", "a\\b", "packages//w"}) {
    project(R"("node_modules/ms": )" + ms_entry() + R"(, "node_modules/l": {"resolved": ")" +
            target + R"(", "link": true})");
    EXPECT_THAT(rules(), ElementsAre("dependency-source-refused")) << target;
  }
}

TEST_F(FetchPlan, RefusesALockOutOfSyncWithPackageJson) {
  project(R"("node_modules/ms": )" + ms_entry());
  write("package.json", R"({"dependencies": {"ms": "^3.0.0"}})");
  EXPECT_THAT(rules(), ElementsAre("dependency-lock-mismatch"));
}

TEST_F(FetchPlan, RefusesLockFileVersionOne) {
  write("package.json", "{}");
  write("package-lock.json", R"({"lockfileVersion": 1, "dependencies": {}})");
  EXPECT_THAT(rules(), ElementsAre("dependency-lock-version"));
}

TEST_F(FetchPlan, NeverFollowsALinkedLockFile) {
  write("package.json", "{}");
  write("elsewhere.json", "{}");
  std::filesystem::create_symlink(dir_ / "elsewhere.json", dir_ / "package-lock.json");
  auto r = plan();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().rule, "dependency-lock-invalid");
  EXPECT_THAT(r.error().message, HasSubstr("package-lock.json: "));
}

TEST_F(FetchPlan, NeedsPackageJsonBesideTheLock) {
  project(R"("node_modules/ms": )" + ms_entry());
  std::filesystem::remove(dir_ / "package.json");
  EXPECT_THAT(rules(), ElementsAre("dependency-manifest-invalid"));
}

}  // namespace
}  // namespace reviewer::deps

namespace reviewer::deps {
namespace {

// A project in a subdirectory a job's steps work in (`working-directory: website`): its npm lock
// joins the fetch; one that is a link or leaves the worktree is passed over.
class ProjectDirs : public FetchPlan {
 protected:
  void sub_project(const std::string& dir) {
    std::filesystem::create_directories(dir_ / dir);
    write(dir + "/package.json", R"({"name": "site", "dependencies": {"ms": "^2.1.0"}})");
    write(dir + "/package-lock.json",
          R"({"lockfileVersion": 3, "packages": {"": {"dependencies": {"ms": "^2.1.0"}},)"
          R"("node_modules/ms": )" +
              ms_entry() + "}}");
  }
};

TEST_F(ProjectDirs, ALockInAStepsWorkingDirectoryIsFetchedToo) {
  write("package.json", "{}");
  sub_project("website");
  auto without = plan_fetch(dir_.path(), {});
  ASSERT_TRUE(without);
  EXPECT_FALSE(without->has_value()) << "the top has no lock";
  auto with = plan_fetch(dir_.path(), {}, {"website"});
  ASSERT_TRUE(with) << with.error().message;
  ASSERT_TRUE(with->has_value());
  EXPECT_EQ((*with)->lock_file, "website/package-lock.json");
  ASSERT_EQ((*with)->tarballs.size(), 1U);
  EXPECT_EQ((*with)->tarballs[0].url, "https://registry.npmjs.org/ms/-/ms-2.1.3.tgz");
  EXPECT_EQ((*with)->tarballs[0].what, "website/package-lock.json: \"node_modules/ms\"");
}

TEST_F(ProjectDirs, ASubdirectoryLockIsCheckedByTheSameRulesAndNamedByItsPath) {
  write("package.json", "{}");
  std::filesystem::create_directories(dir_ / "site");
  write("site/package.json", R"({"name": "site", "dependencies": {"x": "github:a/x"}})");
  write(
      "site/package-lock.json",
      R"({"lockfileVersion": 3, "packages": {"": {"dependencies": {"x": "github:a/x"}},)"
      R"("node_modules/x": {"version": "1.0.0", "resolved": "git+ssh://git@github.com/a/x.git#0123456789abcdef0123456789abcdef01234567"}}})");
  auto r = plan_fetch(dir_.path(), {}, {"site"});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().rule, "dependency-source-refused");
  EXPECT_THAT(r.error().message, HasSubstr("site/package-lock.json"));
}

TEST_F(ProjectDirs, ADirectoryThatIsALinkOrLeavesTheWorktreeIsPassedOver) {
  write("package.json", "{}");
  test_support::TempDir outside;
  std::filesystem::create_directories(outside / "p");
  std::ofstream(outside / "p/package.json") << R"({"name": "x"})";
  std::ofstream(outside / "p/package-lock.json") << "not json";
  std::filesystem::create_directory_symlink(outside / "p", dir_ / "linked");
  for (const char* rel : {"linked", "../p", "missing", "a/../linked"}) {
    auto r = plan_fetch(dir_.path(), {}, {rel});
    ASSERT_TRUE(r) << rel << ": " << r.error().message;
    EXPECT_FALSE(r->has_value()) << rel;
  }
}

}  // namespace
}  // namespace reviewer::deps
