// `reviewer review` as a reviewer host runs it, with the namespaces engine over the e2e stage:
// plan first (a refusal ends the review before any sandbox), the clone the plan's history shape
// needs, the image the worktree selects, the launcher's verdict and exit code, the reports.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/e2e/e2e_support.h"

namespace reviewer::e2e {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

class ReviewE2E : public LauncherE2E {
 protected:
  // Runs `reviewer review` on the example's source with the namespaces engine and `extra`
  // arguments (shell words).
  RunResult review(const std::string& extra, const std::string& job = "test") {
    return run_command(std::string(REVIEWER_BINARY_DIR "/bin/reviewer review ") + repo_.source() +
                       " --workflow .github/workflows/ci.yml --job " + job +
                       " --base main --engine namespaces --stage " REVIEWER_E2E_STAGE " " + extra);
  }

  ExampleRepo repo_;
};

TEST_F(ReviewE2E, TheExampleReviewsOkAndItsReportsComeOut) {
  repo_.commit_source();
  const std::string reports = repo_.source() + "/../reports";
  auto r = review("--reports " + reports);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.last_line(), "review-build-ok") << r.output;
  EXPECT_THAT(r.output, HasSubstr("review: image reviewer-node22-bun1310 (stage:"));
  EXPECT_THAT(r.output, HasSubstr("reviewer: job 'lint' succeeded"));
  std::ifstream json(reports + "/report.json");
  std::stringstream text;
  text << json.rdbuf();
  EXPECT_THAT(text.str(), HasSubstr("review-build-ok"));
  EXPECT_TRUE(std::filesystem::exists(reports + "/report.xml"));
  // The host took the verdict for its attestation with the nonce it made (finding 6).
  EXPECT_THAT(r.output, HasSubstr("review: the verdict is attested"));
  EXPECT_THAT(text.str(), HasSubstr(R"("hmac_sha256": ")"));
}

TEST_F(ReviewE2E, AFailingStepFailsTheReviewWithTheLaunchersCode) {
  repo_.write("test/fail.test.mjs",
              "import assert from 'node:assert';\n"
              "import test from 'node:test';\n"
              "test('fails', () => assert.equal(1, 2));\n");
  repo_.commit_source();
  auto r = review("");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_THAT(r.last_line(), StartsWith("review-build-failed:")) << r.output;
}

TEST_F(ReviewE2E, ARefusedPlanEndsBeforeAnySandbox) {
  repo_.write(".github/workflows/ci.yml",
              workflow("  test:\n    runs-on: windows-latest\n    steps:\n      - run: dir\n"));
  repo_.commit_source();
  auto r = review("");
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_THAT(r.last_line(), StartsWith("review-build-refused: .github/workflows/ci.yml:"));
  EXPECT_THAT(r.last_line(), HasSubstr("runner-label"));
  EXPECT_THAT(r.output, HasSubstr("    runs-on: windows-latest\n"));  // the excerpt
  EXPECT_THAT(r.output, Not(HasSubstr("reviewer: building")));        // no launcher ran
  EXPECT_THAT(r.output, Not(HasSubstr("review: image")));             // nor was one chosen
}

// A release tag is reviewed as the newest reviewed release of its line; a host that wants the
// reference spec's rule passes --pinned-only and the review ends before any sandbox.
TEST_F(ReviewE2E, PinnedOnlyRefusesAReleaseTagBeforeAnySandbox) {
  repo_.write(".github/workflows/ci.yml",
              workflow("  test:\n    runs-on: ubuntu-latest\n    steps:\n"
                       "      - uses: actions/checkout@v4\n      - run: npm test\n"));
  repo_.commit_source();
  auto pinned = review("--pinned-only");
  EXPECT_EQ(pinned.exit_code, 3) << pinned.output;
  EXPECT_THAT(pinned.last_line(), HasSubstr("unreviewed-action-ref"));
  EXPECT_THAT(pinned.output, Not(HasSubstr("reviewer: building")));
  auto tagged = review("");
  EXPECT_EQ(tagged.exit_code, 0) << tagged.output;
  EXPECT_THAT(tagged.output, HasSubstr("actions/checkout@v4 taken as v4.4.0 (the newest reviewed "
                                       "release it can name, reviewed 2026-12-02)"));
  EXPECT_EQ(tagged.last_line(), "review-build-ok");
}

// `--event FILE` describes the pull request to the host's planner and, in the assignment, to
// the launcher's; a bad description is a usage error before anything is cloned.
TEST_F(ReviewE2E, AnEventDescriptionIsPlannedOnTheHostAndInTheSandbox) {
  repo_.write(".github/workflows/ci.yml",
              workflow(job("test", "      - run: echo \"owner=${{ github.repository_owner }}\"\n",
                           "    if: github.repository_owner == 'acme'\n")));
  repo_.commit_source();
  const std::string event = repo_.source() + "/../event.json";
  std::ofstream(event) << R"({"repository": "acme/widgets", "sha": "abc"})" << '\n';
  auto r = review("--event " + event);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("] owner=acme\n"));
  EXPECT_EQ(r.last_line(), "review-build-ok");

  auto refused = review("");
  EXPECT_EQ(refused.exit_code, 3) << refused.output;
  EXPECT_THAT(refused.last_line(), HasSubstr("reviewer review --event FILE"));
  EXPECT_THAT(refused.output, Not(HasSubstr("reviewer: building")));

  std::ofstream(event, std::ios::trunc) << R"({"run_id": "1"})";
  auto bad = review("--event " + event);
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_THAT(bad.output,
              HasSubstr("event-invalid: the event description '" + event + "' names 'run_id'"));
}

TEST_F(ReviewE2E, HeadSelectsTheCommitThatIsReviewed) {
  const std::string good = repo_.commit_source("good");
  repo_.write("test/fail.test.mjs",
              "import assert from 'node:assert';\n"
              "import test from 'node:test';\n"
              "test('fails', () => assert.equal(1, 2));\n");
  repo_.commit_source("bad");
  auto at_head = review("");
  EXPECT_EQ(at_head.exit_code, 1) << at_head.output;
  auto at_good = review("--head " + good);
  EXPECT_EQ(at_good.exit_code, 0) << at_good.output;
  EXPECT_THAT(at_good.output, HasSubstr(" at " + good + ", job test"));
  auto at_branch = review("--head main");
  EXPECT_EQ(at_branch.exit_code, 1) << at_branch.output;
}

TEST_F(ReviewE2E, FetchDepthZeroGetsTheFullHistoryAndTags) {
  repo_.commit_source("first");
  repo_.write(
      ".github/workflows/ci.yml",
      workflow("  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: " +
               std::string(kCheckout) +
               "\n        with:\n          fetch-depth: 0\n"
               "      - run: test \"$(git rev-list --count HEAD)\" = 2 && git tag | grep -x v1\n"));
  repo_.commit_source("second");
  run_command("git -C " + repo_.source() + " tag v1");
  auto r = review("");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("review: full history (fetch-depth: 0)"));
  EXPECT_EQ(r.last_line(), "review-build-ok");
}

TEST_F(ReviewE2E, AWorkflowThatIsALinkIsRefusedNotFollowedOnTheHost) {
  std::filesystem::remove(repo_.source() + "/.github/workflows/ci.yml");
  std::filesystem::create_symlink("/etc/hostname.yml",
                                  repo_.source() + "/.github/workflows/ci.yml");
  repo_.commit_source();
  auto r = review("");
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_THAT(r.last_line(), HasSubstr("workflow-symlink"));
}

TEST_F(ReviewE2E, AWorkflowsDirectoryThatIsALinkReadsNothingOfTheHost) {
  // A host folder with a workflow-shaped file a pull request could name through a link.
  const std::string host_dir = repo_.source() + "/../host-only";
  std::filesystem::create_directories(host_dir);
  std::ofstream(host_dir + "/ci.yml") << "host-secret: 0123456789abcdef\n";
  std::filesystem::remove_all(repo_.source() + "/.github/workflows");
  std::filesystem::create_directory_symlink(std::filesystem::absolute(host_dir),
                                            repo_.source() + "/.github/workflows");
  repo_.commit_source();
  auto r = review("");
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_THAT(r.last_line(), HasSubstr("workflow-unreadable"));
  EXPECT_THAT(r.output, Not(HasSubstr("0123456789abcdef")));
}

TEST_F(ReviewE2E, AnImageTheEngineDoesNotHaveIsNamed) {
  // A job's setup-node 24 (and declarations that agree) selects the Node 24 image; the stage is
  // the Node 22 one.
  repo_.write(".nvmrc", "24\n");
  repo_.write("package.json",
              "{\"name\":\"x\",\"version\":\"1.0.0\",\"engines\":{\"node\":\"24.x\"},"
              "\"scripts\":{\"lint\":\"true\",\"test\":\"true\",\"build\":\"true\"}}\n");
  repo_.write(".github/workflows/ci.yml",
              workflow(job("test", std::string("      - uses: ") + kSetupNode +
                                       "\n        with:\n          node-version: 24\n"
                                       "      - run: npm test\n")));
  repo_.commit_source();
  auto r = review("");
  EXPECT_EQ(r.exit_code, 4) << r.output;
  EXPECT_THAT(r.output, HasSubstr("image-missing: the review needs reviewer-node24"));
  EXPECT_EQ(r.last_line(), "review-build-failed: host: image-missing");
}

TEST_F(ReviewE2E, BadRequestsAreNamedUsageErrors) {
  repo_.commit_source();
  const std::string bin = REVIEWER_BINARY_DIR "/bin/reviewer review ";
  struct Case {
    std::string args;
    std::string says;
  };
  const Case cases[] = {
      {repo_.source() + " --workflow ../ci.yml --job test --base main --engine namespaces",
       "assignment-invalid"},
      {"--workflow .github/workflows/ci.yml --job test --base main -- -oProxyCommand=x",
       "is not a path or URL"},
      {"/nonexistent/repo --workflow .github/workflows/ci.yml --job test --base main "
       "--engine namespaces --stage /tmp",
       "is neither a directory nor a URL"},
      {repo_.source() + " --workflow .github/workflows/ci.yml --job test --base main "
                        "--engine kubernetes",
       "--engine \"kubernetes\" is not podman, docker or namespaces"},
      {repo_.source() + " --workflow .github/workflows/ci.yml --job test --base main "
                        "--engine namespaces",
       "the namespaces engine needs --stage DIR"},
      {repo_.source() + " --workflow .github/workflows/ci.yml --job test --base main "
                        "--engine namespaces --stage " REVIEWER_E2E_STAGE " --head -x",
       "--head \"-x\" is not a branch, tag or commit name"},
  };
  for (const auto& c : cases) {
    auto r = run_command(bin + c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args << "\n" << r.output;
    EXPECT_THAT(r.output, HasSubstr(c.says)) << c.args;
  }
}

// The namespaces engine resolves a project without a lock file with the stage's npm (real npm,
// real registry), and the sandbox, without network, installs offline from what the host
// verified; the lock npm wrote comes out with the reports.
TEST_F(ReviewE2E, WithoutALockTheStagesNpmResolvesAndTheSandboxInstallsOffline) {
  if (run_command("curl -q -sSfI --max-time 20 -o /dev/null https://registry.npmjs.org/is-number")
          .exit_code != 0) {
    GTEST_SKIP() << "the npm registry (https://registry.npmjs.org/) cannot be reached";
  }
  repo_.write(
      "package.json",
      "{\"name\": \"t\", \"version\": \"1.0.0\", \"private\": true,\n"
      " \"engines\": {\"node\": \"22.x\"}, \"dependencies\": {\"is-number\": \"^7.0.0\"}}\n");
  repo_.write(".github/workflows/ci.yml",
              workflow(job("test",
                           "      - run: npm install\n"
                           "      - run: node -e \"require('is-number')\"\n"
                           "      - run: node -p \"require('is-number/package.json').version\" "
                           "| grep -x 7.0.0\n")));
  repo_.commit_source();
  const std::string reports = repo_.source() + "/../reports";
  auto r = review("--store " + repo_.source() + "/../store --reports " + reports);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.last_line(), "review-build-ok") << r.output;
  EXPECT_THAT(r.output, HasSubstr("review: dependencies: no lock file; the image's npm resolved "
                                  "package.json to 1 tarballs, reading the registry metadata of 1 "
                                  "packages"));
  EXPECT_TRUE(std::filesystem::is_regular_file(reports + "/resolved-package-lock.json"));
}

// The isolation issue's finding 3: without a lock, a git dependency with bundleDependencies made
// the host's npm run the pull request's code while it resolved package.json (its clone's .npmrc
// named `git=./pwn.sh`); in the namespaces engine as a host process with the host's network. It
// is refused before any resolution starts: no npm runs, the canary never appears.
TEST_F(ReviewE2E, ALockLessGitDependencyIsRefusedBeforeAnyResolution) {
  const std::string canary = repo_.source() + "/../resolution-ran";
  std::filesystem::remove(repo_.source() + "/package-lock.json");
  repo_.write("package.json",
              "{\"name\": \"x\", \"version\": \"1.0.0\", \"dependencies\": {\"evil\": "
              "\"git+file://" +
                  canary + "\"}, \"bundleDependencies\": [\"evil\"]}\n");
  repo_.commit_source();
  auto r = review("");
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_THAT(r.last_line(), HasSubstr("dependency-source-refused")) << r.output;
  EXPECT_THAT(r.last_line(), HasSubstr("is a git source")) << r.output;
  EXPECT_THAT(r.output, Not(HasSubstr("npm install --package-lock-only"))) << r.output;
  EXPECT_FALSE(std::filesystem::exists(canary));
}

}  // namespace
}  // namespace reviewer::e2e
