// One hostile workflow per planner rule: the exact rule id, position and message.
#include <gtest/gtest.h>

#include <string>

#include "tests/unit/plan/plan_test_support.h"

namespace reviewer::plan {
namespace {

using testing::kCheckout;
using testing::plan_text;

struct Case {
  const char* name;
  std::string workflow;
  std::string expected;  // every refusal line, in order
  std::string job = "build";
};

// `on: pull_request`, job `build` on ubuntu-latest whose steps are `steps` (a checkout first
// unless `steps` says otherwise), with `job_extra` lines after runs-on. Line 1 is `on`, the
// job's first extra line is line 5.
std::string job(const std::string& job_extra, const std::string& steps = "      - run: make\n") {
  return "on: pull_request\njobs:\n  build:\n    runs-on: ubuntu-latest\n" + job_extra +
         "    steps:\n      - uses: " + kCheckout + "\n" + steps;
}

// Steps after the checkout, which sits on line 6: the first of `steps` is line 7.
std::string steps(const std::string& s) { return job("", s); }

const std::string kF = ".github/workflows/ci.yml";

class PlannerRule : public ::testing::TestWithParam<Case> {};

TEST_P(PlannerRule, RefusesWithRulePositionAndMessage) {
  testing::dump_seed(std::string("rule_") + GetParam().name, GetParam().workflow);
  EXPECT_EQ(plan_text(GetParam().workflow, GetParam().job), GetParam().expected);
}

const Case kCases[] = {
    // Workflow level.
    {"WorkflowNotMapping", "- a\n- b\n",
     kF + ":1:1: workflow-not-mapping: a workflow is a YAML mapping\n"},
    {"UnknownWorkflowKey", "name: x\nwat: 1\n" + job("").substr(0),
     kF + ":2:1: unknown-workflow-key: workflow key 'wat' is not understood\n"},
    {"InvalidWorkflowValue", "run-name: [a]\n" + job(""),
     kF + ":1:11: invalid-workflow-value: workflow 'run-name' must be a string\n"},
    {"TriggerMissing", "on: push\n" + job("").substr(17),
     kF + ":1:5: trigger-missing: 'on' is 'push', not 'pull_request'\n"},
    {"TriggerMissingInList", "on: [push, pull_request_target]\n" + job("").substr(17),
     kF + ":1:5: trigger-missing: 'on' does not include 'pull_request'\n"},
    {"TriggerMissingAltogether", job("").substr(17),
     kF + ":1:1: trigger-missing: the workflow has no 'on' trigger\n"},
    {"TriggerListWithFilters",
     "on: [push, {pull_request: {types: [opened]}}]\n" + job("").substr(17),
     kF + ":1:12: trigger-invalid: a list of events under 'on' holds event names only\n"},
    {"BaseNotCovered",
     "on:\n  pull_request:\n    branches: [develop, 'release/**']\n" + job("").substr(17),
     kF + ":3:15: trigger-base-not-covered: 'pull_request.branches' does not include the base "
          "branch 'main'\n"},
    {"BaseNegated", "on:\n  pull_request:\n    branches: ['**', '!main']\n" + job("").substr(17),
     kF + ":3:15: trigger-base-not-covered: 'pull_request.branches' does not include the base "
          "branch 'main'\n"},
    {"BaseIgnored", "on:\n  pull_request:\n    branches-ignore: ['ma*']\n" + job("").substr(17),
     kF + ":3:22: trigger-base-not-covered: 'pull_request.branches-ignore' pattern 'ma*' "
          "excludes the base branch 'main'\n"},
    {"FilterUndecidable", "on:\n  pull_request:\n    branches: ['mai?n']\n" + job("").substr(17),
     kF + ":3:15: trigger-filter-undecidable: 'pull_request.branches' uses a pattern ('?', '+' "
          "or an escape) that cannot be decided exactly for base 'main'\n"},
    {"IgnoreNegationUndecidable",
     "on:\n  pull_request:\n    branches-ignore: ['!main']\n" + job("").substr(17),
     kF + ":3:22: trigger-filter-undecidable: 'pull_request.branches-ignore' pattern '!main' "
          "cannot be decided exactly for base 'main'\n"},
    {"TriggerTypes", "on:\n  pull_request:\n    types: [labeled]\n" + job("").substr(17),
     kF + ":3:12: trigger-types: 'pull_request.types' includes none of opened, synchronize, "
          "reopened: CI would not build the pull request's head when it is opened or pushed\n"},
    {"TriggerUnknownType", "on:\n  pull_request:\n    types: [pushed]\n" + job("").substr(17),
     kF + ":3:12: trigger-invalid: 'pull_request.types' names no activity type 'pushed'\n"},
    {"TriggerBothBranchFilters",
     "on:\n  pull_request:\n    branches: [main]\n    branches-ignore: [x]\n" + job("").substr(17),
     kF + ":4:5: trigger-invalid: 'pull_request' has both 'branches' and 'branches-ignore', "
          "which GitHub rejects\n"},
    {"TriggerUnknownFilter", "on:\n  pull_request:\n    tags: [v1]\n" + job("").substr(17),
     kF + ":3:5: trigger-invalid: unknown 'pull_request' filter 'tags'\n"},
    {"TriggerExpression", "on:\n  pull_request:\n    paths: ['${{ x }}']\n" + job("").substr(17),
     kF + ":3:12: trigger-invalid: 'pull_request.paths' holds an expression: '${{ x }}'\n"},
    // Jobs and needs.
    {"JobNotFound", job(""), kF + ":3:3: job-not-found: the workflow has no job 'test'\n", "test"},
    {"NeedsUnknown", job("    needs: [lint]\n"),
     kF + ":5:13: needs-unknown: job 'build' needs unknown job 'lint'\n"},
    {"NeedsInvalid", job("    needs: {a: b}\n"),
     kF + ":5:12: needs-invalid: 'needs' must be a job id or a list of job ids\n"},
    {"NeedsCycle",
     job("    needs: lint\n") + "  lint:\n    needs: build\n    runs-on: ubuntu-latest\n"
                                "    steps:\n      - run: x\n",
     kF +
         ":5:12: needs-cycle: job 'build' needs 'lint', which waits on a cycle of jobs that "
         "need each other\n" +
         kF +
         ":10:12: needs-cycle: job 'lint' needs 'build', which waits on a cycle of jobs "
         "that need each other\n" +
         kF +
         ":13:9: first-step-not-checkout: job 'lint' must begin with a checkout "
         "(actions/checkout), as the host's clone stands in for it; only a step whose plugin "
         "claims before-checkout (it reads and writes nothing of the worktree) may come first\n"},
    {"InvalidJob", "on: pull_request\njobs:\n  build: [x]\n",
     kF + ":3:10: invalid-job: job 'build' must be a mapping\n"},
    {"InvalidJobName", job("    name: {a: b}\n"),
     kF + ":5:11: invalid-job: job 'build' 'name' must be a string\n"},
    {"UnknownJobKey", job("    runs_on: x\n"),
     kF + ":5:5: unknown-job-key: job key 'runs_on' is not understood\n"},
    // A matrix value known before the run is evaluated, whole lists and objects included.
    {"MatrixFromJsonLiteral",
     job("    strategy:\n      matrix:\n        node: ${{ fromJSON('[20, 22]') }}\n"
         "        include: ${{ fromJSON('[{\"node\":24,\"x\":\"y\"}]') }}\n"),
     kF + ":7:9: matrix-combination-required: job 'build': the job runs in 3 matrix combinations "
          "and the review runs one: choose it with --matrix NAME=VALUE ...; the combinations are: "
          "node=20 | node=22 | node=24, x=y\n"},
    {"MatrixFromNeeds",
     job("    strategy:\n      matrix:\n        node: ${{ fromJSON(needs.a.outputs.v) }}\n"),
     kF + ":7:15: expression-in-matrix: job 'build' matrix: '${{ fromJSON(needs.a.outputs.v) }}' "
          "is computed while the run goes (it reads needs); a matrix known only then is not "
          "reproduced\n"},
    {"MatrixFromVars", job("    strategy:\n      matrix:\n        node: ${{ vars.NODES }}\n"),
     kF + ":7:15: expression-value-unknown: job 'build' matrix: the expression reads vars.NODES, "
          "which only the real run knows (the review knows the pull request event, the matrix, "
          "the strategy, the runner's os and arch, and empty secrets)\n"},
    {"MatrixReadsSteps",
     job("    strategy:\n      matrix:\n        node: ${{ steps.a.outputs }}\n"),
     kF + ":7:15: expression-invalid: job 'build' matrix: the expression: Unrecognized "
          "named-value: 'steps' (at character 1) in 'steps.a.outputs'\n"},
    {"MatrixWithoutChoice", job("    strategy:\n      matrix:\n        node: [20, 22]\n"),
     kF + ":7:9: matrix-combination-required: job 'build': the job runs in 2 matrix combinations "
          "and the review runs one: choose it with --matrix NAME=VALUE ...; the combinations are: "
          "node=20 | node=22\n"},
    {"MatrixInNeededJob",
     "on: pull_request\njobs:\n  lint:\n    runs-on: ubuntu-latest\n    strategy:\n"
     "      matrix:\n        node: [20, 22]\n    steps:\n      - uses: " +
         std::string(kCheckout) + "\n" + job("    needs: lint\n").substr(23),
     kF + ":7:9: matrix-in-needed-job: job 'lint' is needed by 'build' and runs 2 matrix variants "
          "on CI, all of which must succeed; the review runs one job variant, of the named job "
          "only\n"},
    {"Container", job("    container: node:22\n"),
     kF + ":5:5: container-job: job 'build' uses 'container': jobs in a container need a "
          "container engine\n"},
    {"Services", job("    services: {db: {image: postgres}}\n"),
     kF + ":5:5: services-job: job 'build' uses 'services': service containers need a "
          "container engine\n"},
    {"JobContinueOnError", job("    continue-on-error: true\n"),
     kF + ":5:5: continue-on-error: job 'build' uses 'continue-on-error': a job's tolerated "
          "failure cannot be told from a pass in one verdict\n"},
    {"ReusableWorkflow",
     "on: pull_request\njobs:\n  build:\n    uses: org/repo/.github/workflows/ci.yml@main\n"
     "    with: {a: b}\n",
     kF + ":4:11: reusable-workflow: job 'build' calls 'org/repo/.github/workflows/ci.yml@main', "
          "a workflow of another repository; the review reads only the pull request's own "
          "repository\n"},
    {"Secrets", job("    secrets: inherit\n"),
     kF + ":5:5: job-secrets: job 'build' uses 'secrets': the review has no secrets\n"},
    {"Environment", job("    environment: production\n"),
     kF + ":5:5: job-environment: job 'build' uses 'environment': deployment environments "
          "carry protection rules and secrets\n"},
    {"OutputsNotMapping", job("    outputs: [v]\n"),
     kF + ":5:14: invalid-job: job 'build' 'outputs' must be a mapping\n"},
    {"OutputReadsUnknown", job("    outputs:\n      v: ${{ vars.V }}\n"),
     kF + ":6:10: expression-value-unknown: job 'build' output 'v' reads vars.V, which only the "
          "real run knows (the review knows the pull request event, the matrix, the strategy, the "
          "runner's os and arch, and empty secrets)\n"},
    {"RunnerLabel",
     "on: pull_request\njobs:\n  build:\n    runs-on: macos-latest\n    steps:\n      - uses: " +
         std::string(kCheckout) + "\n",
     kF + ":4:14: runner-label: 'runs-on' is 'macos-latest'; only ubuntu-latest and "
          "ubuntu-24.04 match the review image\n"},
    {"RunnerLabels",
     "on: pull_request\njobs:\n  build:\n    runs-on: [self-hosted, linux]\n    steps:\n"
     "      - uses: " +
         std::string(kCheckout) + "\n",
     kF + ":4:14: runner-label: 'runs-on' must be ubuntu-latest or ubuntu-24.04 (one label)\n"},
    {"RunsOnFromMatrix",
     "on: pull_request\njobs:\n  build:\n    runs-on: ${{ matrix.os }}\n    strategy:\n"
     "      matrix:\n        os: [windows-latest]\n    steps:\n      - uses: " +
         std::string(kCheckout) + "\n",
     kF + ":4:14: runner-label: 'runs-on' is 'windows-latest'; only ubuntu-latest and ubuntu-24.04 "
          "match the review image\n"},
    {"RunsOnUnknown",
     "on: pull_request\njobs:\n  build:\n    runs-on: ${{ vars.RUNNER }}\n    steps:\n"
     "      - uses: " +
         std::string(kCheckout) + "\n",
     kF + ":4:14: expression-value-unknown: 'runs-on' reads vars.RUNNER, which only the real run "
          "knows (the review knows the pull request event, the matrix, the strategy, the runner's "
          "os and arch, and empty secrets)\n"},
    {"JobCondition", job("    if: [a]\n"), kF + ":5:9: job-condition: job 'if' must be a string\n"},
    {"JobConditionUnknown", job("    if: github.ref == 'refs/heads/main'\n"),
     kF + ":5:9: expression-value-unknown: job 'if' reads github.ref, which only the real run "
          "knows (the review knows the pull request event, the matrix, the strategy, the runner's "
          "os and arch, and empty secrets); a host that describes the pull request gives it "
          "(reviewer review --event FILE)\n"},
    {"JobConditionMatrix", job("    if: matrix.os == 'x'\n"),
     kF + ":5:9: expression-invalid: job 'if': Unrecognized named-value: 'matrix' (at character 1) "
          "in 'matrix.os == \\'x\\''\n"},
    {"JobWithoutSteps", "on: pull_request\njobs:\n  build:\n    runs-on: ubuntu-latest\n",
     kF + ":4:5: job-without-steps: job 'build' has no steps\n"},
    {"FirstStepNotCheckout",
     "on: pull_request\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n"
     "      - run: make\n",
     kF + ":6:9: first-step-not-checkout: job 'build' must begin with a checkout "
          "(actions/checkout), as the host's clone stands in for it; only a step whose plugin "
          "claims before-checkout (it reads and writes nothing of the worktree) may come first\n"},
    {"DuplicateJobId",
     job("") + "  Build:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: " + kCheckout +
         "\n",
     kF + ":8:3: duplicate-job-id: job ids 'build' and 'Build' differ only in case; GitHub "
          "compares job ids without regard to case and rejects the workflow\n"},
    // Job ids GitHub rejects (the attack on the launcher, finding 9): each is refused wherever it
    // stands in the workflow, and the path the launcher built from `../../x` never exists.
    {"JobIdWithDot", job("") + "  te.st:\n    runs-on: ubuntu-latest\n",
     kF + ":8:3: invalid-job-id: job id 'te.st' is not one GitHub accepts (a letter or '_', then "
          "letters, digits, '-' or '_'); GitHub rejects the workflow\n"},
    {"JobIdStartingWithDigit", job("") + "  1abc:\n    runs-on: ubuntu-latest\n",
     kF + ":8:3: invalid-job-id: job id '1abc' is not one GitHub accepts (a letter or '_', then "
          "letters, digits, '-' or '_'); GitHub rejects the workflow\n"},
    {"JobIdWithPlus", job("") + "  a+b:\n    runs-on: ubuntu-latest\n",
     kF + ":8:3: invalid-job-id: job id 'a+b' is not one GitHub accepts (a letter or '_', then "
          "letters, digits, '-' or '_'); GitHub rejects the workflow\n"},
    {"JobIdThatIsAPath",
     "on: pull_request\njobs:\n  ../../x:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: " +
         std::string(kCheckout) + "\n",
     kF + ":3:3: invalid-job-id: job id '../../x' is not one GitHub accepts (a letter or '_', "
          "then letters, digits, '-' or '_'); GitHub rejects the workflow\n",
     "../../x"},
    {"MixedHistoryShape",
     "on: pull_request\njobs:\n  lint:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: " +
         std::string(kCheckout) +
         "\n        with:\n          fetch-depth: 0\n  build:\n    needs: lint\n"
         "    runs-on: ubuntu-latest\n    steps:\n      - uses: " +
         kCheckout + "\n",
     kF + ":10:5: mixed-history-shape: job 'build' checks out with fetch-depth 1 but job 'lint' "
          "with 0; the review mounts one clone for every job of the build\n"},
    {"RetypedEnvNumber", job("    env:\n      GO_VERSION: 1.20\n"),
     kF + ":6:19: retyped-scalar: job env 'GO_VERSION' is the unquoted '1.20': GitHub reads it "
          "as a number and passes on the number's own spelling; quote it to keep the text\n"},
    {"RetypedInput",
     steps("      - uses: actions/setup-node@49933ea5288caeca8642d1e84afbd3f7d6820020\n"
           "        with:\n          node-version: 20.10\n"),
     kF + ":9:25: retyped-scalar: input 'node-version' is the unquoted '20.10': GitHub reads it "
          "as a number and passes on the number's own spelling; quote it to keep the text\n"},
    {"RetypedScript", steps("      - run: 010\n"),
     kF + ":7:14: retyped-scalar: the script is the unquoted '010': GitHub reads it as a number "
          "and passes on the number's own spelling; quote it to keep the text\n"},
    {"JobTimeoutFraction", job("    timeout-minutes: 0.5\n"),
     kF + ":5:22: invalid-timeout: job 'timeout-minutes' must be a positive whole number of "
          "minutes, got '0.5'\n"},
    {"JobTimeoutZero", job("    timeout-minutes: 0\n"),
     kF + ":5:22: invalid-timeout: job 'timeout-minutes' must be a positive whole number of "
          "minutes, got '0'\n"},
    {"JobTimeoutOctal", job("    timeout-minutes: 010\n"),
     kF + ":5:22: invalid-timeout: job 'timeout-minutes' must be a positive whole number of "
          "minutes, got '010'\n"},
    {"ExpressionInTimeout", job("    timeout-minutes: ${{ inputs.t }}\n"),
     kF + ":5:22: expression-in-timeout: job 'timeout-minutes' holds an expression: "
          "'${{ inputs.t }}'\n"},
    {"InvalidDefaults", job("    defaults:\n      run:\n        env: x\n"),
     kF + ":7:9: invalid-defaults: job 'defaults.run.env' is not understood\n"},
    {"DefaultsShell", "defaults:\n  run:\n    shell: sh\n" + job(""),
     kF + ":3:12: non-bash-shell: workflow 'defaults.run.shell' must be bash\n"},
    {"DefaultsWorkingDirectoryOutside",
     job("    defaults:\n      run:\n        working-directory: ../x\n"),
     kF + ":7:28: working-directory-outside: job 'defaults.run.working-directory' '../x' must "
          "be a relative path inside the worktree\n"},
    // Steps.
    {"InvalidStep", steps("      - make\n"), kF + ":7:9: invalid-step: a step must be a mapping\n"},
    {"InvalidStepName", steps("      - name: [a]\n        run: make\n"),
     kF + ":7:15: invalid-step: step 'name' must be a string\n"},
    {"RunNotString", steps("      - run: [make]\n"),
     kF + ":7:14: invalid-step: 'run' must be a string\n"},
    {"WithOnRun", steps("      - run: make\n        with: {a: b}\n"),
     kF + ":8:9: invalid-step: 'with' belongs to 'uses' steps\n"},
    {"UnknownStepKey", steps("      - run: make\n        timeout: 5\n"),
     kF + ":8:9: unknown-step-key: step key 'timeout' is not understood\n"},
    {"UsesAndRun", steps("      - uses: a/b@v1\n        run: make\n"),
     kF + ":7:9: step-uses-and-run: a step has exactly one of 'uses' and 'run'\n"},
    {"NoAction", steps("      - name: nothing\n"),
     kF + ":7:9: step-without-action: a step needs 'uses' or 'run'\n"},
    {"StepCondition", steps("      - run: make\n        if: {a: b}\n"),
     kF + ":8:13: step-condition: step 'if' must be a string\n"},
    {"StepConditionInvalid", steps("      - run: make\n        if: success() &&\n"),
     kF + ":8:13: expression-invalid: step 'if': Unexpected end of expression: '&&' (at character "
          "11) in 'success() &&'\n"},
    {"StepContinueOnError", steps("      - run: make\n        continue-on-error: maybe\n"),
     kF + ":8:28: invalid-continue-on-error: 'continue-on-error' must be a boolean, got 'maybe'\n"},
    {"StepContinueOnErrorAtRunTime",
     steps("      - run: make\n        continue-on-error: ${{ steps.a.outcome == 'x' }}\n"),
     kF + ":8:28: expression-at-run-time: 'continue-on-error' reads steps.a, known only while the "
          "job runs, but the review must know it before\n"},
    {"TimeoutOnSkippedStep",
     job("", "").substr(0, job("", "").size() - 1) + "\n        timeout-minutes: 5\n",
     kF + ":7:26: timeout-on-skipped-step: 'timeout-minutes' on a 'uses' step: how the real "
          "action behaves at that limit cannot be reproduced\n"},
    {"StepTimeoutNegative", steps("      - run: make\n        timeout-minutes: -1\n"),
     kF + ":8:26: invalid-timeout: step 'timeout-minutes' must be a positive whole number of "
          "minutes, got '-1'\n"},
    {"NonBashShell", steps("      - run: make\n        shell: pwsh\n"),
     kF + ":8:16: non-bash-shell: only bash steps are reproduced; 'shell' is 'pwsh'\n"},
    {"ExpressionInRun", steps("      - run: echo ${{ github.head_ref }}\n"),
     kF + ":7:14: expression-value-unknown: the script reads github.head_ref, which only the real "
          "run knows (the review knows the pull request event, the matrix, the strategy, the "
          "runner's os and arch, and empty secrets); a host that describes the pull request gives "
          "it "
          "(reviewer review --event FILE)\n"},
    {"ExpressionInRunComment", steps("      - run: |\n          make # ${{ x }}\n"),
     kF + ":7:14: expression-invalid: the script: Unrecognized named-value: 'x' (at character 1) "
          "in 'x'\n"},
    {"ExpressionInRunUnclosed", steps("      - run: echo ${{ github.job\n"),
     kF + ":7:14: expression-invalid: the script: the expression opened at character 6 is not "
          "closed by '}}'\n"},
    {"SecretGithubToken", steps("      - run: echo ${{ secrets.GITHUB_TOKEN }}\n"),
     kF + ":7:14: expression-value-unknown: the script reads secrets.GITHUB_TOKEN, which only the "
          "real run knows (the review knows the pull request event, the matrix, the strategy, the "
          "runner's os and arch, and empty secrets)\n"},
    {"ExpressionInUses", steps("      - uses: ${{ matrix.action }}\n"),
     kF + ":7:15: expression-in-uses: 'uses' holds an expression: '${{ matrix.action }}'\n"},
    {"ExpressionInInput",
     job("", "").substr(0, job("", "").size() - 1) +
         "\n        with:\n          fetch-depth: ${{ x }}\n",
     kF + ":8:24: expression-invalid: input 'fetch-depth': Unrecognized named-value: 'x' (at "
          "character 1) in 'x'\n"},
    {"InputAtRunTime",
     job("", "").substr(0, job("", "").size() - 1) +
         "\n        with:\n          fetch-depth: ${{ steps.a.outputs.depth }}\n",
     kF + ":8:24: expression-at-run-time: input 'fetch-depth' reads steps.a, known only while the "
          "job runs, but the review must know it before\n"},
    // Only a name the step's own env sets, as written, to a value known now is known now: the
    // job's env may be overridden through GITHUB_ENV, another spelling is another variable on
    // Linux, and a value read from a step is the run's.
    {"InputReadsTheJobsEnv",
     job("    env:\n      NODE: '24'\n",
         "      - uses: actions/setup-node@v4\n        with:\n          node-version: "
         "${{ env.NODE }}\n"),
     kF + ":11:25: expression-at-run-time: input 'node-version' reads env.NODE, known only while "
          "the job runs, but the review must know it before\n"},
    {"InputReadsAnotherSpellingOfTheStepsEnv",
     steps("      - env:\n          Node: '24'\n        uses: actions/setup-node@v4\n"
           "        with:\n          node-version: ${{ env.NODE }}\n"),
     kF + ":11:25: expression-at-run-time: input 'node-version' reads env.NODE, known only while "
          "the job runs, but the review must know it before\n"},
    {"InputReadsTheStepsEnvSpelledTwice",
     steps("      - env:\n          NODE: '24'\n          Node: '22'\n        uses: "
           "actions/setup-node@v4\n        with:\n          node-version: ${{ env.NODE }}\n"),
     kF + ":12:25: expression-at-run-time: input 'node-version' reads env.NODE, known only while "
          "the job runs, but the review must know it before\n"},
    {"InputReadsAStepEnvKnownOnlyAtRunTime",
     steps("      - id: a\n        run: make\n      - env:\n          NODE: "
           "${{ steps.a.outputs.node }}\n        uses: actions/setup-node@v4\n"
           "        with:\n          node-version: ${{ env.NODE }}\n"),
     kF + ":13:25: expression-at-run-time: input 'node-version' reads env.NODE, known only while "
          "the job runs, but the review must know it before\n"},
    {"InvalidInput", job("", "").substr(0, job("", "").size() - 1) + "\n        with: [a]\n",
     kF + ":7:15: invalid-input: 'with' must be a mapping\n"},
    {"ExpressionInWorkingDirectory",
     steps("      - run: make\n        working-directory: ${{ env.D }}\n"),
     kF + ":8:28: expression-in-working-directory: step 'working-directory' holds an "
          "expression: '${{ env.D }}'\n"},
    {"WorkingDirectoryOutside", steps("      - run: make\n        working-directory: /etc\n"),
     kF + ":8:28: working-directory-outside: step 'working-directory' '/etc' must be a "
          "relative path inside the worktree\n"},
    {"InvalidWorkingDirectory", steps("      - run: make\n        working-directory: [a]\n"),
     kF + ":8:28: invalid-working-directory: step 'working-directory' must be a string\n"},
    {"DockerAction", steps("      - uses: docker://alpine:3\n"),
     kF + ":7:15: docker-action: docker actions cannot be reproduced in the sandbox: "
          "'docker://alpine:3'\n"},
    {"LocalActionWithoutRepository", steps("      - uses: ./.github/actions/setup\n"),
     kF + ":7:15: local-action-missing: the action './.github/actions/setup' cannot be read: the "
          "planner was given no repository to read it from\n"},
    {"UnsupportedAction", steps("      - uses: dorny/paths-filter@v3\n"),
     kF + ":7:15: unsupported-action: no reviewed plugin handles 'dorny/paths-filter'; the "
          "review cannot stand in for it\n"},
    {"UnreviewedRef",
     "on: pull_request\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n"
     "      - uses: actions/checkout@v2\n",
     kF + ":6:15: unreviewed-action-ref: actions/checkout@v2 names no reviewed release; name a "
          "reviewed release or its SHA, of: v7.0.1, v7.0.0, v6.1.0, v6.0.3, v6.0.2, v6.0.1, "
          "v6.0.0, v5.1.0, v5.0.1, v5.0.0, v4.4.0, v4.3.1, v4.3.0, v4.2.2, v3.7.0, v3.6.0\n"},
    {"UnreviewedBranch",
     "on: pull_request\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n"
     "      - uses: actions/checkout@main\n",
     kF + ":6:15: unreviewed-action-ref: actions/checkout@main names no reviewed release; name a "
          "reviewed release or its SHA, of: v7.0.1, v7.0.0, v6.1.0, v6.0.3, v6.0.2, v6.0.1, "
          "v6.0.0, v5.1.0, v5.0.1, v5.0.0, v4.4.0, v4.3.1, v4.3.0, v4.2.2, v3.7.0, v3.6.0\n"},
    {"ReleaseTagRefusedUnderAnOlderRelease",
     "on: pull_request\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n"
     "      - uses: actions/checkout@v4\n        with:\n          allow-unsafe-pr-checkout: "
     "false\n",
     kF + ":8:11: unknown-action-input: actions/checkout@34e114876b0b11c390a56381ad16ebd13914f8d5 "
          "(v4.3.1) has no input 'allow-unsafe-pr-checkout' (under v4.3.1, which v4 may name)\n"},
    {"UsesWithoutOwner", steps("      - uses: run@v1\n"),
     kF + ":7:15: unsupported-action: 'uses' must name an action as owner/repo[/path]@ref, got "
          "'run@v1'\n"},
    {"ShellOnUsesStep", job("", "").substr(0, job("", "").size() - 1) + "\n        shell: bash\n",
     kF + ":7:9: invalid-step: 'shell' belongs to 'run' steps\n"},
    {"StepsNotAList",
     "on: pull_request\njobs:\n  build:\n    runs-on: ubuntu-latest\n"
     "    steps: {run: make}\n",
     kF + ":5:12: invalid-job: job 'build' 'steps' must be a list of steps\n"},
    {"NoRef", steps("      - uses: actions/setup-node\n"),
     kF + ":7:15: unreviewed-action-ref: 'uses' names no ref: 'actions/setup-node'\n"},
    // Environment.
    {"InvalidEnv", job("    env: [A]\n"), kF + ":5:10: invalid-env: job 'env' must be a mapping\n"},
    {"ExpressionInEnv", "env:\n  SHA: ${{ github.sha }}\n" + job(""),
     kF + ":2:8: expression-value-unknown: workflow env 'SHA' reads github.sha, which only the "
          "real run knows (the review knows the pull request event, the matrix, the strategy, the "
          "runner's os and arch, and empty secrets); a host that describes the pull request gives "
          "it "
          "(reviewer review --event FILE)\n"},
    {"WholeEnvExpression", job("    env: ${{ fromJSON(inputs.env) }}\n"),
     kF + ":5:10: expression-in-env: job 'env' is one expression (a mapping computed at run "
          "time)\n"},
    {"JobEnvReadsSteps", job("    env:\n      V: ${{ steps.a.outputs.v }}\n"),
     kF + ":6:10: expression-invalid: job env 'V': Unrecognized named-value: 'steps' (at character "
          "1) in 'steps.a.outputs.v'\n"},
    {"CredentialFromGithubToken", "env:\n  GH_TOKEN: ${{ secrets.GITHUB_TOKEN }}\n" + job(""),
     kF + ":2:13: expression-value-unknown: workflow env 'GH_TOKEN' reads secrets.GITHUB_TOKEN, "
          "which only the real run knows (the review knows the pull request event, the matrix, the "
          "strategy, the runner's os and arch, and empty secrets)\n.github/workflows/ci.yml:2:3: "
          "credential-shaped-env: workflow env 'GH_TOKEN' names a credential\n"},
    {"InvalidEnvName", steps("      - run: make\n        env:\n          A-B: 1\n"),
     kF + ":9:11: invalid-env-name: step env 'A-B' not a plain variable name "
          "([A-Za-z_][A-Za-z0-9_]*); exported bash functions and odd names can change how the "
          "harness runs\n"},
    {"LauncherOwnedEnv", job("    env:\n      Path: /x\n"),
     kF + ":6:7: launcher-owned-env: job env 'Path' the launcher sets this variable itself\n"},
    {"CredentialShapedEnv", "env:\n  npm_token: x\n" + job(""),
     kF + ":2:3: credential-shaped-env: workflow env 'npm_token' names a credential\n"},
    {"CredentialSuffixEnv", "env:\n  DEPLOY_KEY: x\n" + job(""),
     kF + ":2:3: credential-shaped-env: workflow env 'DEPLOY_KEY' is shaped like a "
          "credential\n"},
    {"ConfigRedirectingEnv", steps("      - run: make\n        env:\n          bash_env: /x\n"),
     kF + ":9:11: config-redirecting-env: step env 'bash_env' changes how bash, the loader or "
          "a tool reads its configuration\n"},
    {"ProxyEnv", "env:\n  https_proxy: http://x\n" + job(""),
     kF + ":2:3: config-redirecting-env: workflow env 'https_proxy' redirects network traffic "
          "through a proxy\n"},
    // A loading bound stops at once, before any planner rule.
    {"LoadingBoundFirst", "on: push\non: pull_request\n",
     kF + ":2:1: yaml-duplicate-key: duplicate key 'on' (YAML readers disagree on which value "
          "wins)\n"},
};

INSTANTIATE_TEST_SUITE_P(Rules, PlannerRule, ::testing::ValuesIn(kCases),
                         [](const auto& p) { return std::string(p.param.name); });

TEST(Planner, CollectsEveryRefusalInOnePass) {
  const std::string wf = "on: push\nenv:\n  GH_TOKEN: x\n" +
                         job("    container: x\n", "      - run: ${{ a }}\n").substr(17);
  EXPECT_EQ(plan_text(wf),
            kF + ":1:5: trigger-missing: 'on' is 'push', not 'pull_request'\n" + kF +
                ":3:3: credential-shaped-env: workflow env 'GH_TOKEN' names a credential\n" + kF +
                ":7:5: container-job: job 'build' uses 'container': jobs in a container need a "
                "container engine\n" +
                kF +
                ":10:14: expression-invalid: the script: Unrecognized named-value: 'a' (at "
                "character 1) in 'a'\n");
}

TEST(Planner, RefusesNeededJobsToo) {
  const std::string wf =
      job("    needs: lint\n") +
      "  lint:\n    runs-on: windows-latest\n    steps:\n      - uses: " + kCheckout + "\n";
  EXPECT_EQ(plan_text(wf), kF + ":10:14: runner-label: 'runs-on' is 'windows-latest'; only "
                                "ubuntu-latest and ubuntu-24.04 match the review image\n");
}

TEST(Planner, DispatchesInputsToThePlugin) {
  const std::string wf =
      job("", "").substr(0, job("", "").size() - 1) + "\n        with:\n          fetch-depth: 2\n";
  testing::Planned r;
  plan_text(wf, "build", "main", &r);
  ASSERT_EQ(r.refusals.size(), 1u);
  EXPECT_EQ(r.refusals[0].rule, "invalid-input-value");
  EXPECT_EQ(r.refusals[0].location->to_string(), kF + ":8:11");
}

}  // namespace
}  // namespace reviewer::plan
