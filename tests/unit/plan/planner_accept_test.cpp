// Accepted workflows exercising every allowed form, and what the plan carries.
#include <gtest/gtest.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/unit/plan/plan_test_support.h"

namespace reviewer::plan {
namespace {

using testing::kCheckout;
using testing::plan_text;

const std::string kJob = std::string("jobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n") +
                         "      - uses: " + kCheckout + "\n      - run: make\n";

struct Accepted {
  const char* name;
  std::string workflow;
  std::string base = "main";
};

class AcceptedForm : public ::testing::TestWithParam<Accepted> {};

TEST_P(AcceptedForm, Plans) {
  testing::dump_seed(std::string("accept_") + GetParam().name, GetParam().workflow);
  EXPECT_EQ(plan_text(GetParam().workflow, "build", GetParam().base), "(planned)\n");
}

const Accepted kForms[] = {
    {"OnString", "on: pull_request\n" + kJob},
    {"OnList", "on: [push, pull_request]\n" + kJob},
    {"OnBlockList", "on:\n  - push\n  - pull_request\n" + kJob},
    {"OnMappingNull", "on:\n  push:\n  pull_request:\n" + kJob},
    {"OnMappingEmpty", "on:\n  pull_request: {}\n" + kJob},
    {"BranchName", "on:\n  pull_request:\n    branches: main\n" + kJob},
    {"BranchList", "on:\n  pull_request:\n    branches: [develop, main]\n" + kJob},
    {"BranchGlob", "on:\n  pull_request:\n    branches: ['releases/**']\n" + kJob,
     "releases/v1/rc"},
    {"BranchStar", "on:\n  pull_request:\n    branches: ['ma*']\n" + kJob},
    {"BranchClass", "on:\n  pull_request:\n    branches: ['[lm]ain']\n" + kJob},
    {"BranchNegatedClassElsewhere",
     "on:\n  pull_request:\n    branches: [main, 4.x, '!v[0-9]*']\n" + kJob},
    {"BranchNegatedThenReadmitted",
     "on:\n  pull_request:\n    branches: ['**', '!ma*', main]\n" + kJob},
    {"BranchUndecidableButRuledOut",
     "on:\n  pull_request:\n    branches: [main, 'release-v?.+']\n" + kJob},
    {"BranchesIgnoreOthers",
     "on:\n  pull_request:\n    branches-ignore: [gh-pages, 'dependabot/**', 'x?y']\n" + kJob},
    {"Types", "on:\n  pull_request:\n    types: [opened, synchronize, labeled]\n" + kJob},
    {"TypesSingle", "on:\n  pull_request:\n    types: synchronize\n" + kJob},
    {"Paths", "on:\n  pull_request:\n    paths: ['src/**']\n" + kJob},
    {"PathsIgnore", "on:\n  pull_request:\n    paths-ignore: ['**.md']\n" + kJob},
    {"TopLevelDisplayAndCiFields",
     "name: CI ${{ github.ref }}\nrun-name: Build ${{ github.actor }}\non: pull_request\n"
     "permissions:\n  contents: read\nconcurrency:\n  group: ci-${{ github.ref }}\n"
     "  cancel-in-progress: true\n" +
         kJob},
    {"PermissionsString", "on: pull_request\npermissions: read-all\nconcurrency: ci\n" + kJob},
    {"WorkflowDefaultsAndEnv",
     "on: pull_request\nenv:\n  NODE_ENV: test\n  FORCE_COLOR: 1\n  EMPTY:\ndefaults:\n  run:\n"
     "    shell: bash\n    working-directory: packages/app\n" +
         kJob},
    {"JobForms",
     std::string("on: pull_request\njobs:\n  build:\n    name: Build ${{ matrix.x }}\n") +
         "    runs-on: [ubuntu-24.04]\n    timeout-minutes: 30\n    if: ${{ success() }}\n"
         "    permissions: {contents: read}\n    concurrency: {group: x, cancel-in-progress: "
         "false}\n    strategy:\n      fail-fast: false\n    env:\n      TZ: UTC\n"
         "    defaults:\n      run:\n        shell: bash\n        working-directory: sub/dir\n"
         "    steps:\n      - uses: " +
         kCheckout + "\n      - run: make\n"},
    // A fork pull request's secret evaluates to nothing: an empty credential carries none.
    {"EmptyCredentials",
     "on: pull_request\nenv:\n  CODECOV_TOKEN: ${{ secrets.CODECOV_TOKEN }}\n  NPM_TOKEN: ''\n" +
         kJob},
    {"MatrixCombination",
     std::string("on: pull_request\njobs:\n  build:\n    runs-on: ${{ matrix.os }}\n") +
         "    strategy:\n      matrix:\n        os: [ubuntu-latest]\n"
         "    steps:\n      - uses: " +
         kCheckout + "\n      - run: echo ${{ matrix.os }}\n        if: runner.os == 'Linux'\n"},
    {"JobAlways",
     "on: pull_request\njobs:\n  build:\n    runs-on: ubuntu-latest\n    if: always()\n"
     "    steps:\n      - uses: " +
         std::string(kCheckout) + "\n"},
    {"StepForms",
     std::string("on: pull_request\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n") +
         "      - name: Checkout ${{ github.sha }}\n        id: co\n        uses: " + kCheckout +
         "\n        if: success()\n        with:\n          fetch-depth: 0\n"
         "          persist-credentials: false\n        env:\n          A: b\n"
         "      - id: build\n        name: Build\n        run: |\n          make\n"
         "          make test\n        shell: bash\n        working-directory: ./src\n"
         "        timeout-minutes: 10\n        if: ${{ always() }}\n        env:\n"
         "          LANG: C.UTF-8\n"},
    {"Anchors",
     "on: pull_request\njobs:\n  build:\n    runs-on: &os ubuntu-latest\n    steps: &steps\n"
     "      - uses: " +
         std::string(kCheckout) +
         "\n      - run: make\n  other:\n    runs-on: *os\n    steps: *steps\n"},
};

INSTANTIATE_TEST_SUITE_P(Forms, AcceptedForm, ::testing::ValuesIn(kForms),
                         [](const auto& p) { return std::string(p.param.name); });

const std::string& form(const std::string& name) {
  for (const auto& f : kForms) {
    if (name == f.name) {
      return f.workflow;
    }
  }
  ADD_FAILURE() << "no form " << name;
  return kForms[0].workflow;
}

nlohmann::json plan_json(const std::string& wf, const std::string& job = "build") {
  testing::Planned r;
  EXPECT_EQ(plan_text(wf, job, "main", &r), "(planned)\n");
  if (!r.plan) {
    return {};
  }
  return to_json(*r.plan);
}

TEST(PlanCarries, TimeoutsFetchDepthAndDefaults) {
  auto j = plan_json(form("StepForms"));
  const auto& job = j["jobs"][0];
  EXPECT_EQ(job["timeout_minutes"], 360);  // the default
  EXPECT_EQ(job["fetch_depth"], 0);
  EXPECT_EQ(job["steps"][0]["decision"], "skip");
  EXPECT_EQ(job["steps"][1]["decision"], "run");
  EXPECT_EQ(job["steps"][1]["timeout_minutes"], 10);
  EXPECT_EQ(job["steps"][1]["shell"], "bash");
  EXPECT_EQ(job["steps"][1]["working_directory"], "./src");
  EXPECT_EQ(job["steps"][1]["if"], "${{ always() }}");
  EXPECT_EQ(job["steps"][1]["env"][0]["name"], "LANG");
  EXPECT_EQ(job["steps"][1]["location"]["line"], 15);
}

TEST(PlanCarries, JobFieldsAndInheritedDefaults) {
  auto j = plan_json(form("JobForms"));
  const auto& job = j["jobs"][0];
  EXPECT_EQ(job["timeout_minutes"], 30);
  EXPECT_EQ(job["if"], "${{ success() }}");
  EXPECT_EQ(job["fetch_depth"], 1);
  EXPECT_EQ(job["env"][0]["name"], "TZ");
  EXPECT_EQ(job["steps"][1]["working_directory"], "sub/dir");
  auto w = plan_json(form("WorkflowDefaultsAndEnv"));
  EXPECT_EQ(w["jobs"][0]["env"].size(), 3u);
  EXPECT_EQ(w["jobs"][0]["env"][2]["value"], "");
  EXPECT_EQ(w["jobs"][0]["steps"][1]["working_directory"], "packages/app");
  EXPECT_EQ(plan_json(form("JobAlways"))["jobs"][0]["if"], "always()");
}

TEST(PlanCarries, JobEnvOverridesWorkflowEnv) {
  auto j = plan_json("on: pull_request\nenv:\n  A: 1\n  B: 2\n" +
                     std::string("jobs:\n  build:\n    runs-on: ubuntu-latest\n    env:\n") +
                     "      B: 3\n    steps:\n      - uses: " + kCheckout + "\n");
  ASSERT_EQ(j["jobs"][0]["env"].size(), 2u);
  EXPECT_EQ(j["jobs"][0]["env"][1]["value"], "3");
}

TEST(PlanCarries, AlwaysJobsAndNeedsInDependencyOrder) {
  const std::string step =
      std::string("    runs-on: ubuntu-latest\n    steps:\n      - uses: ") + kCheckout + "\n";
  const std::string wf =
      "on: pull_request\njobs:\n  build:\n    needs: [test, lint]\n    if: "
      "always()\n" +
      step + "  unrelated:\n" + step + "  lint:\n    needs: setup\n" + step +
      "  test:\n    needs: setup\n" + step + "  setup:\n" + step;
  auto j = plan_json(wf);
  std::vector<std::string> order;
  for (const auto& job : j["jobs"]) {
    order.push_back(job["id"]);
  }
  // Dependencies first; among ready jobs, declaration order (lint before test).
  EXPECT_EQ(order, (std::vector<std::string>{"setup", "lint", "test", "build"}));
  EXPECT_EQ(j["jobs"][3]["if"], "always()");
  EXPECT_EQ(j["jobs"][3]["needs"], (std::vector<std::string>{"test", "lint"}));
}

TEST(PlanCarries, NeedsMatchJobIdsWithoutRegardToCaseAsDeclared) {
  const std::string step =
      std::string("    runs-on: ubuntu-latest\n    steps:\n      - uses: ") + kCheckout + "\n";
  auto j = plan_json("on: pull_request\njobs:\n  Lint:\n" + step + "  build:\n    needs: [lint]\n" +
                     step);
  ASSERT_EQ(j["jobs"].size(), 2u);
  EXPECT_EQ(j["jobs"][0]["id"], "Lint");
  // The job loop gates on declared ids.
  EXPECT_EQ(j["jobs"][1]["needs"], (std::vector<std::string>{"Lint"}));
  // The host names a job exactly.
  EXPECT_EQ(plan_text("on: pull_request\njobs:\n  Lint:\n" + step, "lint"),
            ".github/workflows/ci.yml:3:3: job-not-found: the workflow has no job 'lint'\n");
}

TEST(PlanCarries, JobTimeoutsAboveTheRunnersLimitAreThatLimit) {
  auto j = plan_json(
      "on: pull_request\njobs:\n  build:\n    runs-on: ubuntu-latest\n"
      "    timeout-minutes: 999999\n    steps:\n      - uses: " +
      std::string(kCheckout) + "\n");
  EXPECT_EQ(j["jobs"][0]["timeout_minutes"], 360);
  EXPECT_EQ(j["jobs"][0]["timeout_minutes_written"], 999999);
  auto at = plan_json(
      "on: pull_request\njobs:\n  build:\n    runs-on: ubuntu-latest\n"
      "    timeout-minutes: 360\n    steps:\n      - uses: " +
      std::string(kCheckout) + "\n");
  EXPECT_EQ(at["jobs"][0]["timeout_minutes"], 360);
  EXPECT_FALSE(at["jobs"][0].contains("timeout_minutes_written"));
}

TEST(PlanCarries, CanonicalNumbersAndQuotedValuesStayTextBooleansGoOnAsGitHubSpellsThem) {
  auto j = plan_json(
      "on: pull_request\nenv:\n  A: 20\n  B: '1.20'\n  C: 0.5\n  D: True\n"
      "  E: yes\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n"
      "      - uses: " +
      std::string(kCheckout) + "\n");
  std::string values;
  for (const auto& e : j["jobs"][0]["env"]) {
    values += e["value"].get<std::string>() + " ";
  }
  // A boolean goes on in GitHub's spelling, as a step on GitHub would see it.
  EXPECT_EQ(values, "20 1.20 0.5 true yes ");
}

}  // namespace
}  // namespace reviewer::plan

namespace reviewer::plan {
namespace {

// Regression: the plugins' workflow-wide view was built once per planned job, which made a long
// `needs` chain quadratic (16 s for 2,000 jobs in a Debug build).
TEST(PlanScales, LongNeedsChainIsPlannedQuickly) {
  std::string wf = "on: pull_request\njobs:\n";
  const std::string job =
      std::string("{runs-on: ubuntu-latest, steps: [{uses: ") + kCheckout + "}]";
  wf += "  j0: " + job + "}\n";
  for (int i = 1; i < 1500; ++i) {
    wf += "  j" + std::to_string(i) + ": " + job + ", needs: j" + std::to_string(i - 1) + "}\n";
  }
  const auto start = std::chrono::steady_clock::now();
  testing::Planned r;
  EXPECT_EQ(plan_text(wf, "j1499", "main", &r), "(planned)\n");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(3));
  ASSERT_TRUE(r.plan.has_value());
  EXPECT_EQ(r.plan->jobs.size(), 1500u);
  EXPECT_EQ(r.plan->jobs.front().id, "j0");
}

}  // namespace
}  // namespace reviewer::plan

namespace reviewer::plan {
namespace {

// A release tag is planned under every reviewed release of its line and taken as the newest;
// --pinned-only keeps the reference spec's rule (reviewed SHAs only).
TEST(ReleaseTags, AMajorTagIsTakenAsTheNewestReviewedReleaseOfItsLine) {
  const std::string wf =
      "on: pull_request\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n"
      "      - uses: actions/checkout@v4\n      - run: make\n";
  auto planned = reviewer::plan::plan_text(wf, {".github/workflows/ci.yml", "build", "main"},
                                           testing::registry());
  ASSERT_TRUE(planned) << report::to_text(planned.error());
  EXPECT_EQ(planned->jobs[0].steps[0].release, "v4.4.0");
  EXPECT_TRUE(planned->jobs[0].steps[0].skip);
  // The plugin executes the release the plan took, by its SHA (a ref 'v4' would be no release
  // the plugin knows), and the tag as written is kept for the log.
  EXPECT_EQ(planned->jobs[0].steps[0].step.ref, "11d5960a326750d5838078e36cf38b85af677262");
  EXPECT_EQ(planned->jobs[0].steps[0].tag, "v4");
  // ... as of the date the plugin's releases were checked against the action's tags.
  EXPECT_EQ(planned->jobs[0].steps[0].reviewed_on, "2026-12-02");
  EXPECT_EQ(to_json(*planned)["jobs"][0]["steps"][0]["reviewed_on"], "2026-12-02");
  auto minor = reviewer::plan::plan_text(
      wf.substr(0, wf.find("@v4")) + "@v4.3" + wf.substr(wf.find("@v4") + 3),
      {".github/workflows/ci.yml", "build", "main"}, testing::registry());
  ASSERT_TRUE(minor) << report::to_text(minor.error());
  EXPECT_EQ(minor->jobs[0].steps[0].release, "v4.3.1");
  auto pinned = reviewer::plan::plan_text(
      wf, {".github/workflows/ci.yml", "build", "main", {}, true}, testing::registry());
  ASSERT_FALSE(pinned);
  EXPECT_EQ(pinned.error().rule, "unreviewed-action-ref");
  EXPECT_NE(pinned.error().message.find("pin a full commit SHA"), std::string::npos);
}

}  // namespace
}  // namespace reviewer::plan

namespace reviewer::plan {
namespace {

// A step's name is display text: shown with its value when known at plan time, as written when
// it reads what only the run knows (and never refused for it).
TEST(StepNames, AreShownAsCiShowsThem) {
  const std::string wf =
      std::string("on: pull_request\njobs:\n  build:\n    runs-on: ubuntu-latest\n") +
      "    strategy:\n      matrix:\n        node: [22.x]\n    steps:\n      - uses: " +
      testing::kCheckout +
      "\n      - name: Node ${{ matrix.node }}\n        run: make\n"
      "      - name: After ${{ steps.a.outcome }}\n        run: make\n";
  auto planned = reviewer::plan::plan_text(wf, {".github/workflows/ci.yml", "build", "main"},
                                           testing::registry());
  ASSERT_TRUE(planned) << report::to_text(planned.error());
  EXPECT_EQ(planned->jobs[0].steps[1].step.name, "Node 22.x");
  EXPECT_EQ(planned->jobs[0].steps[2].step.name, "After ${{ steps.a.outcome }}");
}

}  // namespace
}  // namespace reviewer::plan

namespace reviewer::plan {
namespace {

// A step whose `if:` is false at plan time never runs: its action needs no plugin and its
// inputs are never evaluated, as on CI; in the combination where it runs, both count again.
TEST(NeverSteps, NeedNoPluginAndAreNotEvaluated) {
  const std::string wf =
      std::string("on: pull_request\njobs:\n  build:\n    runs-on: ubuntu-latest\n") +
      "    strategy:\n      matrix:\n        node: [22, 24]\n    steps:\n      - uses: " +
      testing::kCheckout +
      "\n      - if: matrix.node == 24\n        uses: coverallsapp/github-action@master\n"
      "        with:\n          github-token: ${{ vars.COVERALLS_TOKEN }}\n";
  auto never = reviewer::plan::plan_text(
      wf, {".github/workflows/ci.yml", "build", "main", {{"node", "22"}}}, testing::registry());
  ASSERT_TRUE(never) << report::to_text(never.error());
  EXPECT_EQ(never->jobs[0].steps[1].condition.kind, Condition::Kind::kNever);
  EXPECT_EQ(never->jobs[0].steps[1].plugin, nullptr);
  auto runs = reviewer::plan::plan_text(
      wf, {".github/workflows/ci.yml", "build", "main", {{"node", "24"}}}, testing::registry());
  ASSERT_FALSE(runs);
  EXPECT_EQ(runs.refusals().size(), 2U);
  EXPECT_EQ(runs.refusals()[0].rule, "expression-value-unknown");
  // The coveralls plugin claims the action, but not the branch `master`.
  EXPECT_EQ(runs.refusals()[1].rule, "unreviewed-action-ref");
}

// An `if:` that reads the event is still decided when an operand known now makes the `&&` chain
// false, every operand before it unable to fail (picomatch's upload step, matrix node 24).
TEST(NeverSteps, AKnownFalseOperandDecidesWhatTheEventCannotChange) {
  const auto plan_if = [](const std::string& condition, const std::string& node) {
    const std::string wf =
        std::string("on: pull_request\njobs:\n  build:\n    runs-on: ubuntu-latest\n") +
        "    strategy:\n      matrix:\n        node: [24, 25]\n    steps:\n      - uses: " +
        testing::kCheckout + "\n      - if: " + condition + "\n        run: make\n";
    return reviewer::plan::plan_text(
        wf, {".github/workflows/ci.yml", "build", "main", {{"node", node}}}, testing::registry());
  };
  const std::string picomatch =
      "startsWith('ubuntu-latest', 'ubuntu') && matrix.node == 25 && (github.event_name != "
      "'pull_request' || github.event.pull_request.head.repo.full_name == github.repository)";
  auto never = plan_if(picomatch, "24");
  ASSERT_TRUE(never) << report::to_text(never.error());
  EXPECT_EQ(never->jobs[0].steps[1].condition.kind, Condition::Kind::kNever);
  // Where the known operands are true, the event decides: still refused.
  auto runs = plan_if(picomatch, "25");
  ASSERT_FALSE(runs);
  EXPECT_EQ(runs.refusals()[0].rule, "expression-value-unknown");
  // The unknown operand comes first and can fail (fromJSON of the event): the runner would
  // evaluate it before reaching the false one.
  auto may_fail = plan_if("fromJSON(github.event.pull_request.title) && matrix.node == 25", "24");
  ASSERT_FALSE(may_fail);
  EXPECT_EQ(may_fail.refusals()[0].rule, "expression-value-unknown");
  // An unknown operand that cannot fail comes first: the false one decides.
  auto first = plan_if("github.event.pull_request.draft == false && matrix.node == 25", "24");
  ASSERT_TRUE(first) << report::to_text(first.error());
  EXPECT_EQ(first->jobs[0].steps[1].condition.kind, Condition::Kind::kNever);
  // `||` is not decided by a false operand.
  auto either = plan_if("matrix.node == 25 || github.event.pull_request.draft", "24");
  ASSERT_FALSE(either);
  EXPECT_EQ(either.refusals()[0].rule, "expression-value-unknown");
  // A status function changes the gate: left to the rule as before.
  auto always = plan_if("always() && matrix.node == 25 && github.event.pull_request.draft", "24");
  ASSERT_FALSE(always);
  EXPECT_EQ(always.refusals()[0].rule, "expression-value-unknown");
}

// The runner merges a step's own env into `env` last, before it evaluates the step's `if` and
// inputs: what it sets to a value known now is known now. dayjs's codecov step: with a fork's
// empty secret, `'' != null` is false (both read as 0), so the step never runs. A script still
// reads `env` when it runs (e2e AnExpressionThatFailsAtRunTimeFailsItsStep).
TEST(StepEnv, IsKnownToTheStepsIfAndInputs) {
  const std::string wf =
      std::string("on: pull_request\njobs:\n  build:\n    runs-on: ubuntu-latest\n") +
      "    steps:\n      - uses: " + testing::kCheckout +
      "\n      - env:\n          CODECOV_TOKEN: ${{ secrets.CODECOV_TOKEN }}\n"
      "        if: env.CODECOV_TOKEN != null\n        uses: codecov/codecov-action@v4\n"
      "        with:\n          token: ${{ env.CODECOV_TOKEN }}\n"
      "      - env:\n          GREETING: hello\n        run: echo ${{ env.GREETING }}\n";
  auto planned = reviewer::plan::plan_text(wf, {".github/workflows/ci.yml", "build", "main"},
                                           testing::registry());
  ASSERT_TRUE(planned) << report::to_text(planned.error());
  EXPECT_EQ(planned->jobs[0].steps[1].condition.kind, Condition::Kind::kNever);
  EXPECT_EQ(planned->jobs[0].steps[2].step.run, "echo ${{ env.GREETING }}");
  EXPECT_TRUE(planned->jobs[0].steps[2].step.run_time_script);
}

}  // namespace
}  // namespace reviewer::plan
