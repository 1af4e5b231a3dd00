// Local reusable workflows (`jobs.<id>.uses: ./.github/workflows/x.yml`) are inlined: the called
// file is read from the repository as hostile input, its inputs bound with GitHub's types and
// rules, its jobs planned by the same rules in their own scope, every refusal located in the file
// it is about.
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "core/plan/called_workflow.h"
#include "core/plan/repository_files.h"
#include "tests/unit/plan/plan_test_support.h"

namespace reviewer::plan {
namespace {

using testing::kCheckout;

const std::string kFile = ".github/workflows/ci.yml";
const std::string kCalled = ".github/workflows/build.yml";

// A workflow whose job `call` calls `uses` with the job lines `more` (at job depth), and a job
// `after` that needs it and reads its output.
std::string calling(const std::string& uses, const std::string& more = "") {
  return "on: pull_request\n"
         "env:\n"
         "  CALLER_ONLY: yes-caller\n"
         "jobs:\n"
         "  call:\n"
         "    uses: " +
         uses + "\n" + more +
         "  after:\n"
         "    needs: call\n"
         "    runs-on: ubuntu-latest\n"
         "    steps:\n"
         "      - uses: " +
         kCheckout +
         "\n"
         "      - run: echo \"${{ needs.call.outputs.artifact }}\"\n";
}

// A reusable workflow with `inputs` (lines under on.workflow_call) and two jobs, `build` and
// `test` (which needs build).
std::string called(const std::string& spec) {
  return "on:\n"
         "  workflow_call:\n" +
         spec +
         "env:\n"
         "  MODE: ${{ inputs.mode }}\n"
         "jobs:\n"
         "  build:\n"
         "    runs-on: ubuntu-latest\n"
         "    outputs:\n"
         "      name: ${{ steps.b.outputs.name }}\n"
         "    steps:\n"
         "      - uses: " +
         kCheckout +
         "\n"
         "      - id: b\n"
         "        run: echo \"${{ inputs.mode }} ${{ inputs.count }} ${{ inputs.fast }} "
         "${{ github.job }} ${{ secrets.token }}\"\n"
         "  test:\n"
         "    needs: build\n"
         "    if: inputs.fast\n"
         "    runs-on: ubuntu-latest\n"
         "    steps:\n"
         "      - uses: " +
         kCheckout +
         "\n"
         "      - run: echo \"${{ needs.build.outputs.name }}\"\n";
}

const std::string kSpec =
    "    inputs:\n"
    "      mode:\n"
    "        type: string\n"
    "        required: true\n"
    "      count:\n"
    "        type: number\n"
    "        default: 3\n"
    "      fast:\n"
    "        type: boolean\n"
    "      label:\n"
    "        type: string\n"
    "        default: ${{ github.base_ref }}-label\n"
    "    secrets:\n"
    "      token:\n"
    "        required: false\n"
    "    outputs:\n"
    "      artifact:\n"
    "        value: ${{ jobs.build.outputs.name }}\n";

// Plans `workflow` (job `job`) over `files` (testing::plan_over_files).
std::string plan_with(const std::string& workflow, const std::map<std::string, std::string>& files,
                      std::optional<Plan>* out = nullptr, const std::string& job = "after") {
  return testing::plan_over_files(workflow, files, job, out);
}

TEST(CalledWorkflow, ItsJobsArePlannedInItsScopeWithTheCallersInputs) {
  std::optional<Plan> plan;
  ASSERT_EQ(plan_with(calling("./.github/workflows/build.yml",
                              "    with:\n      mode: release\n      fast: true\n"
                              "    secrets:\n      token: ${{ secrets.NPM_TOKEN }}\n"),
                      {{kCalled, called(kSpec)}}, &plan),
            "(planned)\n");
  ASSERT_EQ(plan->jobs.size(), 2u);
  const PlannedJob& call = plan->jobs[0];
  EXPECT_EQ(call.id, "call");
  EXPECT_TRUE(call.steps.empty());
  ASSERT_NE(call.called, nullptr);
  const CalledWorkflow& wf = *call.called;
  EXPECT_EQ(wf.file, kCalled);
  ASSERT_EQ(wf.inputs.size(), 4u);
  EXPECT_EQ(wf.inputs[0].name, "mode");
  EXPECT_EQ(wf.inputs[0].value, "release");
  EXPECT_EQ(wf.inputs[1].value, "true");
  EXPECT_EQ(wf.inputs[2].value, "3");           // the default
  EXPECT_EQ(wf.inputs[3].value, "main-label");  // an evaluated default
  ASSERT_EQ(wf.jobs.size(), 2u);
  EXPECT_EQ(wf.jobs[0].id, "build");
  EXPECT_EQ(wf.jobs[1].id, "test");
  EXPECT_EQ(wf.jobs[1].needs, std::vector<std::string>{"build"});
  // Typed inputs: `inputs.fast` is the boolean true, so the job's if: is decided now.
  EXPECT_EQ(wf.jobs[1].condition.kind, Condition::Kind::kSuccess);
  const PlannedStep& b = wf.jobs[0].steps[1];
  EXPECT_EQ(b.step.run, "echo \"release 3 true build \"");  // a fork PR's secret is empty
  EXPECT_EQ(b.step.location.file, kCalled);
  // The called workflow's env, not the caller's.
  ASSERT_EQ(wf.jobs[0].env.size(), 1u);
  EXPECT_EQ(wf.jobs[0].env[0].name, "MODE");
  EXPECT_EQ(wf.jobs[0].env[0].value, "release");
  ASSERT_EQ(wf.outputs.size(), 1u);
  EXPECT_TRUE(wf.outputs[0].run_time);
  EXPECT_EQ(wf.outputs[0].value, "${{ jobs.build.outputs.name }}");
  EXPECT_EQ(plan->jobs[1].needs, std::vector<std::string>{"call"});
  EXPECT_EQ(jobs_with_steps(plan->jobs).size(), 3u);
}

TEST(CalledWorkflow, AFalseBooleanInputDecidesTheCalledJobsIf) {
  std::optional<Plan> plan;
  ASSERT_EQ(plan_with(calling("./.github/workflows/build.yml", "    with:\n      mode: x\n"),
                      {{kCalled, called(kSpec)}}, &plan),
            "(planned)\n");
  // `fast` left out: false, GitHub's default for a boolean input.
  EXPECT_EQ(plan->jobs[0].called->jobs[1].condition.kind, Condition::Kind::kNever);
}

TEST(CalledWorkflow, TheHostsMatrixCombinationReachesTheCall) {
  std::optional<Plan> plan;
  const std::string wf = calling("./.github/workflows/build.yml",
                                 "    strategy:\n      matrix:\n        mode: [a, b]\n"
                                 "    with:\n      mode: ${{ matrix.mode }}\n");
  const MemoryFiles repo(std::map<std::string, std::string>{{kCalled, called(kSpec)}});
  auto planned = plan::plan_text(wf, {kFile, "call", "main", {{"mode", "b"}}, false, &repo},
                                 testing::registry());
  ASSERT_TRUE(planned) << report::to_text(planned.error());
  EXPECT_EQ(planned->jobs[0].matrix_label, "mode=b");
  EXPECT_EQ(planned->jobs[0].called->inputs[0].value, "b");
}

TEST(CalledWorkflow, ANestedCallIsInlinedInTurn) {
  std::optional<Plan> plan;
  const std::string inner =
      "on: workflow_call\njobs:\n  leaf:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: " +
      std::string(kCheckout) + "\n      - run: echo leaf\n";
  const std::string middle =
      "on: workflow_call\njobs:\n  deeper:\n    uses: ./.github/workflows/inner.yml\n";
  ASSERT_EQ(
      plan_with(calling("./.github/workflows/middle.yml"),
                {{".github/workflows/middle.yml", middle}, {".github/workflows/inner.yml", inner}},
                &plan),
      "(planned)\n");
  const PlannedJob& deeper = plan->jobs[0].called->jobs[0];
  ASSERT_NE(deeper.called, nullptr);
  EXPECT_EQ(deeper.called->jobs[0].id, "leaf");
}

struct Refused {
  std::string name;
  std::string uses;
  std::string more;  // job lines of the caller
  std::map<std::string, std::string> files;
  std::string expected;
};

class CalledWorkflowRefusals : public ::testing::TestWithParam<Refused> {};

TEST_P(CalledWorkflowRefusals, AreNamedAndLocatedInTheirFile) {
  EXPECT_EQ(plan_with(calling(GetParam().uses, GetParam().more), GetParam().files),
            GetParam().expected);
}

const std::string kSimple = called(kSpec);
const std::string kWith = "    with:\n      mode: x\n";

// `n` workflows, each calling the next; the last runs a step.
std::map<std::string, std::string> chain(int n) {
  std::map<std::string, std::string> files;
  for (int i = 0; i < n; ++i) {
    const std::string next = "./.github/workflows/w" + std::to_string(i + 1) + ".yml";
    files[".github/workflows/w" + std::to_string(i) + ".yml"] =
        i + 1 < n ? "on: workflow_call\njobs:\n  j:\n    uses: " + next + "\n"
                  : "on: workflow_call\njobs:\n  j:\n    runs-on: ubuntu-latest\n    steps:\n"
                    "      - uses: " +
                        std::string(kCheckout) + "\n";
  }
  return files;
}

// A workflow with 51 jobs, each calling its own (one-job) workflow.
std::map<std::string, std::string> fan_out(int n) {
  std::map<std::string, std::string> files;
  std::string jobs;
  for (int i = 0; i < n; ++i) {
    const std::string file = ".github/workflows/f" + std::to_string(i) + ".yml";
    jobs += "  j" + std::to_string(i) + ":\n    uses: ./" + file + "\n";
    files[file] = chain(1).begin()->second;
  }
  files[".github/workflows/fan.yml"] = "on: workflow_call\njobs:\n" + jobs;
  return files;
}

INSTANTIATE_TEST_SUITE_P(
    Table, CalledWorkflowRefusals,
    ::testing::Values(
        Refused{"Remote",
                "octo/ci/.github/workflows/build.yml@v1",
                "",
                {},
                kFile + ":6:11: reusable-workflow: job 'call' calls "
                        "'octo/ci/.github/workflows/build.yml@v1', a workflow of another "
                        "repository; the review reads only the pull request's own repository\n"},
        Refused{"Subdirectory",
                "./.github/workflows/sub/build.yml",
                "",
                {},
                kFile + ":6:11: reusable-workflow-call: job 'call' 'uses' is "
                        "'./.github/workflows/sub/build.yml'; a local reusable workflow is "
                        "called as ./.github/workflows/NAME.yml (no subdirectory, no @ref), as "
                        "GitHub requires\n"},
        Refused{"ForbiddenKey",
                "./.github/workflows/build.yml",
                "    runs-on: ubuntu-latest\n" + kWith,
                {{kCalled, kSimple}},
                kFile + ":7:5: reusable-workflow-call: job 'call' calls a reusable workflow, "
                        "where 'runs-on' is not allowed (only name, uses, with, secrets, "
                        "strategy, needs, if, concurrency and permissions); GitHub rejects the "
                        "workflow\n"},
        Refused{"Missing",
                "./.github/workflows/none.yml",
                "",
                {},
                kFile + ":6:11: reusable-workflow-missing: job 'call' calls "
                        "'.github/workflows/none.yml', which the pull request's head does not "
                        "hold\n"},
        Refused{"Symlink",
                "./.github/workflows/build.yml",
                kWith,
                {{kCalled, MemoryFiles::kSymlinkForTest}},
                kFile + ":6:11: reusable-workflow-symlink: the workflow '" + kCalled +
                    "' is reached through a symbolic link (Too many levels of symbolic links); "
                    "the review reads the repository without following links\n"},
        Refused{"NotCallable",
                "./.github/workflows/build.yml",
                kWith,
                {{kCalled, "on: push\njobs:\n  j:\n    runs-on: ubuntu-latest\n"}},
                kCalled + ":1:5: reusable-workflow-not-callable: '" + kCalled +
                    "' is not a reusable workflow: its 'on' has no workflow_call, and GitHub "
                    "fails a run that calls it\n"},
        Refused{"InputWithoutType",
                "./.github/workflows/build.yml",
                "",
                {{kCalled, called("    inputs:\n      mode:\n        required: false\n")}},
                kCalled + ":5:9: invalid-reusable-workflow: input 'mode' needs a 'type' of "
                          "boolean, number or string, as GitHub requires for workflow_call\n"},
        Refused{"RequiredInputLeftOut",
                "./.github/workflows/build.yml",
                "",
                {{kCalled, kSimple}},
                kFile +
                    ":6:5: reusable-workflow-input: job 'call' does not pass the required "
                    "input 'mode' of '" +
                    kCalled + "'; GitHub fails the run\n"},
        Refused{"UnknownInput",
                "./.github/workflows/build.yml",
                kWith + "      colour: red\n",
                {{kCalled, kSimple}},
                kFile + ":9:7: reusable-workflow-input: job 'call' passes input 'colour', which '" +
                    kCalled +
                    "' does not declare under on.workflow_call.inputs; GitHub fails the run\n"},
        Refused{"StringForBoolean",
                "./.github/workflows/build.yml",
                kWith + "      fast: 'true'\n",
                {{kCalled, kSimple}},
                kFile + ":9:13: reusable-workflow-input: input 'fast' is declared 'type: "
                        "boolean' but is given the string 'true'; GitHub fails the run "
                        "(\"Unexpected value\")\n"},
        Refused{"ExpressionForNumber",
                "./.github/workflows/build.yml",
                kWith + "      count: ${{ github.base_ref }}\n",
                {{kCalled, kSimple}},
                kFile + ":9:14: reusable-workflow-input: input 'count' is declared 'type: "
                        "number' but is given the string 'main'; GitHub fails the run "
                        "(\"Unexpected value\")\n"},
        Refused{"InputAtRunTime",
                "./.github/workflows/build.yml",
                "    with:\n      mode: ${{ needs.x.outputs.y }}\n",
                {{kCalled, kSimple}},
                kFile + ":8:13: expression-at-run-time: input 'mode' reads needs.x, known only "
                        "while the job runs, but the review must know it before\n"},
        Refused{"UndeclaredSecret",
                "./.github/workflows/build.yml",
                kWith + "    secrets:\n      other: x\n",
                {{kCalled, kSimple}},
                kFile +
                    ":10:7: reusable-workflow-secret: job 'call' passes secret 'other', "
                    "which '" +
                    kCalled +
                    "' does not declare under on.workflow_call.secrets; GitHub fails the run\n"},
        Refused{"RequiredSecretLeftOut",
                "./.github/workflows/build.yml",
                "",
                {{kCalled, called("    secrets:\n      token:\n        required: true\n")}},
                kFile +
                    ":6:5: reusable-workflow-secret: job 'call' does not pass the required "
                    "secret 'token' of '" +
                    kCalled + "'; GitHub fails the run\n"},
        Refused{"Cycle",
                "./.github/workflows/w0.yml",
                "",
                {{".github/workflows/w0.yml",
                  "on: workflow_call\njobs:\n  again:\n    uses: ./.github/workflows/ci.yml\n"}},
                ".github/workflows/w0.yml:4:11: reusable-workflow-cycle: job 'again' calls '" +
                    kFile + "', which is already calling: " + kFile +
                    " -> .github/workflows/w0.yml -> " + kFile +
                    "; GitHub permits no loop in the workflow tree\n"},
        Refused{"TooDeep", "./.github/workflows/w0.yml", "", chain(10),
                ".github/workflows/w8.yml:4:11: reusable-workflow-depth: job 'j' calls "
                "'.github/workflows/w9.yml' at level 11; GitHub connects at most 10 levels of "
                "workflows, the top-level caller included\n"},
        Refused{"TooMany", "./.github/workflows/fan.yml", "", fan_out(50),
                ".github/workflows/fan.yml:102:11: too-many-reusable-workflows: job 'j49' calls "
                "'.github/workflows/f49.yml', past the 50 unique reusable workflows GitHub lets "
                "one workflow file call\n"},
        Refused{"StepInTheCalledFile",
                "./.github/workflows/build.yml",
                "",
                {{kCalled,
                  "on: workflow_call\njobs:\n  j:\n    runs-on: ubuntu-latest\n"
                  "    steps:\n      - uses: " +
                      std::string(kCheckout) +
                      "\n      - run: echo x\n        shell: "
                      "sh\n"}},
                kCalled + ":8:16: non-bash-shell: only bash steps are reproduced; 'shell' is "
                          "'sh'\n"}),
    [](const auto& p) { return p.param.name; });

TEST(CalledWorkflow, TenLevelsAreGitHubsBoundAndPlan) {
  EXPECT_EQ(plan_with(calling("./.github/workflows/w0.yml"), chain(9)), "(planned)\n");
}

TEST(CalledWorkflow, WithoutARepositoryItIsRefusedAsMissing) {
  EXPECT_EQ(testing::plan_text(calling("./.github/workflows/build.yml"), "after"),
            kFile + ":6:11: reusable-workflow-missing: the workflow '" + kCalled +
                "' cannot be read: the planner was given no repository to read it from\n");
}

TEST(CalledWorkflow, ANeededCallersMatrixIsRefusedAsForAnyJob) {
  const std::string wf = calling("./.github/workflows/build.yml",
                                 "    strategy:\n      matrix:\n        mode: [a, b]\n"
                                 "    with:\n      mode: ${{ matrix.mode }}\n");
  const std::string out = plan_with(wf, {{kCalled, kSimple}});
  EXPECT_NE(out.find("matrix-in-needed-job: job 'call' is needed by 'after'"), std::string::npos)
      << out;
}

// The worktree reader reads only regular files: a directory named like the workflow is refused.
TEST(CalledWorkflow, ADirectoryInPlaceOfTheFileIsUnreadable) {
  const auto root = std::filesystem::temp_directory_path() /
                    ("reviewer-called-workflow-" + std::to_string(::getpid()));
  std::filesystem::remove_all(root);
  std::filesystem::create_directories(root / kCalled);
  const WorktreeFiles repo(root.string());
  auto planned = plan::plan_text(calling("./.github/workflows/build.yml"),
                                 {kFile, "after", "main", {}, false, &repo}, testing::registry());
  std::filesystem::remove_all(root);
  ASSERT_FALSE(planned);
  EXPECT_EQ(report::to_text(planned.error()),
            kFile + ":6:11: reusable-workflow-unreadable: the workflow '" + kCalled +
                "' cannot be read: not a regular file");
}

}  // namespace
}  // namespace reviewer::plan
