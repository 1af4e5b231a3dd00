// Issue 14 finding 7: the assignment lives in PID 1's environment, and without Yama a step of
// PID 1's user can write PID 1's memory. The launcher says whether that is possible (a probe with
// a step's credentials), and a build in which a step rewrote the assignment fails. The attack is
// real: a step rewrites REVIEWER_CI_JOB in PID 1's memory through /proc/1/mem.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/e2e/e2e_support.h"
#include "tests/e2e/sandbox.h"

namespace reviewer::e2e {
namespace {

using ::testing::HasSubstr;

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

TEST_F(LauncherE2E, TheAssignmentIntegrityProbeSaysWhatAStepCanDo) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml", workflow(job("test", kStepTries)));
  repo.clone();
  auto r = run_launcher(repo.workspace());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  ASSERT_THAT(r.output, HasSubstr("reviewer: assignment-integrity: ")) << r.output;
  const bool step_could = r.output.find("STEP-MEM-WRITABLE") != std::string::npos;
  if (step_could) {
    EXPECT_THAT(r.output, HasSubstr("reviewer: assignment-integrity: unprotected (/proc/1/mem "
                                    "writable"));
  } else {
    EXPECT_THAT(r.output, HasSubstr("STEP-MEM-REFUSED"));
    EXPECT_THAT(r.output, ::testing::Not(HasSubstr("/proc/1/mem writable")));
  }
}

TEST_F(LauncherE2E, AStepThatRewritesTheAssignmentInPid1FailsTheBuild) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml", workflow(job("test", kRewrite)));
  repo.clone();
  auto r = run_launcher(repo.workspace());
  if (r.output.find("reviewer: assignment-integrity: protected") != std::string::npos) {
    GTEST_SKIP() << "PID 1's memory is out of a step's reach here: nothing to rewrite";
  }
  EXPECT_THAT(r.output, HasSubstr("REWRITTEN")) << r.output;
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_EQ(r.last_line(),
            "review-build-failed: assignment-changed: REVIEWER_CI_JOB in PID 1's environment "
            "changed during the build: a step wrote PID 1's memory")
      << r.output;
}

}  // namespace
}  // namespace reviewer::e2e
