// A local composite action, end to end in the run model: the launcher plans it again from the
// worktree, runs its steps in the action's scope (its inputs, github.action_path, its own steps
// and outputs, the caller's env) and hands its outputs and GITHUB_ENV to the job's later steps.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "tests/e2e/e2e_support.h"
#include "tests/e2e/sandbox.h"

namespace reviewer::e2e {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const char* const kGreet =
    "name: greet\n"
    "inputs:\n"
    "  name:\n"
    "    required: true\n"
    "  punctuation:\n"
    "    default: '!'\n"
    "outputs:\n"
    "  said:\n"
    "    value: ${{ steps.say.outputs.text }}\n"
    "runs:\n"
    "  using: composite\n"
    "  steps:\n"
    "    - id: say\n"
    "      shell: bash\n"
    "      run: |\n"
    "        echo \"hello ${{ inputs.name }}${{ inputs.punctuation }} caller=$CALLER\"\n"
    "        echo \"path=$GITHUB_ACTION_PATH\"\n"
    "        echo \"text=hi-${{ inputs.name }}\" >> \"$GITHUB_OUTPUT\"\n"
    "        echo GREETED=yes >> \"$GITHUB_ENV\"\n"
    "    - shell: bash\n"
    "      run: bash \"${{ github.action_path }}/helper.sh\" \"${{ steps.say.outputs.text }}\"\n"
    "    - if: failure()\n"
    "      shell: bash\n"
    "      run: echo action-failure-step\n";

const char* const kCaller =
    "      - id: greet\n"
    "        uses: ./.github/actions/greet\n"
    "        env:\n"
    "          CALLER: from-the-workflow\n"
    "        with:\n"
    "          name: review\n"
    "      - run: echo \"said=${{ steps.greet.outputs.said }} greeted=$GREETED\"\n";

TEST_F(LauncherE2E, ALocalCompositeActionRunsItsStepsInItsOwnScope) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml", workflow(job("test", kCaller)));
  repo.write(".github/actions/greet/action.yml", kGreet);
  repo.write(".github/actions/greet/helper.sh", "echo \"helper ran with $1 in $PWD\"\n");
  repo.clone();
  SandboxRun run = assigned_job("test");
  run.after = "cat /tmp/review/report.json";
  auto r = run_launcher(repo.workspace(), run);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_THAT(r.output, HasSubstr("[test #2 ./.github/actions/greet] runs the local action "
                                  ".github/actions/greet/action.yml (3 steps)"));
  EXPECT_THAT(r.output, HasSubstr("] hello review! caller=from-the-workflow\n"));
  EXPECT_THAT(r.output, HasSubstr("] path=/workspace/.github/actions/greet\n"));
  EXPECT_THAT(r.output, HasSubstr("] helper ran with hi-review in /workspace\n"));
  EXPECT_THAT(r.output, Not(HasSubstr("] action-failure-step")));
  // The action's output and its GITHUB_ENV reach the job's next step.
  EXPECT_THAT(r.output, HasSubstr("] said=hi-review greeted=yes\n"));
  EXPECT_THAT(r.after, HasSubstr("\"number\": \"2.1\""));
  EXPECT_EQ(r.last_line(), "review-build-ok");
}

TEST_F(LauncherE2E, AFailingStepOfALocalActionFailsTheCallerUnlessItContinuesOnError) {
  const std::string action =
      "runs:\n  using: composite\n  steps:\n"
      "    - shell: bash\n      run: exit 5\n"
      "    - shell: bash\n      run: echo after-the-failure\n"
      "    - if: failure()\n      shell: bash\n      run: echo the-action-saw-its-failure\n";
  {
    ExampleRepo repo;
    repo.write(".github/workflows/ci.yml", workflow(job("test",
                                                        "      - uses: ./.github/actions/fail\n"
                                                        "      - run: echo job-went-on\n")));
    repo.write(".github/actions/fail/action.yml", action);
    repo.clone();
    auto r = run_launcher(repo.workspace(), assigned_job("test"));
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_THAT(r.output, Not(HasSubstr("] after-the-failure")));
    EXPECT_THAT(r.output, HasSubstr("] the-action-saw-its-failure\n"));
    EXPECT_THAT(r.output, Not(HasSubstr("] job-went-on")));
    EXPECT_THAT(r.last_line(), HasSubstr("review-build-failed: job 'test' step 2"));
    EXPECT_THAT(r.last_line(), HasSubstr("step 2.1 'run' exited 5"));
  }
  {
    ExampleRepo repo;
    repo.write(".github/workflows/ci.yml",
               workflow(job("test",
                            "      - id: f\n        continue-on-error: true\n"
                            "        uses: ./.github/actions/fail\n"
                            "      - run: echo \"job-went-on ${{ steps.f.outcome }}\"\n")));
    repo.write(".github/actions/fail/action.yml", action);
    repo.clone();
    auto r = run_launcher(repo.workspace(), assigned_job("test"));
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_THAT(r.output, HasSubstr("(continue-on-error: tolerated)"));
    EXPECT_THAT(r.output, HasSubstr("] job-went-on failure\n"));
    EXPECT_EQ(r.last_line(), "review-build-ok");
  }
}

TEST_F(LauncherE2E, ALocalActionFileThatIsALinkIsRefusedInTheSandbox) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml",
             workflow(job("test", "      - uses: ./.github/actions/greet\n")));
  repo.write("elsewhere.yml", "runs:\n  using: composite\n  steps: []\n");
  std::filesystem::create_directories(repo.source() + "/.github/actions/greet");
  std::filesystem::create_symlink("../../../elsewhere.yml",
                                  repo.source() + "/.github/actions/greet/action.yml");
  repo.clone();
  auto r = run_launcher(repo.workspace(), assigned_job("test"));
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_THAT(r.output, HasSubstr("local-action-symlink"));
  EXPECT_THAT(r.last_line(), HasSubstr("review-build-refused: .github/workflows/ci.yml:10:15: "
                                       "local-action-symlink: the action"));
}

}  // namespace
}  // namespace reviewer::e2e
