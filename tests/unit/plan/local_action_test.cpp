// Local composite actions (`uses: ./path`) are inlined: their action file is read from the
// repository as hostile input, their inputs bound as the runner binds them, their steps planned by
// the same rules in their own scope, every refusal located in the file it is about.
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "core/plan/repository_files.h"
#include "tests/unit/plan/plan_test_support.h"

namespace reviewer::plan {
namespace {

using testing::kCheckout;

const std::string kFile = ".github/workflows/ci.yml";
const std::string kAction = ".github/actions/setup/action.yml";

// A workflow whose job `build` checks out and then calls `uses` with `with` (YAML lines at step
// depth, may be empty).
std::string calling(const std::string& uses, const std::string& with = "",
                    const std::string& more = "") {
  return "on: pull_request\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - "
         "uses: " +
         std::string(kCheckout) + "\n      - id: setup\n        uses: " + uses + "\n" + with + more;
}

// Plans job `build` of `workflow` over `files` (testing::plan_over_files).
std::string plan_with(const std::string& workflow, const std::map<std::string, std::string>& files,
                      std::optional<Plan>* out = nullptr) {
  return testing::plan_over_files(workflow, files, "build", out);
}

const std::string kComposite =
    "name: setup\n"
    "inputs:\n"
    "  greeting:\n"
    "    required: true\n"
    "  target:\n"
    "    default: world-${{ runner.os }}\n"
    "  unused:\n"
    "    required: true\n"
    "outputs:\n"
    "  said:\n"
    "    description: what it said\n"
    "    value: ${{ steps.say.outputs.text }}\n"
    "runs:\n"
    "  using: composite\n"
    "  steps:\n"
    "    - id: say\n"
    "      shell: bash\n"
    "      env:\n"
    "        WHO: ${{ inputs.target }}\n"
    "      run: echo \"${{ inputs.greeting }} $WHO from ${{ github.action_path }}\"\n"
    "    - if: inputs.unused == ''\n"
    "      shell: bash\n"
    "      working-directory: sub\n"
    "      continue-on-error: true\n"
    "      run: echo unused is empty\n"
    "    - uses: ./.github/actions/inner\n"
    "      with:\n"
    "        level: two\n";

const std::string kInner =
    "runs:\n  using: composite\n  steps:\n"
    "    - shell: bash\n      run: echo level ${{ inputs.level }}\n";

TEST(LocalAction, ItsStepsArePlannedInItsOwnScopeWithTheCallersInputs) {
  std::optional<Plan> plan;
  ASSERT_EQ(
      plan_with(calling("./.github/actions/setup", "        with:\n          greeting: hi\n"),
                {{kAction, kComposite}, {".github/actions/inner/action.yaml", kInner}}, &plan),
      "(planned)\n");
  const PlannedStep& caller = plan->jobs[0].steps[1];
  ASSERT_NE(caller.local, nullptr);
  EXPECT_EQ(caller.plugin, nullptr);
  EXPECT_EQ(caller.number, "2");
  const LocalAction& action = *caller.local;
  EXPECT_EQ(action.file, kAction);
  EXPECT_EQ(action.action_path, "/workspace/.github/actions/setup");
  ASSERT_EQ(action.inputs.size(), 3u);
  EXPECT_EQ(action.inputs[0].value, "hi");
  EXPECT_EQ(action.inputs[1].value, "world-Linux");  // the default, evaluated
  EXPECT_EQ(action.inputs[2].value, "");             // `required` is not enforced by the runner
  ASSERT_EQ(action.steps.size(), 3u);
  const PlannedStep& say = action.steps[0];
  EXPECT_EQ(say.number, "2.1");
  EXPECT_EQ(say.step.index, 1u);  // plugins see the action's steps where the caller stands
  EXPECT_EQ(say.step.run, "echo \"hi $WHO from /workspace/.github/actions/setup\"");
  EXPECT_EQ(say.step.env[0].value, "world-Linux");
  EXPECT_EQ(say.step.location.file, kAction);
  EXPECT_EQ(say.step.location.line, 16u);
  // Decided at plan time: the bound input is known.
  EXPECT_EQ(action.steps[1].condition.kind, Condition::Kind::kSuccess);
  EXPECT_TRUE(action.steps[1].step.continue_on_error);
  EXPECT_EQ(action.steps[1].step.working_directory, "sub");
  const PlannedStep& nested = action.steps[2];
  ASSERT_NE(nested.local, nullptr);
  EXPECT_EQ(nested.local->file, ".github/actions/inner/action.yaml");
  EXPECT_EQ(nested.local->steps[0].number, "2.3.1");
  EXPECT_EQ(nested.local->steps[0].step.run, "echo level two");
  ASSERT_EQ(action.outputs.size(), 1u);
  EXPECT_TRUE(action.outputs[0].run_time);
  EXPECT_EQ(action.outputs[0].value, "${{ steps.say.outputs.text }}");
}

TEST(LocalAction, TheJobsDefaultsDoNotReachItsSteps) {
  std::optional<Plan> plan;
  const std::string wf = calling("./.github/actions/inner", "        with:\n          level: 1\n");
  const std::string with_defaults = wf.substr(0, wf.find("    steps:")) +
                                    "    defaults:\n      run:\n        working-directory: "
                                    "app\n" +
                                    wf.substr(wf.find("    steps:"));
  ASSERT_EQ(plan_with(with_defaults, {{".github/actions/inner/action.yml", kInner}}, &plan),
            "(planned)\n");
  EXPECT_FALSE(plan->jobs[0].steps[1].local->steps[0].step.working_directory);
}

struct Refused {
  std::string name;
  std::string uses;
  std::map<std::string, std::string> files;
  std::string expected;
};

class LocalActionRefusals : public ::testing::TestWithParam<Refused> {};

TEST_P(LocalActionRefusals, AreNamedAndLocatedInTheirFile) {
  EXPECT_EQ(plan_with(calling(GetParam().uses), GetParam().files), GetParam().expected);
}

std::string composite(const std::string& steps) {
  return "runs:\n  using: composite\n  steps:\n" + steps;
}

// An action whose every one of `n` steps calls `next` (or runs, without one).
std::string fan(int n, const std::string& next) {
  std::string steps;
  for (int i = 0; i < n; ++i) {
    steps += next.empty() ? "    - shell: bash\n      run: echo " + std::to_string(i) + "\n"
                          : "    - uses: " + next + "\n";
  }
  return composite(steps);
}

std::map<std::string, std::string> nested(int depth) {
  std::map<std::string, std::string> files;
  for (int i = 0; i < depth; ++i) {
    files[".github/actions/a" + std::to_string(i) + "/action.yml"] =
        i + 1 < depth ? composite("    - uses: ./.github/actions/a" + std::to_string(i + 1) + "\n")
                      : fan(1, "");
  }
  return files;
}

INSTANTIATE_TEST_SUITE_P(
    Table, LocalActionRefusals,
    ::testing::Values(
        Refused{"Outside",
                "./../elsewhere",
                {},
                kFile + ":8:15: local-action-outside: 'uses' './../elsewhere' leaves the "
                        "repository; a local action is a directory inside it, as "
                        "./.github/actions/NAME\n"},
        Refused{"Missing",
                "./.github/actions/none",
                {},
                kFile + ":8:15: local-action-missing: the action './.github/actions/none' has no "
                        "'.github/actions/none/action.yml' or '.github/actions/none/action.yaml' "
                        "in the pull request's head\n"},
        Refused{"Symlink",
                "./.github/actions/setup",
                {{kAction, MemoryFiles::kSymlinkForTest}},
                kFile +
                    ":8:15: local-action-symlink: the action './.github/actions/setup' is "
                    "reached through a symbolic link ('" +
                    kAction +
                    "': Too many levels of symbolic links); the review reads the repository "
                    "without following links\n"},
        Refused{"NodeAction",
                "./.github/actions/setup",
                {{kAction, "runs:\n  using: node20\n  main: index.js\n"}},
                kAction + ":2:10: local-action-not-composite: '" + kAction +
                    "' runs 'node20'; only composite actions (steps) are inlined, a JavaScript "
                    "or Docker action runs a program the review cannot stand in for\n"},
        Refused{"RunWithoutShell",
                "./.github/actions/setup",
                {{kAction, composite("    - run: echo hi\n")}},
                kAction + ":4:7: invalid-local-action: a composite action's 'run' step needs "
                          "'shell' (GitHub requires it there); add shell: bash\n"},
        Refused{
            "TimeoutInAction",
            "./.github/actions/setup",
            {{kAction, composite("    - shell: bash\n      timeout-minutes: 5\n      run: x\n")}},
            kAction + ":5:7: invalid-local-action: step key 'timeout-minutes' is not allowed "
                      "in a composite action; the runner fails to load it\n"},
        Refused{"NoSteps",
                "./.github/actions/setup",
                {{kAction, "runs:\n  using: composite\n"}},
                kAction + ":2:3: invalid-local-action: '" + kAction +
                    "' is a composite action without a 'runs.steps' list\n"},
        Refused{"OtherShell",
                "./.github/actions/setup",
                {{kAction, composite("    - shell: sh\n      run: echo hi\n")}},
                kAction + ":4:14: non-bash-shell: only bash steps are reproduced; 'shell' is "
                          "'sh'\n"},
        Refused{"SecretsInAction",
                "./.github/actions/setup",
                {{kAction, composite("    - shell: bash\n      run: echo ${{ secrets.X }}\n")}},
                kAction + ":5:12: expression-invalid: the script: Unrecognized named-value: "
                          "'secrets' (at character 1) in 'secrets.X'\n"},
        Refused{"DefaultAtRunTime",
                "./.github/actions/setup",
                {{kAction, "inputs:\n  key:\n    default: ${{ hashFiles('x') }}\n" +
                               composite("    - shell: bash\n      run: echo\n")}},
                kAction + ":3:14: expression-at-run-time: the default of input 'key' reads "
                          "hashfiles(), known only while the job runs, but the review must know "
                          "it before\n"},
        Refused{"YamlInAction",
                "./.github/actions/setup",
                {{kAction, "runs:\n  using: composite\n  using: composite\n"}},
                kAction + ":3:3: yaml-duplicate-key: duplicate key 'using' (YAML "
                          "readers disagree on which value wins)\n"},
        Refused{"Cycle",
                "./.github/actions/setup",
                {{kAction, composite("    - uses: ./.github/actions/setup/\n")}},
                kAction +
                    ":4:13: local-action-cycle: the action './.github/actions/setup/' calls "
                    "itself: " +
                    kAction + " -> " + kAction +
                    "; the runner fails such a job at its nesting bound\n"},
        Refused{"TooDeep", "./.github/actions/a0", nested(10),
                ".github/actions/a8/action.yml:4:13: local-action-depth: 'uses' "
                "'./.github/actions/a9' nests local actions 10 deep; the runner fails a job whose "
                "composite actions nest deeper than 9\n"},
        Refused{"TooMany",
                "./.github/actions/setup",
                {{kAction, fan(40, "./.github/actions/b")},
                 {".github/actions/b/action.yml", fan(30, "")}},
                kAction + ":36:13: too-many-inlined-steps: inlining '.github/actions/b/action.yml' "
                          "takes the plan past 1000 steps of local actions; the review plans at "
                          "most that many\n"}),
    [](const auto& p) { return p.param.name; });

TEST(LocalAction, NineLevelsOfNestingAreTheRunnersBoundAndPlan) {
  EXPECT_EQ(plan_with(calling("./.github/actions/a0"), nested(9)), "(planned)\n");
}

TEST(LocalAction, WithoutARepositoryItIsRefusedAsMissing) {
  EXPECT_EQ(testing::plan_text(calling("./.github/actions/setup")),
            kFile +
                ":8:15: local-action-missing: the action './.github/actions/setup' cannot be "
                "read: the planner was given no repository to read it from\n");
}

// The worktree reader walks the directories without following a link and reads only regular
// files: a planted link or a directory named action.yml is refused by name.
class WorktreeActions : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = std::filesystem::temp_directory_path() /
            ("reviewer-local-action-" + std::to_string(::getpid()));
    std::filesystem::remove_all(root_);
    std::filesystem::create_directories(root_ / ".github/actions");
    std::filesystem::create_directories(root_ / "elsewhere");
    std::ofstream(root_ / "elsewhere/action.yml") << composite("    - shell: bash\n      run: x\n");
  }
  void TearDown() override { std::filesystem::remove_all(root_); }

  std::string plan_in_worktree() {
    const WorktreeFiles repo(root_.string());
    auto planned = plan::plan_text(calling("./.github/actions/setup"),
                                   {kFile, "build", "main", {}, false, &repo}, testing::registry());
    return planned ? "(planned)" : report::to_text(planned.error());
  }

  std::filesystem::path root_;
};

TEST_F(WorktreeActions, ADirectoryLinkIsRefused) {
  std::filesystem::create_directory_symlink(root_ / "elsewhere", root_ / ".github/actions/setup");
  EXPECT_EQ(plan_in_worktree(),
            kFile +
                ":8:15: local-action-symlink: the action './.github/actions/setup' is reached "
                "through a symbolic link ('" +
                kAction +
                "': 'setup' is a symbolic link); the review reads the repository "
                "without following links");
}

TEST_F(WorktreeActions, AFileLinkIsRefused) {
  std::filesystem::create_directories(root_ / ".github/actions/setup");
  std::filesystem::create_symlink(root_ / "elsewhere/action.yml", root_ / kAction);
  EXPECT_EQ(plan_in_worktree().substr(0, kFile.size() + 27), kFile + ":8:15: local-action-symlink");
}

TEST_F(WorktreeActions, ADirectoryNamedActionYmlIsRefused) {
  std::filesystem::create_directories(root_ / kAction);
  EXPECT_EQ(plan_in_worktree(), kFile + ":8:15: local-action-unreadable: the action file '" +
                                    kAction + "' cannot be read: not a regular file");
}

TEST_F(WorktreeActions, ARegularFileIsRead) {
  std::filesystem::create_directories(root_ / ".github/actions/setup");
  std::filesystem::copy_file(root_ / "elsewhere/action.yml", root_ / kAction);
  EXPECT_EQ(plan_in_worktree(), "(planned)");
}

}  // namespace
}  // namespace reviewer::plan
