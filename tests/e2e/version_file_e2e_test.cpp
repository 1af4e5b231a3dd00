// Version files named by a step (setup-node's node-version-file, setup-bun's bun-version-file),
// end to end: the real launcher plans again inside the sandbox, reads the file from /workspace as
// the action would, pins what it gives and verifies the image by it; a file that is a link out of
// the worktree is refused by rule, and so is one an earlier step rewrites.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/e2e/e2e_support.h"
#include "tests/e2e/sandbox.h"

namespace reviewer::e2e {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

// setup-node reading `file`, then `node --version`; `before` runs first.
std::string node_from(const std::string& file, const std::string& before = "") {
  return workflow(job("test", before + "      - uses: " + kSetupNode +
                                  "\n        with:\n          node-version-file: " + file +
                                  "\n          package-manager-cache: false\n"
                                  "      - run: node --version\n"));
}

TEST_F(LauncherE2E, NvmrcSelectsTheImage) {
  ExampleRepo repo;  // .nvmrc "22", package.json engines.node "22.x"
  repo.write(".github/workflows/ci.yml", node_from(".nvmrc"));
  repo.clone();
  auto r = run_launcher(repo.workspace());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("in image reviewer-node22-bun1310"));
  EXPECT_THAT(r.output, HasSubstr("[test #2 actions/setup-node] '.nvmrc' is as the plan read it "
                                  "(sha256 f14b4987904b…)"));
  EXPECT_THAT(r.output, HasSubstr("[test #3 run] v22.23.5"));
  EXPECT_EQ(r.last_line(), "review-build-ok");
}

// Only the step reads ci/node-version: what it gives (24) is the pin, and it selects the node 24
// image, which is not the one this sandbox runs.
TEST_F(LauncherE2E, AVersionFileOnlyTheStepReadsSelectsAnotherImage) {
  ExampleRepo repo;
  repo.write(".nvmrc", ">=20\n");
  repo.write("package.json", "{\"name\": \"x\", \"engines\": {\"node\": \">=20\"}}\n");
  repo.write("ci/node-version", "node 24\n");
  repo.write(".github/workflows/ci.yml", node_from("ci/node-version"));
  repo.clone();
  auto r = run_launcher(repo.workspace());
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_THAT(r.last_line(),
              StartsWith("review-build-refused: other-image: the declarations select image "
                         "reviewer-node24-bun1310, but this sandbox runs reviewer-node22-bun1310"))
      << r.output;
  EXPECT_THAT(r.output, Not(HasSubstr("v22.23.5")));
}

// The attack: the version file is a link to a file outside the worktree. The launcher never
// reads through it; the plan refuses the step by rule before anything runs.
TEST_F(LauncherE2E, AVersionFileThatLinksOutOfTheWorktreeIsRefused) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml", node_from("ci/node-version"));
  std::filesystem::create_directories(repo.source() + "/ci");
  std::filesystem::create_symlink("/etc/hostname", repo.source() + "/ci/node-version");
  repo.clone();
  ASSERT_TRUE(std::filesystem::is_symlink(repo.workspace() + "/ci/node-version"));
  auto r = run_launcher(repo.workspace());
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_EQ(r.last_line(),
            "review-build-refused: .github/workflows/ci.yml:12:11: invalid-declaration: "
            "'node-version-file' names \"ci/node-version\", which is reached through a symbolic "
            "link (Too many levels of symbolic links); a version file must be a regular file of "
            "the worktree of at most 65536 bytes, read without following links")
      << r.output;
  EXPECT_THAT(r.output, Not(HasSubstr("v22.23.5")));
}

// A linked .nvmrc is stopped one layer earlier: the worktree guard refuses every linked
// declaration file by name before the plan reads anything.
TEST_F(LauncherE2E, ALinkedNvmrcIsRefusedByTheWorktreeGuardFirst) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml", node_from(".nvmrc"));
  std::filesystem::remove(repo.source() + "/.nvmrc");
  std::filesystem::create_symlink("/etc/hostname", repo.source() + "/.nvmrc");
  repo.clone();
  auto r = run_launcher(repo.workspace());
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_EQ(r.last_line(),
            "review-build-refused: .nvmrc: symlinked-lockfile: '.nvmrc' is a symlink; lockfiles "
            "and version declarations must be regular files inside the worktree")
      << r.output;
}

// The attack: an earlier step rewrites the version file after the plan read it, so CI's action
// would install another node than the image's. The step fails by rule.
TEST_F(LauncherE2E, AVersionFileAnEarlierStepRewritesFailsTheBuild) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml",
             node_from(".nvmrc", "      - run: printf '24\\n' > .nvmrc\n"));
  repo.clone();
  auto r = run_launcher(repo.workspace());
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_EQ(r.last_line(),
            "review-build-failed: job 'test' step 3 'actions/setup-node' version-file-changed: "
            "'.nvmrc' changed since the plan read it (sha256 f14b4987904b… then, sha256 "
            "68ca3fba3b7e… now); an earlier step wrote it, and the action reads it when it runs")
      << r.output;
  EXPECT_THAT(r.output, Not(HasSubstr("v22.23.5")));
}

TEST_F(LauncherE2E, BunVersionFileSelectsTheImagesBun) {
  ExampleRepo repo;
  repo.write(".bun-version", "1.3.x\n");
  repo.write(
      ".github/workflows/ci.yml",
      workflow(job("test",
                   "      - uses: oven-sh/setup-bun@0c5077e51419868618aeaa5fe8019c62421857d6\n"
                   "        with:\n          bun-version-file: .bun-version\n"
                   "      - run: bun --version\n")));
  repo.clone();
  auto r = run_launcher(repo.workspace());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("'.bun-version' is as the plan read it (sha256 4925e2df702a…)"));
  EXPECT_THAT(r.output, HasSubstr("[test #3 run] 1.3.10"));
  EXPECT_EQ(r.last_line(), "review-build-ok");
}

// `reviewer review` (the host, namespaces engine over the e2e stage) plans over the head commit's
// files: the version file is read from git's objects there, and it alone narrows the image.
class VersionFileReviewE2E : public LauncherE2E {
 protected:
  RunResult review() {
    return run_command(std::string(REVIEWER_BINARY_DIR "/bin/reviewer review ") + repo_.source() +
                       " --workflow .github/workflows/ci.yml --job test --base main --engine "
                       "namespaces --stage " REVIEWER_E2E_STAGE);
  }
  ExampleRepo repo_;
};

TEST_F(VersionFileReviewE2E, TheHostPinsWhatTheCommittedVersionFileGives) {
  repo_.write(".nvmrc", ">=20\n");
  repo_.write("package.json", "{\"name\": \"x\", \"engines\": {\"node\": \">=20\"}}\n");
  repo_.write("ci/package.json", "{\"volta\": {\"node\": \"22.23.5\"}}\n");
  repo_.write(".github/workflows/ci.yml", node_from("ci/package.json"));
  repo_.commit_source();
  auto r = review();
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("review: image reviewer-node22-bun1310 (stage:"));
  EXPECT_THAT(r.output,
              HasSubstr("'ci/package.json' is as the plan read it (sha256 e1a942455375…)"));
  EXPECT_EQ(r.last_line(), "review-build-ok") << r.output;
}

TEST_F(VersionFileReviewE2E, AVersionFileTheHeadLacksEndsTheReviewBeforeAnySandbox) {
  repo_.write(".github/workflows/ci.yml", node_from("ci/.nvmrc"));
  repo_.commit_source();
  auto r = review();
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_EQ(r.last_line(),
            "review-build-refused: .github/workflows/ci.yml:12:11: version-file-missing: "
            "'node-version-file' names \"ci/.nvmrc\", which is not in the repository; "
            "actions/setup-node fails the step there (\"The specified node version file at: ... "
            "does not exist\")")
      << r.output;
  EXPECT_THAT(r.output, Not(HasSubstr("review: image")));
}

}  // namespace
}  // namespace reviewer::e2e
