// A local reusable workflow, end to end in the run model: the launcher plans it again from the
// worktree, runs the called workflow's jobs where the calling job stands (in their own order, with
// their inputs and CI's gating), names them "caller / called", and hands the workflow's output to
// a later job of the caller; a failing called job fails the build.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/e2e/e2e_support.h"
#include "tests/e2e/sandbox.h"

namespace reviewer::e2e {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// Two jobs: `build` writes an output from its inputs, `test` needs it and reads it.
std::string called(const std::string& test_step) {
  return "on:\n"
         "  workflow_call:\n"
         "    inputs:\n"
         "      flavour:\n"
         "        type: string\n"
         "        required: true\n"
         "      rounds:\n"
         "        type: number\n"
         "        default: 2\n"
         "      loud:\n"
         "        type: boolean\n"
         "    outputs:\n"
         "      artifact:\n"
         "        value: ${{ jobs.build.outputs.name }}\n"
         "env:\n"
         "  CALLED_ENV: from-the-called-workflow\n"
         "jobs:\n" +
         job("test",
             "      - run: echo \"test saw ${{ needs.build.outputs.name }} loud=${{ inputs.loud "
             "}}\"\n" +
                 test_step,
             "    needs: build\n") +
         job("build",
             "      - id: b\n"
             "        run: |\n"
             "          echo \"building ${{ inputs.flavour }} x${{ inputs.rounds }} "
             "job=$GITHUB_JOB env=$CALLED_ENV caller=${CALLER_ENV:-unset}\"\n"
             "          echo \"name=pkg-${{ inputs.flavour }}\" >> \"$GITHUB_OUTPUT\"\n",
             "    outputs:\n      name: ${{ steps.b.outputs.name }}\n");
}

const char* const kCallerJobs =
    "  call:\n"
    "    uses: ./.github/workflows/build.yml\n"
    "    with:\n"
    "      flavour: vanilla\n"
    "      loud: true\n";

std::string caller_workflow() {
  return "name: ci\non:\n  pull_request:\n    branches: [main]\nenv:\n  CALLER_ENV: caller\n"
         "jobs:\n" +
         std::string(kCallerJobs) +
         job("after", "      - run: echo \"after got ${{ needs.call.outputs.artifact }}\"\n",
             "    needs: call\n");
}

TEST_F(LauncherE2E, ACalledWorkflowsJobsRunInOrderAndItsOutputReachesALaterJob) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml", caller_workflow());
  repo.write(".github/workflows/build.yml", called(""));
  repo.clone();
  SandboxRun run = assigned_job("after");
  run.after = "cat /tmp/review/report.json";
  auto r = run_launcher(repo.workspace(), run);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output,
              HasSubstr("reviewer: job 'call' calls .github/workflows/build.yml (2 jobs)"));
  // `build` runs first although `test` is declared first: its needs decide.
  const auto build = r.output.find("reviewer: job 'call / build' started");
  const auto test = r.output.find("reviewer: job 'call / test' started");
  const auto after = r.output.find("reviewer: job 'after' started");
  ASSERT_NE(build, std::string::npos) << r.output;
  ASSERT_NE(test, std::string::npos) << r.output;
  ASSERT_NE(after, std::string::npos) << r.output;
  EXPECT_LT(build, test);
  EXPECT_LT(test, after);
  // Typed inputs and defaults, the called workflow's env (not the caller's), GITHUB_JOB.
  EXPECT_THAT(r.output, HasSubstr("] building vanilla x2 job=build env=from-the-called-workflow "
                                  "caller=unset\n"));
  EXPECT_THAT(r.output, HasSubstr("] test saw pkg-vanilla loud=true\n"));
  EXPECT_THAT(r.output, HasSubstr("[call / build #2 run]"));
  // The workflow's output, through the calling job, to the job that needs it.
  EXPECT_THAT(r.output, HasSubstr("] after got pkg-vanilla\n"));
  EXPECT_THAT(r.after, HasSubstr("\"id\": \"call / test\""));
  EXPECT_THAT(r.after, HasSubstr("\"calls\""));
  EXPECT_EQ(r.last_line(), "review-build-ok");
}

TEST_F(LauncherE2E, AFailingCalledJobFailsTheBuildAndTheJobsAfterIt) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml", caller_workflow());
  repo.write(".github/workflows/build.yml",
             called("      - run: exit 7\n      - if: failure()\n        run: echo saw-failure\n"));
  repo.clone();
  auto r = run_launcher(repo.workspace(), assigned_job("after"));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_THAT(r.output, HasSubstr("] saw-failure\n"));
  EXPECT_THAT(r.output, HasSubstr("reviewer: job 'call' failed"));
  EXPECT_THAT(r.output,
              HasSubstr("reviewer: job 'after' not run (a job it needs did not succeed)"));
  EXPECT_THAT(r.output, Not(HasSubstr("] after got")));
  EXPECT_THAT(r.last_line(), HasSubstr("review-build-failed: job 'call / test' step 3 'run' "
                                       "exited 7"));
}

TEST_F(LauncherE2E, ACallWithAMissingRequiredInputIsRefusedInTheSandbox) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml",
             workflow("  call:\n    uses: ./.github/workflows/build.yml\n"));
  repo.write(".github/workflows/build.yml", called(""));
  repo.clone();
  auto r = run_launcher(repo.workspace(), assigned_job("call"));
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_THAT(r.last_line(),
              HasSubstr("review-build-refused: .github/workflows/ci.yml:7:5: "
                        "reusable-workflow-input: job 'call' does not pass the required input "
                        "'flavour'"));
}

}  // namespace
}  // namespace reviewer::e2e
