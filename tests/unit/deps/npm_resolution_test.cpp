// The rules of a resolution at review time, with an engine that plays npm: it is handed
// package.json alone and a listener for the host's registry, asks that registry for the
// metadata real npm 11 asked for, and writes back the lock real npm wrote (a resolution of
// is-number@7.0.0, tests/data/fetch/resolution). What it writes is held to every rule of a
// committed lock; the metadata is what the registry served, never what it wrote. The real npm in
// a real sandbox is tests/image/fetch_image_test.cpp and tests/e2e/review_e2e_test.cpp.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>

#include "core/deps/npm_resolution.h"
#include "core/deps/sandbox_network.h"
#include "tests/support/http_exchange.h"
#include "tests/support/temp_dir.h"

namespace reviewer::deps {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr const char* kResolution = REVIEWER_SOURCE_DIR "/tests/data/fetch/resolution";
constexpr const char* kIsNumberDocument = REVIEWER_SOURCE_DIR
    "/tests/data/fetch/resolution/cache/_cacache/content-v2/sha512/42/f1/"
    "faedd7106f875aa5a2bf9d0b79a7561ffbdd7ce7ef3ba3c0991eeb03d1dfa5a182319b7bc95f8524cb96c420641563"
    "af"
    "8ec7bcda8458e9f98d31476c0259";

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The registry as the host's downloader reaches it: documents by URL.
class FakeRegistry final : public deps::Downloader {
 public:
  std::map<std::string, std::string> documents = {
      {"https://registry.npmjs.org/is-number", kIsNumberDocument}};
  std::optional<util::Refusal> failure;
  std::vector<std::string> asked;

  util::Status download(const std::vector<deps::Download>&, std::uint64_t) override {
    return util::ok_status();
  }
  util::Result<bool> download_document(const deps::Download& item, std::uint64_t) override {
    asked.push_back(item.url);
    if (failure) {
      return *failure;
    }
    const auto it = documents.find(item.url);
    if (it == documents.end()) {
      return false;
    }
    fs::copy_file(it->second, item.file);
    return true;
  }
};

class NpmPlayingEngine final : public ResolutionSandbox {
 public:
  std::function<void(const std::string& dir)> writes = [](const std::string& dir) {
    fs::copy(std::string(kResolution) + "/package-lock.json", dir + "/package-lock.json");
  };
  std::vector<std::string> asks = {"/is-number"};  // what npm asks its registry for
  std::vector<std::string> answers;
  int status = 0;
  bool timed_out = false;
  int calls = 0;
  std::vector<std::string> seen;  // what the sandbox was handed
  std::vector<std::string> command;

  util::Result<ResolutionRun> resolve(const ResolutionSpec& s) override {
    ++calls;
    image = s.image;
    for (const auto& e : fs::directory_iterator(s.dir)) {
      // The host's own npm configuration, empty, is no file of the pull request's.
      if (e.path().filename() == "host-global-npmrc" && fs::file_size(e.path()) == 0) {
        continue;
      }
      seen.push_back(e.path().filename().string());
    }
    auto listener = listen_on_loopback();
    if (!listener) {
      return listener.error();
    }
    auto url = s.serve(std::move(*listener));
    if (!url) {
      return url.error();
    }
    command = s.command("/resolve", *url);
    answers.clear();
    for (const auto& target : asks) {
      answers.push_back(test_support::http_exchange(test_support::port_of(*url),
                                                    test_support::get_request(target)));
    }
    writes(s.dir);
    return ResolutionRun{status, timed_out};
  }
  std::string image;
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
                       deps::FetchOptions{}, registry_, contract::SandboxLimits{});
  }
  void manifest(const std::string& text) {
    std::ofstream(worktree_ + "/package.json", std::ios::trunc) << text;
  }
  std::string command_line() const {
    std::string s;
    for (const auto& w : engine_.command) {
      s += w + " ";
    }
    return s;
  }

  test_support::TempDir dir_;
  std::string worktree_;
  NpmPlayingEngine engine_;
  FakeRegistry registry_;
};

TEST_F(NpmResolutionTest, TheSandboxSeesPackageJsonAloneAndItsOutputIsVerified) {
  auto r = resolve();
  ASSERT_TRUE(r) << r.error().to_string();
  ASSERT_TRUE(*r);
  EXPECT_THAT(engine_.seen, ElementsAre("package.json"));  // never .npmrc or sources
  EXPECT_EQ(engine_.image, "reviewer-node24-bun1310");
  ASSERT_EQ((*r)->list.tarballs.size(), 1u);
  EXPECT_EQ((*r)->list.tarballs[0].url,
            "https://registry.npmjs.org/is-number/-/is-number-7.0.0.tgz");
}

// npm is given the host's registry on the sandbox's loopback, which fetched from the configured
// registry what npm asked for; the metadata the review installs from is what it served.
TEST_F(NpmResolutionTest, NpmReachesOnlyTheHostsRegistryAndItsMetadataIsWhatThatServed) {
  auto r = resolve();
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_THAT(command_line(), HasSubstr("--registry http://127.0.0.1:"));
  ASSERT_EQ(engine_.answers.size(), 1u);
  EXPECT_THAT(engine_.answers[0], HasSubstr("HTTP/1.1 200 OK"));
  EXPECT_THAT(registry_.asked, ElementsAre("https://registry.npmjs.org/is-number"));
  ASSERT_EQ((*r)->packuments.size(), 1u);
  EXPECT_EQ((*r)->packuments[0].name, "is-number");
  EXPECT_EQ((*r)->packuments[0].key,
            "make-fetch-happen:request-cache:https://registry.npmjs.org/is-number");
  EXPECT_EQ(slurp((*r)->packuments[0].content), slurp(kIsNumberDocument));
  // Outside the folder the sandbox was given.
  EXPECT_EQ((*r)->packuments[0].content.rfind(dir_ / "resolution.registry/", 0), 0u);
}

// A cache the sandbox wrote is never read: its entries cannot add metadata to the review.
TEST_F(NpmResolutionTest, TheCacheTheSandboxWroteIsNeverRead) {
  engine_.writes = [](const std::string& dir) {
    fs::copy(std::string(kResolution) + "/package-lock.json", dir + "/package-lock.json");
    fs::copy(std::string(kResolution) + "/cache", dir + "/cache", fs::copy_options::recursive);
    fs::create_directories(dir + "/cache/_cacache/index-v5/00");
    fs::create_symlink("/etc/shadow", dir + "/cache/_cacache/index-v5/00/x");
  };
  engine_.asks = {};
  auto r = resolve();
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_TRUE((*r)->packuments.empty());
}

// The registry's failure is why npm failed, and is named as such (here the review's bound).
TEST_F(NpmResolutionTest, TheRegistrysFailureIsWhyTheResolutionFailed) {
  registry_.failure = util::Refusal{"dependency-too-large", "over the bound", std::nullopt};
  engine_.status = 1;
  auto r = resolve();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().rule, "dependency-too-large");
  EXPECT_THAT(engine_.answers[0], HasSubstr("HTTP/1.1 502"));
}

TEST_F(NpmResolutionTest, TheProjectsVersionPickingSettingsReachTheResolution) {
  std::ofstream(worktree_ + "/.npmrc", std::ios::trunc)
      << "registry=https://evil.example.com/\nmin-release-age=7\n";
  auto r = resolve();
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_THAT(engine_.seen, ElementsAre("package.json"));
  EXPECT_THAT(command_line(), HasSubstr(" --min-release-age=7 "));
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
  engine_.asks = {};
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
}  // namespace reviewer::deps
