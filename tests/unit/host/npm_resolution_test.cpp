// The rules of a resolution at review time, with an engine that plays npm: it is handed
// package.json alone, and what it writes back (a real npm 11 resolution of is-number@7.0.0,
// tests/data/fetch/resolution) is held to every rule of a committed lock and of the metadata
// cache. The real npm in a real sandbox is tests/image/fetch_image_test.cpp.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "core/host/npm_resolution.h"
#include "tests/support/temp_dir.h"

namespace reviewer::host {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr const char* kResolution = REVIEWER_SOURCE_DIR "/tests/data/fetch/resolution";

class NpmPlayingEngine final : public Engine {
 public:
  std::function<void(const std::string& dir)> writes = [](const std::string& dir) {
    fs::copy(std::string(kResolution) + "/package-lock.json", dir + "/package-lock.json");
    fs::copy(std::string(kResolution) + "/cache", dir + "/cache", fs::copy_options::recursive);
  };
  int status = 0;
  bool timed_out = false;
  int calls = 0;
  std::vector<std::string> seen;  // what the sandbox was handed
  ResolutionSpec spec;

  std::string name() const override { return "fake"; }
  util::Result<std::string> image_id(const std::string&) override { return std::string("id"); }
  util::Result<SandboxRun> run(const SandboxSpec&) override { return SandboxRun{}; }
  util::Result<SandboxRun> resolve(const ResolutionSpec& s) override {
    ++calls;
    spec = s;
    for (const auto& e : fs::directory_iterator(s.dir)) {
      // The host's own npm configuration, empty, is no file of the pull request's.
      if (e.path().filename() == "host-global-npmrc" && fs::file_size(e.path()) == 0) {
        continue;
      }
      seen.push_back(e.path().filename().string());
    }
    writes(s.dir);
    return SandboxRun{status, timed_out, ""};
  }
};

class NpmResolutionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    worktree_ = dir_ / "worktree";
    fs::create_directories(worktree_);
    fs::copy(std::string(kResolution) + "/package.json", worktree_ + "/package.json");
    std::ofstream(worktree_ + "/.npmrc") << "registry=https://evil.example.com/\n";
    std::ofstream(worktree_ + "/index.js") << "module.exports = 1;\n";
  }
  util::Result<std::optional<NpmResolution>> resolve() {
    return resolve_npm(worktree_, engine_, "reviewer-node24-bun1310", dir_ / "resolution",
                       fetch::FetchOptions{}, SandboxLimits{});
  }
  void manifest(const std::string& text) {
    std::ofstream(worktree_ + "/package.json", std::ios::trunc) << text;
  }

  test_support::TempDir dir_;
  std::string worktree_;
  NpmPlayingEngine engine_;
};

TEST_F(NpmResolutionTest, TheSandboxSeesPackageJsonAloneAndItsOutputIsVerified) {
  auto r = resolve();
  ASSERT_TRUE(r) << r.error().to_string();
  ASSERT_TRUE(*r);
  EXPECT_THAT(engine_.seen, ElementsAre("package.json"));  // never .npmrc or sources
  EXPECT_EQ(engine_.spec.image, "reviewer-node24-bun1310");
  EXPECT_EQ(engine_.spec.registry, "https://registry.npmjs.org/");
  ASSERT_EQ((*r)->list.tarballs.size(), 1u);
  EXPECT_EQ((*r)->list.tarballs[0].url,
            "https://registry.npmjs.org/is-number/-/is-number-7.0.0.tgz");
  ASSERT_EQ((*r)->packuments.size(), 1u);
  EXPECT_EQ((*r)->packuments[0].name, "is-number");
}

// The review's npm reads the project's .npmrc; the resolution gets its version-picking settings
// as flags (never the file), and a value it cannot honour stops the review before any sandbox.
TEST_F(NpmResolutionTest, TheProjectsVersionPickingSettingsReachTheResolution) {
  std::ofstream(worktree_ + "/.npmrc", std::ios::trunc)
      << "registry=https://evil.example.com/\nmin-release-age=7\n";
  auto r = resolve();
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_THAT(engine_.seen, ElementsAre("package.json"));
  EXPECT_THAT(engine_.spec.settings, ElementsAre("--min-release-age=7"));
  EXPECT_THAT((*r)->npmrc, ElementsAre("min-release-age=7"));
  std::ofstream(worktree_ + "/.npmrc", std::ios::trunc) << "min-release-age=${AGE}\n";
  auto refused = resolve();
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().rule, "dependency-npmrc-invalid");
  EXPECT_EQ(engine_.calls, 1);
}

TEST_F(NpmResolutionTest, ThereIsNothingToResolveWithoutDependencies) {
  manifest(R"({"name": "t", "version": "1.0.0", "scripts": {"test": "node --test"}})");
  auto r = resolve();
  ASSERT_TRUE(r);
  EXPECT_FALSE(*r);
  EXPECT_EQ(engine_.calls, 0);
}

TEST_F(NpmResolutionTest, WorkspacesAreRefusedBeforeAnySandbox) {
  manifest(R"({"name": "t", "workspaces": ["packages/*"], "dependencies": {"a": "1.0.0"}})");
  auto r = resolve();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().rule, "dependency-manifest-invalid");
  EXPECT_THAT(r.error().message, HasSubstr("workspaces"));
  EXPECT_EQ(engine_.calls, 0);
}

TEST_F(NpmResolutionTest, AManifestThatIsALinkOrNotJsonIsRefused) {
  fs::remove(worktree_ + "/package.json");
  fs::create_symlink("/etc/passwd", worktree_ + "/package.json");
  auto link = resolve();
  ASSERT_FALSE(link);
  EXPECT_EQ(link.error().rule, "dependency-manifest-invalid");
  fs::remove(worktree_ + "/package.json");
  manifest("[1, 2]");
  auto array = resolve();
  ASSERT_FALSE(array);
  EXPECT_EQ(array.error().rule, "dependency-manifest-invalid");
  EXPECT_EQ(engine_.calls, 0);
}

TEST_F(NpmResolutionTest, NpmFailingOrRunningTooLongIsNamed) {
  engine_.status = 1;
  engine_.writes = [](const std::string&) {};
  auto failed = resolve();
  ASSERT_FALSE(failed);
  EXPECT_EQ(failed.error().rule, "dependency-resolution-failed");
  EXPECT_THAT(failed.error().message, HasSubstr("exited 1"));
  engine_.status = 137;
  engine_.timed_out = true;
  auto late = resolve();
  ASSERT_FALSE(late);
  EXPECT_EQ(late.error().rule, "dependency-resolution-failed");
  EXPECT_THAT(late.error().message, HasSubstr("ran past"));
}

TEST_F(NpmResolutionTest, NoLockWrittenIsInvalid) {
  engine_.writes = [](const std::string&) {};
  auto r = resolve();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().rule, "dependency-resolution-invalid");
}

// What the sandbox wrote is held to a committed lock's rules: a git source it resolved is
// refused as it would be in a committed lock.
TEST_F(NpmResolutionTest, AWrittenLockGetsEveryRuleOfACommittedOne) {
  engine_.writes = [](const std::string& dir) {
    std::ifstream in(std::string(kResolution) + "/package-lock.json");
    std::stringstream s;
    s << in.rdbuf();
    std::string text = s.str();
    const std::string url = "https://registry.npmjs.org/is-number/-/is-number-7.0.0.tgz";
    text.replace(text.find(url), url.size(), "git+ssh://git@github.com/evil/is-number.git");
    std::ofstream(dir + "/package-lock.json") << text;
  };
  auto r = resolve();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().rule, "dependency-source-refused");
}

TEST_F(NpmResolutionTest, AWrittenCacheGetsTheMetadataRules) {
  engine_.writes = [](const std::string& dir) {
    fs::copy(std::string(kResolution) + "/package-lock.json", dir + "/package-lock.json");
    fs::create_directories(dir + "/cache/_cacache/index-v5/00");
    fs::create_symlink("/etc/shadow", dir + "/cache/_cacache/index-v5/00/x");
  };
  auto r = resolve();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().rule, "dependency-resolution-invalid");
}

TEST(LacksLockFile, OnlyAPackageJsonWithoutAnyLock) {
  test_support::TempDir dir;
  EXPECT_FALSE(lacks_lock_file(dir.path()));  // no package.json: nothing to resolve
  std::ofstream(dir / "package.json") << "{}";
  EXPECT_TRUE(lacks_lock_file(dir.path()));
  for (const char* lock : {"npm-shrinkwrap.json", "package-lock.json", "pnpm-lock.yaml", "bun.lock",
                           "bun.lockb", "yarn.lock"}) {
    std::ofstream(dir / lock) << "";
    EXPECT_FALSE(lacks_lock_file(dir.path())) << lock;
    fs::remove(dir / lock);
  }
  // A dangling link named like a lock is still a lock file the worktree has.
  fs::create_symlink("/nonexistent", dir / "yarn.lock");
  EXPECT_FALSE(lacks_lock_file(dir.path()));
}

TEST(NpmResolutionCommand, ScriptsNeverRunAndNoConfigOfTheProjectIsRead) {
  const auto argv = npm_resolution_command("/resolve", "https://registry.npmjs.org/", {});
  const std::string line = [&] {
    std::string s;
    for (const auto& w : argv) {
      s += w + " ";
    }
    return s;
  }();
  EXPECT_THAT(line, HasSubstr("npm install --package-lock-only --ignore-scripts "));
  EXPECT_THAT(line, HasSubstr("--userconfig /dev/null "));
  EXPECT_THAT(line, HasSubstr("--registry https://registry.npmjs.org/ "));
  EXPECT_THAT(line, HasSubstr("--cache /resolve/cache "));
}

}  // namespace
}  // namespace reviewer::host
