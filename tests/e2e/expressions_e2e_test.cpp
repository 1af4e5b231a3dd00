// GitHub's expressions, one matrix combination and the runner's step semantics, end to end in
// the run model: each value is evaluated where the runner evaluates it and reaches bash as CI's
// would.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/e2e/e2e_support.h"
#include "tests/e2e/sandbox.h"

namespace reviewer::e2e {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const std::string kMatrixJob =
    "  test:\n    runs-on: ${{ matrix.os }}\n    strategy:\n      matrix:\n"
    "        os: [ubuntu-latest]\n        suite: [unit, lint]\n"
    "    steps:\n      - uses: " +
    std::string(kCheckout) +
    "\n      - run: echo \"suite=${{ matrix.suite }} index=${{ strategy.job-index }} "
    "of ${{ strategy.job-total }}\"\n"
    "      - if: matrix.suite == 'lint'\n        run: echo lint-only-step\n"
    "      - if: matrix.suite != 'lint'\n        run: echo unit-only-step\n";

TEST_F(LauncherE2E, AMatrixJobRunsTheChosenCombinationAndSkipsStepsByItsIf) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml", workflow(kMatrixJob));
  repo.clone();
  SandboxRun run = assigned_job("test");
  run.matrix = "suite=lint";
  run.after = "cat /tmp/review/report.json";
  auto r = run_launcher(repo.workspace(), run);
  // The report names the combination and each condition's value.
  EXPECT_THAT(r.after, HasSubstr("\"matrix\": \"os=ubuntu-latest, suite=lint\""));
  EXPECT_THAT(r.after, HasSubstr("\"condition\": \"if: matrix.suite == 'lint' is true\""));
  EXPECT_THAT(r.after, HasSubstr("\"condition\": \"if: matrix.suite != 'lint' is false\""));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("reviewer: job 'test' (os=ubuntu-latest, suite=lint) started"));
  EXPECT_THAT(r.output, HasSubstr("] suite=lint index=1 of 2\n"));
  EXPECT_THAT(r.output, HasSubstr("] lint-only-step\n"));
  EXPECT_THAT(r.output, Not(HasSubstr("] unit-only-step")));
  EXPECT_THAT(r.output, HasSubstr("not run: if: matrix.suite != 'lint' is false"));
  EXPECT_EQ(r.last_line(), "review-build-ok");
}

TEST_F(LauncherE2E, AMatrixJobWithoutAChoiceIsRefusedWithTheCombinations) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml", workflow(kMatrixJob));
  repo.clone();
  auto r = run_launcher(repo.workspace(), assigned_job("test"));
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_THAT(r.output, HasSubstr("matrix-combination-required"));
  EXPECT_THAT(r.output, HasSubstr("os=ubuntu-latest, suite=unit | os=ubuntu-latest, suite=lint"));
  EXPECT_THAT(r.last_line(), HasSubstr("review-build-refused"));
}

TEST_F(LauncherE2E, ContinueOnErrorLetsAFailingStepPassAndItsOutcomeIsVisible) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml",
             workflow(job("test",
                          "      - id: flaky\n        continue-on-error: true\n"
                          "        run: exit 3\n"
                          "      - run: echo \"outcome=${{ steps.flaky.outcome }} "
                          "conclusion=${{ steps.flaky.conclusion }}\"\n"
                          "      - if: failure()\n        run: echo failure-step\n")));
  repo.clone();
  auto r = run_launcher(repo.workspace(), assigned_job("test"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("exited 3 (continue-on-error: tolerated)"));
  EXPECT_THAT(r.output, HasSubstr("] outcome=failure conclusion=success\n"));
  EXPECT_THAT(r.output, Not(HasSubstr("] failure-step")));
  EXPECT_EQ(r.last_line(), "review-build-ok");
}

TEST_F(LauncherE2E, AFailureStepRunsOnlyAfterAFailureAndTheBuildStillFails) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml",
             workflow(job("test",
                          "      - run: exit 4\n"
                          "      - if: failure()\n        run: echo collecting-logs\n"
                          "      - run: echo never\n")));
  repo.clone();
  auto r = run_launcher(repo.workspace(), assigned_job("test"));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_THAT(r.output, HasSubstr("] collecting-logs\n"));
  EXPECT_THAT(r.output, Not(HasSubstr("] never")));
  EXPECT_THAT(r.last_line(), HasSubstr("review-build-failed"));
}

TEST_F(LauncherE2E, AJobOutputReachesTheNextJobsScriptThroughNeeds) {
  ExampleRepo repo;
  repo.write(
      ".github/workflows/ci.yml",
      workflow(
          job("build",
              "      - id: version\n        run: |\n"
              "          echo \"v=1.2.3\" >> \"$GITHUB_OUTPUT\"\n"
              "          { echo 'notes<<EOF'; echo two; echo lines; echo EOF; } "
              ">> \"$GITHUB_OUTPUT\"\n"
              "      - if: steps.version.outputs.v == '1.2.3'\n        run: echo saw-output\n",
              "    outputs:\n      version: ${{ steps.version.outputs.v }}\n"
              "      notes: ${{ steps.version.outputs.notes }}\n") +
          job("test",
              "      - env:\n          NOTES: ${{ needs.build.outputs.notes }}\n"
              "        run: |\n"
              "          echo \"got ${{ needs.build.outputs.version }} from "
              "${{ needs.build.result }}\"\n"
              "          echo \"notes: $NOTES\" | tr '\\n' ' '; echo\n"
              "      - if: env.RELEASE == 'v1.2.3'\n        run: echo \"job-env=$RELEASE\"\n",
              "    needs: build\n    env:\n      RELEASE: v${{ needs.build.outputs.version }}\n")));
  repo.clone();
  auto r = run_launcher(repo.workspace(), assigned_job("test"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("] saw-output\n"));
  EXPECT_THAT(r.output, HasSubstr("] got 1.2.3 from success\n"));
  EXPECT_THAT(r.output, HasSubstr("] notes: two lines \n"));
  // A job env value reading `needs` is evaluated when the job starts, as on the runner.
  EXPECT_THAT(r.output, HasSubstr("] job-env=v1.2.3\n"));
  EXPECT_EQ(r.last_line(), "review-build-ok");
}

// actions/checkout sets `ref` and `commit` on CI; its plugin sets neither, so a script reading
// one would see '' in the review and CI's value on CI: the build is refused by name before the
// script runs, and nothing after it runs.
TEST_F(LauncherE2E, ReadingAnOutputAPluginStepDidNotSetIsRefused) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml",
             workflow(std::string("  test:\n    runs-on: ubuntu-latest\n    steps:\n"
                                  "      - id: co\n        uses: ") +
                      kCheckout +
                      "\n      - run: echo \"commit=[${{ steps.co.outputs.commit }}]\"\n"
                      "      - run: echo after-the-refusal\n"));
  repo.clone();
  auto r = run_launcher(repo.workspace(), assigned_job("test"));
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_THAT(r.last_line(), HasSubstr("action-output-unavailable"));
  EXPECT_THAT(r.last_line(), HasSubstr("step 'co' is actions/checkout, which the review emulates "
                                       "with a plugin that set no outputs"));
  EXPECT_THAT(r.last_line(), HasSubstr("'commit'"));
  EXPECT_THAT(r.output, Not(HasSubstr("] commit=")));
  EXPECT_THAT(r.output, Not(HasSubstr("] after-the-refusal")));
}

// actions/cache on the cold miss the review stands for leaves `cache-hit` unset on CI; its plugin
// writes it empty, so the usual guard reads '' in both and the install step runs.
TEST_F(LauncherE2E, ACacheStepsCacheHitReadsAsOnAColdMiss) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml",
             workflow(job("test",
                          "      - id: c\n"
                          "        uses: actions/cache@27d5ce7f107fe9357f9df03efb73ab90386fccae\n"
                          "        with:\n          path: ~/.npm\n          key: npm-${{ runner.os "
                          "}}\n"
                          "      - if: steps.c.outputs.cache-hit != 'true'\n"
                          "        run: echo \"cold=[${{ steps.c.outputs.cache-hit }}]\"\n")));
  repo.clone();
  auto r = run_launcher(repo.workspace(), assigned_job("test"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("] cold=[]\n"));
  EXPECT_EQ(r.last_line(), "review-build-ok");
}

// A step's own env value that reads a step output is evaluated for its script; its `if:` never
// sees the unevaluated text.
TEST_F(LauncherE2E, AnIfNeverReadsAnUnevaluatedEnvValue) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml",
             workflow(job("test",
                          "      - id: a\n        run: echo \"v=yes\" >> \"$GITHUB_OUTPUT\"\n"
                          "      - if: contains(env.V, 'steps.a')\n"
                          "        env:\n          V: ${{ steps.a.outputs.v }}\n"
                          "        run: echo saw-raw-text\n"
                          "      - env:\n          V: ${{ steps.a.outputs.v }}\n"
                          "        run: echo \"v=$V\"\n")));
  repo.clone();
  auto r = run_launcher(repo.workspace(), assigned_job("test"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, Not(HasSubstr("] saw-raw-text")));
  EXPECT_THAT(r.output, HasSubstr("] v=yes\n"));
  EXPECT_EQ(r.last_line(), "review-build-ok");
}

TEST_F(LauncherE2E, HashFilesInAnIfSeesTheWorktree) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml",
             workflow(job("test",
                          "      - if: hashFiles('**/package.json') != ''\n"
                          "        run: echo has-package-json\n"
                          "      - if: hashFiles('**/Cargo.lock') != ''\n"
                          "        run: echo has-cargo-lock\n"
                          "      - run: echo \"hash=${{ hashFiles('package.json') }}\"\n")));
  repo.clone();
  auto r = run_launcher(repo.workspace(), assigned_job("test"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("] has-package-json\n"));
  EXPECT_THAT(r.output, Not(HasSubstr("] has-cargo-lock")));
  // One file: the SHA-256 of its own SHA-256 digest, as the runner computes it.
  EXPECT_THAT(r.output, ::testing::ContainsRegex("\\] hash=[0-9a-f]{64}\n"));
  EXPECT_EQ(r.last_line(), "review-build-ok");
}

TEST_F(LauncherE2E, ASecretOnAForkPullRequestIsEmpty) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml",
             workflow(job("test",
                          "      - run: echo \"token=[$CODECOV_TOKEN] "
                          "direct=[${{ secrets.NPM_TOKEN }}]\"\n"
                          "      - if: env.CODECOV_TOKEN != ''\n        run: echo upload\n",
                          "    env:\n      CODECOV_TOKEN: ${{ secrets.CODECOV_TOKEN }}\n")));
  repo.clone();
  auto r = run_launcher(repo.workspace(), assigned_job("test"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("] token=[] direct=[]\n"));
  EXPECT_THAT(r.output, Not(HasSubstr("] upload")));
  EXPECT_EQ(r.last_line(), "review-build-ok");
}

// A host reviewing a same-repository pull request says so in the assignment: the launcher then
// refuses the secret a fork's run reads as empty.
TEST_F(LauncherE2E, ASameRepositoryAssignmentRefusesASecretInTheSandbox) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml",
             workflow(job("test", "      - run: echo \"direct=[${{ secrets.NPM_TOKEN }}]\"\n")));
  repo.clone();
  SandboxRun same = assigned_job("test");
  same.same_repository = true;
  auto r = run_launcher(repo.workspace(), same);
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_THAT(r.last_line(), HasSubstr("expression-value-unknown: the script reads "
                                       "secrets.NPM_TOKEN"));
  EXPECT_THAT(r.last_line(), HasSubstr("same-repository pull request"));
  EXPECT_THAT(r.output, Not(HasSubstr("] direct=")));
}

TEST_F(LauncherE2E, AnExpressionThatFailsAtRunTimeFailsItsStep) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml",
             workflow(job("test",
                          "      - run: echo \"${{ fromJSON(env.NOT_JSON) }}\"\n"
                          "        env:\n          NOT_JSON: '{oops'\n")));
  repo.clone();
  auto r = run_launcher(repo.workspace(), assigned_job("test"));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_THAT(r.output, HasSubstr("expression-error"));
  EXPECT_THAT(r.last_line(), HasSubstr("review-build-failed"));
}

// The host's event description reaches the sandbox in the assignment: the launcher plans with
// the same github context the host did, a guard on the repository's owner is decided from it,
// and a payload field reaches bash as the runner substitutes it. Without it, the same workflow is
// refused by name.
const std::string kOwnerGuardedJob =
    job("test",
        "      - run: echo \"title=[${{ github.event.pull_request.title }}] "
        "head=${{ github.head_ref }}\"\n"
        "      - if: github.repository_owner != 'acme'\n        run: echo other-owner\n",
        "    if: github.repository == 'acme/widgets'\n");

TEST_F(LauncherE2E, TheHostsEventDescriptionIsTheGithubContextInTheSandbox) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml", workflow(kOwnerGuardedJob));
  repo.clone();
  SandboxRun run = assigned_job("test");
  run.event =
      R"({"event":{"number":12,"pull_request":{"title":"Add $(id) `x`","base":{"ref":"main"},)"
      R"("head":{"ref":"feature"}},"repository":{"full_name":"acme/widgets",)"
      R"("owner":{"login":"acme"}}}})";
  auto r = run_launcher(repo.workspace(), run);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("] title=[Add uid="));  // substituted as text, as on CI
  EXPECT_THAT(r.output, HasSubstr("head=feature\n"));
  EXPECT_THAT(r.output, Not(HasSubstr("] other-owner")));
  EXPECT_EQ(r.last_line(), "review-build-ok");

  auto without = run_launcher(repo.workspace(), assigned_job("test"));
  EXPECT_EQ(without.exit_code, 3) << without.output;
  EXPECT_THAT(without.last_line(),
              HasSubstr("expression-value-unknown: job 'if' reads github.repository"));

  SandboxRun contradicting = assigned_job("test");
  contradicting.event = R"({"repository":"acme/widgets","repository_owner":"evil"})";
  auto refused = run_launcher(repo.workspace(), contradicting);
  EXPECT_EQ(refused.exit_code, 3) << refused.output;
  EXPECT_THAT(refused.last_line(), HasSubstr("event-mismatch"));
}

}  // namespace
}  // namespace reviewer::e2e
