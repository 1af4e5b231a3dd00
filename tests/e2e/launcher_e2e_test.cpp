// The real launcher in the run model (docker/run-model/run-model.sh) over real depth-1 and full
// clones made with the git program, with real bash and node.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <sstream>

#include "tests/e2e/e2e_support.h"
#include "tests/e2e/sandbox.h"

namespace reviewer::e2e {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

SandboxRun with_args(std::vector<std::string> args) {
  SandboxRun run;
  run.launcher_args = std::move(args);
  return run;
}

SandboxRun with_caller_env(std::vector<std::string> env) {
  SandboxRun run;
  run.caller_env = std::move(env);
  return run;
}

TEST_F(LauncherE2E, TheExampleBuildsWithItsNeedsChain) {
  ExampleRepo repo;
  repo.clone();
  auto r = run_launcher(repo.workspace());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.last_line(), "review-build-ok");
  auto lint = r.output.find("job 'lint' succeeded");
  auto test = r.output.find("job 'test' started");
  ASSERT_NE(lint, std::string::npos) << r.output;
  EXPECT_LT(lint, test) << "a needed job runs first";
  EXPECT_THAT(r.output, HasSubstr("[test #3 Test] # pass 3"));
}

TEST_F(LauncherE2E, AFailingStepFailsTheBuild) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml",
             workflow(job("test",
                          "      - name: Fails\n        run: echo before; exit 1\n"
                          "      - name: Never\n        run: echo never-printed\n")));
  repo.clone();
  auto r = run_launcher(repo.workspace());
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_EQ(r.last_line(), "review-build-failed: job 'test' step 2 'Fails' exited 1");
  EXPECT_THAT(r.output, HasSubstr("[test #2 Fails] before"));
  EXPECT_THAT(r.output, ::testing::Not(HasSubstr("never-printed")));
}

TEST_F(LauncherE2E, AFailedNeedKeepsTheDependentJobFromRunning) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml",
             workflow(job("lint", "      - run: exit 3\n") +
                      job("test", "      - run: echo dependent-ran\n", "    needs: lint\n")));
  repo.clone();
  auto r = run_launcher(repo.workspace());
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_EQ(r.last_line(), "review-build-failed: job 'lint' step 2 'run' exited 3");
  EXPECT_THAT(r.output, HasSubstr("job 'test' not run"));
  EXPECT_THAT(r.output, ::testing::Not(HasSubstr("dependent-ran")));
}

TEST_F(LauncherE2E, ALauncherArgumentIsRefused) {
  ExampleRepo repo;
  repo.clone();
  auto r = run_launcher(repo.workspace(), with_args({"--workspace", "/x"}));
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_THAT(r.last_line(), StartsWith("review-build-refused: launcher-arguments: "));
}

TEST_F(LauncherE2E, ACallerNamingAnotherJobIsRefused) {
  ExampleRepo repo;
  repo.clone();
  auto r = run_launcher(repo.workspace(), with_caller_env({"REVIEWER_CI_JOB=lint"}));
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_EQ(r.last_line(),
            "review-build-refused: assignment-mismatch: the caller's REVIEWER_CI_JOB is 'lint' "
            "but the sandbox was assigned 'test'");
}

// The run model passes on the assignment it is given, and nothing else: an entry that does not set
// a REVIEWER_CI_ variable (here the loader's preload, which would reach PID 1 and the launcher) is
// refused before any sandbox is made.
TEST_F(LauncherE2E, TheRunModelTakesOnlyTheAssignmentsVariables) {
  ExampleRepo repo;
  repo.clone();
  for (const std::string entry : {"LD_PRELOAD=/tmp/x.so", "--help", "REVIEWER_CI_JOB"}) {
    auto r = run_command(std::string(REVIEWER_SOURCE_DIR "/docker/run-model/run-model.sh") +
                         " --workspace " + repo.workspace() +
                         " --prefix " REVIEWER_E2E_STAGE " --assign '" + entry + "' 2>&1");
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_THAT(r.output, HasSubstr("run-model: --assign takes REVIEWER_CI_NAME=VALUE, not \"" +
                                    entry + "\""));
  }
}

// Whether every credential finding of a self-check is in the host's /usr (or is the scan's own
// bound, reached in that tree): what the run model shows of this host, not of the image.
bool only_host_usr_findings(const std::string& output) {
  std::istringstream in(output);
  int findings = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.find("image-credential:") == std::string::npos) {
      continue;
    }
    ++findings;
    if (line.find("image-credential: '/usr/") == std::string::npos &&
        line.find("the scan stopped at its bound") == std::string::npos) {
      return false;
    }
  }
  return findings > 0;
}

TEST_F(LauncherE2E, TheSelfCheckVerifiesTheImage) {
  ExampleRepo repo;
  repo.clone();
  auto r = run_launcher(repo.workspace(), with_args({"--self-check"}));
  // The self-check scans the whole filesystem; the run model's /usr is this host's, which may
  // hold credential-shaped files (a cloud SDK's public API keys, say). Then only the real image
  // (image.e2e.*) can show the image clean.
  if (!in_image() && r.exit_code != 0 && only_host_usr_findings(r.output)) {
    GTEST_SKIP() << "the run model's /usr is this host's and holds what the whole-filesystem "
                    "credential scan refuses (first: "
                 << r.last_line().substr(0, 160)
                 << "); image.e2e.LauncherE2E.TheSelfCheckVerifiesTheImage checks the real image";
  }
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.last_line(), StartsWith("review-self-check-ok: image reviewer-node22-bun1310"));
}

// The isolation issue's finding 11: an operator checks an image created without an assignment
// (as the image's CI job does), and the self-check refused `assignment-missing` before it
// checked anything.
TEST_F(LauncherE2E, TheSelfCheckNeedsNoAssignment) {
  ExampleRepo repo;
  repo.clone();
  SandboxRun run = with_args({"--self-check"});
  run.workflow = "";
  run.job = "";
  run.base = "";
  auto r = run_launcher(repo.workspace(), run);
  EXPECT_THAT(r.output, Not(HasSubstr("assignment-missing")));
  if (!in_image() && r.exit_code != 0 && only_host_usr_findings(r.output)) {
    // As above: the run model's /usr is this host's. It got past the assignment to the scan.
    EXPECT_THAT(r.output, HasSubstr("image-credential"));
    return;
  }
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.last_line(), StartsWith("review-self-check-ok: image reviewer-node22-bun1310"));
}

TEST_F(LauncherE2E, ACredentialInTheWorkflowIsRefusedBeforeAnythingRuns) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml",
             workflow(job("test", "      - run: echo ran\n", "    env:\n      GH_TOKEN: x\n")));
  repo.clone();
  auto r = run_launcher(repo.workspace());
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_EQ(r.last_line(),
            "review-build-refused: .github/workflows/ci.yml:9:7: "
            "credential-shaped-env: job env 'GH_TOKEN' names a credential");
  EXPECT_THAT(r.output, ::testing::Not(HasSubstr("ran")));
  // As `reviewer plan` shows it, above the verdict: the source line and a caret, read from the
  // bytes that were planned.
  EXPECT_THAT(r.output, HasSubstr("reviewer: refused: .github/workflows/ci.yml:9:7: "
                                  "credential-shaped-env: job env 'GH_TOKEN' names a credential\n"
                                  "      GH_TOKEN: x\n"
                                  "      ^\n"));
}

TEST_F(LauncherE2E, AnFsmonitorInTheCloneIsRefusedAndNeverRuns) {
  ExampleRepo repo;
  repo.clone();
  repo.git_in_clone("config core.fsmonitor 'touch FSMONITOR_RAN; false'");
  auto r = run_launcher(repo.workspace());
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_THAT(r.last_line(), StartsWith("review-build-refused: "));
  EXPECT_THAT(r.last_line(), HasSubstr("git-config-key"));
  EXPECT_THAT(r.last_line(), HasSubstr("core.fsmonitor"));
  EXPECT_FALSE(std::filesystem::exists(repo.workspace() + "/FSMONITOR_RAN"));
  // The canary is live: the git program itself runs it.
  repo.git_in_clone("status --porcelain");
  EXPECT_TRUE(std::filesystem::exists(repo.workspace() + "/FSMONITOR_RAN"));
}

TEST_F(LauncherE2E, FetchDepthZeroNeedsAFullClone) {
  ExampleRepo repo;
  repo.write(
      ".github/workflows/ci.yml",
      "name: ci\non: pull_request\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n"
      "      - uses: " +
          std::string(kCheckout) +
          "\n        with:\n          fetch-depth: 0\n      - run: git log --oneline | wc -l\n");
  repo.clone(/*full=*/false);
  auto shallow = run_launcher(repo.workspace());
  EXPECT_EQ(shallow.exit_code, 3) << shallow.output;
  EXPECT_THAT(shallow.last_line(), HasSubstr("history-shape"));

  ExampleRepo full;
  full.write(".github/workflows/ci.yml",
             "name: ci\non: pull_request\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n"
             "      - uses: " +
                 std::string(kCheckout) +
                 "\n        with:\n          fetch-depth: 0\n      - run: echo full\n");
  full.clone(/*full=*/true);
  auto r = run_launcher(full.workspace());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.last_line(), "review-build-ok");
}

TEST_F(LauncherE2E, WhatAJobLeavesRunningIsKilledAndReported) {
  ExampleRepo repo;
  repo.write(
      ".github/workflows/ci.yml",
      workflow(
          job("test",
              "      - run: setsid sleep 1000 & nohup sleep 999 >/dev/null 2>&1 & sleep 0.5\n")));
  repo.clone();
  auto r = run_launcher(repo.workspace());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, ::testing::ContainsRegex("left processes running; killed: "
                                                 "sleep \\([0-9]+\\), sleep \\([0-9]+\\)\n"));
  EXPECT_EQ(r.last_line(), "review-build-ok");
}

TEST_F(LauncherE2E, AStepIsCancelledAtItsTimeoutMinutes) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml",
             workflow(job("test",
                          "      - name: Hangs\n        timeout-minutes: 1\n"
                          "        run: sleep 600\n"
                          "      - name: Cleanup\n        if: always()\n"
                          "        run: echo cleanup-ran\n")));
  repo.clone();
  auto started = std::chrono::steady_clock::now();
  auto r = run_launcher(repo.workspace());
  auto took = std::chrono::steady_clock::now() - started;
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_EQ(r.last_line(),
            "review-build-failed: job 'test' step 2 'Hangs' was cancelled at its time limit "
            "(step timeout-minutes: 1)");
  EXPECT_THAT(r.output, HasSubstr("[test #3 Cleanup] cleanup-ran"));
  EXPECT_GE(took, std::chrono::seconds(60));
  EXPECT_LT(took, std::chrono::seconds(80));
}

TEST_F(LauncherE2E, TheJobTimeoutBoundsAllItsSteps) {
  ExampleRepo repo;
  repo.write(
      ".github/workflows/ci.yml",
      workflow(job("test", "      - run: sleep 40\n      - name: Second\n        run: sleep 600\n",
                   "    timeout-minutes: 1\n")));
  repo.clone();
  auto started = std::chrono::steady_clock::now();
  auto r = run_launcher(repo.workspace());
  auto took = std::chrono::steady_clock::now() - started;
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_EQ(r.last_line(),
            "review-build-failed: job 'test' step 3 'Second' was cancelled at its time limit "
            "(job 'test' timeout-minutes: 1)");
  EXPECT_LT(took, std::chrono::seconds(80));
}

// A setsid fork storm bounded by RLIMIT_NPROC (the sandbox user is not root, so the limit
// holds): killing process groups alone cannot end it. Every storm process holds a lock; the
// next job can take the lock only once all of them are dead.
TEST_F(LauncherE2E, ASetsidForkStormIsKilledBeforeTheNextJob) {
  ExampleRepo repo;
  repo.write(
      ".github/workflows/ci.yml",
      workflow(job("storm",
                   "      - run: |\n"
                   "          ulimit -u 150\n"
                   "          exec 9>/tmp/witness.lock\n"
                   "          flock 9\n"
                   "          setsid bash -c 'while :; do setsid bash -c \"sleep 1000\" "
                   "& done' 2>/dev/null &\n"
                   "          sleep 1\n") +
               job("check", "      - run: flock -n /tmp/witness.lock -c 'echo witness-free'\n",
                   "    needs: storm\n")));
  repo.clone();
  auto r = run_launcher(repo.workspace(), assigned_job("check"));
  EXPECT_EQ(r.exit_code, 0) << r.output.substr(0, 4000);
  EXPECT_THAT(r.output, HasSubstr("[check #2 run] witness-free"));
  EXPECT_THAT(r.output, HasSubstr("job 'storm' left processes running; killed: "));
  EXPECT_EQ(r.last_line(), "review-build-ok");
}

TEST_F(LauncherE2E, GithubEnvAndPathApplyToLaterStepsButAForbiddenKeyFails) {
  ExampleRepo repo;
  repo.write(
      ".github/workflows/ci.yml",
      workflow(
          job("test",
              "      - run: |\n"
              "          echo GREETING=hello >> \"$GITHUB_ENV\"\n"
              "          printf 'NOTE<<EOF\\nline 1\\nline 2\\nEOF\\n' >> \"$GITHUB_ENV\"\n"
              "          mkdir -p \"$RUNNER_TEMP/bin\" && echo \"$RUNNER_TEMP/bin\" >> "
              "\"$GITHUB_PATH\"\n"
              "          printf '#!/bin/sh\\necho tool-on-path\\n' > \"$RUNNER_TEMP/bin/mytool\"\n"
              "          chmod +x \"$RUNNER_TEMP/bin/mytool\"\n"
              "      - run: echo \"$GREETING / $NOTE\" && mytool\n"
              "      - name: Smuggle\n"
              "        run: echo BASH_ENV=/tmp/evil >> \"$GITHUB_ENV\"\n"
              "      - run: echo never-here\n")));
  repo.clone();
  auto r = run_launcher(repo.workspace());
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_THAT(r.output, HasSubstr("[test #3 run] hello / line 1"));
  EXPECT_THAT(r.output, HasSubstr("[test #3 run] line 2"));
  EXPECT_THAT(r.output, HasSubstr("[test #3 run] tool-on-path"));
  EXPECT_THAT(r.last_line(), StartsWith("review-build-failed: job 'test' step 4 'Smuggle' "
                                        "config-redirecting-env: "));
  EXPECT_THAT(r.output, ::testing::Not(HasSubstr("never-here")));
}

// Steps run as the launcher's user; the launcher makes itself non-dumpable so a step can neither
// read its memory and environment nor attach to it.
TEST_F(LauncherE2E, AStepCannotReadTheLaunchersMemory) {
  ExampleRepo repo;
  repo.write(
      ".github/workflows/ci.yml",
      workflow(
          job("test",
              "      - run: |\n"
              "          if cat /proc/$PPID/environ >/dev/null 2>&1; then echo environ-readable; "
              "else echo environ-protected; fi\n"
              "          if head -c1 /proc/$PPID/mem >/dev/null 2>&1; then echo mem-readable; "
              "else echo mem-protected; fi\n")));
  repo.clone();
  auto r = run_launcher(repo.workspace());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("environ-protected"));
  EXPECT_THAT(r.output, HasSubstr("mem-protected"));
}

// The Socket Firewall action is skipped; the image's sfw runs the wrapped command unwrapped.
TEST_F(LauncherE2E, ASkippedSocketFirewallLeavesAnSfwThatRunsTheCommand) {
  ExampleRepo repo;
  repo.write(
      ".github/workflows/ci.yml",
      workflow(job("test",
                   "      - uses: SocketDev/action@937f824ec476dfd164d4a4d9995751427b0be143\n"
                   "        with:\n          mode: firewall\n"
                   "      - run: sfw npm --version\n")));
  repo.clone();
  auto r = run_launcher(repo.workspace());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, ::testing::ContainsRegex("\\[test #3 run\\] [0-9]+\\.[0-9]+\\.[0-9]+"));
  EXPECT_EQ(r.last_line(), "review-build-ok");
}

// A workflow directory that is a link is refused before the planner reads anything through it,
// even a link inside the worktree (which the shape check accepts): GitHub reads workflows from
// the tree, where such a link is no directory.
TEST_F(LauncherE2E, ASymlinkedWorkflowDirectoryIsRefusedBeforePlanning) {
  ExampleRepo repo;
  repo.write("elsewhere/workflows/ci.yml",
             workflow(job("test", "      - run: echo planned-through-a-link\n")));
  repo.clone();
  std::filesystem::remove_all(repo.workspace() + "/.github");
  std::filesystem::create_directory_symlink("elsewhere", repo.workspace() + "/.github");
  auto r = run_launcher(repo.workspace());
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_EQ(r.last_line(),
            "review-build-refused: .github/workflows/ci.yml: workflow-symlink: cannot open "
            "'.github/workflows/ci.yml': '.github' is a symbolic link");
  EXPECT_THAT(r.output, ::testing::Not(HasSubstr("planned-through-a-link")));
  EXPECT_THAT(r.output, ::testing::Not(HasSubstr("reviewer: building job"))) << "planned first";
}

}  // namespace
}  // namespace reviewer::e2e
