// Issue 14 finding 7: the assignment lives in PID 1's environment, and without Yama a step of
// PID 1's user can write PID 1's memory. So PID 1 runs as root and the launcher, started as root,
// becomes the steps' user before anything runs; it still says whether a step could reach PID 1
// (a probe with a step's credentials), and a build in which a step rewrote the assignment fails.
// The attack is real: a step rewrites REVIEWER_CI_JOB in PID 1's memory through /proc/1/mem.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "tests/e2e/e2e_support.h"
#include "tests/e2e/sandbox.h"

namespace reviewer::e2e {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// A step that says whether it can open PID 1's memory for writing, as the probe tried.
constexpr const char* kStepTries =
    "      - run: python3 -c \"open('/proc/1/mem', 'r+b'); print('STEP-MEM-WRITABLE')\" || "
    "echo STEP-MEM-REFUSED\n";

// Rewrites `REVIEWER_CI_JOB=test` to `=lint` in PID 1's environment, in place.
constexpr const char* kRewrite =
    "      - run: |\n"
    "          python3 - <<'PY'\n"
    "          stat = open('/proc/1/stat').read()\n"
    "          env_start = int(stat[stat.rindex(')') + 2:].split()[47])\n"
    "          env = open('/proc/1/environ', 'rb').read()\n"
    "          at = env.index(b'REVIEWER_CI_JOB=test') + len('REVIEWER_CI_JOB=')\n"
    "          with open('/proc/1/mem', 'r+b') as mem:\n"
    "              mem.seek(env_start + at)\n"
    "              mem.write(b'lint')\n"
    "          print('REWRITTEN')\n"
    "          PY\n";

// Rewrites REVIEWER_CI_JOB in PID 1's memory, or says that it could not.
std::string rewrite_or_say_denied() {
  std::string step = kRewrite;
  const std::string heredoc = "python3 - <<'PY'";
  step.insert(step.find(heredoc) + heredoc.size(), " || echo REWRITE-DENIED");
  return step;
}

// The host's layout (reviewer review, and the sandbox these tests build by default): PID 1 is
// root and the launcher gives root up before any step, so no step reaches PID 1's memory.
TEST_F(LauncherE2E, NoStepCanWritePid1sMemory) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml",
             workflow(job("test", std::string(kStepTries) + rewrite_or_say_denied())));
  repo.clone();
  auto r = run_launcher(repo.workspace());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("reviewer: assignment-integrity: protected\n")) << r.output;
  EXPECT_THAT(r.output, HasSubstr("STEP-MEM-REFUSED"));
  EXPECT_THAT(r.output, HasSubstr("REWRITE-DENIED"));
  EXPECT_THAT(r.output, Not(HasSubstr("STEP-MEM-WRITABLE")));
  EXPECT_THAT(r.output, Not(HasSubstr("REWRITTEN")));
  EXPECT_EQ(r.last_line(), "review-build-ok") << r.output;
}

// Started as root, the launcher runs no step as root: each runs as the image's user with no
// capability and no way to gain one.
TEST_F(LauncherE2E, StepsRunAsTheSandboxUserWithoutCapabilities) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml",
             workflow(job("test",
                          "      - run: echo \"ids $(id -u):$(id -g):$(id -G)\"; grep -E "
                          "'^(CapPrm|CapEff|CapAmb|NoNewPrivs):' /proc/self/status\n")));
  repo.clone();
  auto r = run_launcher(repo.workspace());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("ids 1000:1000:1000\n"));
  EXPECT_THAT(r.output, HasSubstr("CapPrm:\t0000000000000000\n"));
  EXPECT_THAT(r.output, HasSubstr("CapEff:\t0000000000000000\n"));
  EXPECT_THAT(r.output, HasSubstr("CapAmb:\t0000000000000000\n"));
  EXPECT_THAT(r.output, HasSubstr("NoNewPrivs:\t1\n"));
}

// A host that runs PID 1 as the steps' user: the probe says so, and a step that rewrites the
// assignment fails the build it ran in.
TEST_F(LauncherE2E, TheProbeSaysWhenPid1IsTheStepsUser) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml", workflow(job("test", kStepTries)));
  repo.clone();
  SandboxRun run;
  run.pid1_as_steps = true;
  auto r = run_launcher(repo.workspace(), run);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("STEP-MEM-WRITABLE"));
  EXPECT_THAT(r.output, HasSubstr("reviewer: assignment-integrity: unprotected (/proc/1/mem "
                                  "writable, ptrace attach)\n"));
}

TEST_F(LauncherE2E, AStepThatRewritesTheAssignmentInPid1FailsTheBuild) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml", workflow(job("test", kRewrite)));
  repo.clone();
  SandboxRun run;
  run.pid1_as_steps = true;
  auto r = run_launcher(repo.workspace(), run);
  EXPECT_THAT(r.output, HasSubstr("REWRITTEN")) << r.output;
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_EQ(r.last_line(),
            "review-build-failed: assignment-changed: REVIEWER_CI_JOB in PID 1's environment "
            "changed during the build: a step wrote PID 1's memory")
      << r.output;
}

}  // namespace
}  // namespace reviewer::e2e
