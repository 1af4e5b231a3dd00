// The runner's default Node: a job none of whose steps (its local composite actions' included)
// pins node runs the runner image's own on CI, so the plan carries that as the job's pin, located
// at its `runs-on`; a job whose steps pin node gets none.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>

#include "core/plan/runner_image.h"
#include "tests/unit/plan/plan_test_support.h"

namespace reviewer::plan {
namespace {

using testing::kCheckout;

constexpr const char* kNode7 = "actions/setup-node@820762786026740c76f36085b0efc47a31fe5020";
constexpr const char* kBun22 = "oven-sh/setup-bun@0c5077e51419868618aeaa5fe8019c62421857d6";
constexpr const char* kDefault =
    "the runner's default Node 22 (ubuntu-24.04, actions/runner-images #14046)";

// Job `id` with `runs-on: ubuntu-latest`, a checkout and `steps`; `extra` holds job keys.
std::string job(const std::string& id, const std::string& steps, const std::string& extra = "") {
  return "  " + id + ":\n    runs-on: ubuntu-latest\n" + extra +
         "    steps:\n      - uses: " + kCheckout + "\n" + steps;
}

std::string setup_node(const std::string& version) {
  return std::string("      - uses: ") + kNode7 +
         "\n        with:\n          node-version: " + version +
         "\n          package-manager-cache: false\n";
}

// Every pin as "runtime version @location [runner default]", a line each.
std::string pins_of(const std::string& workflow, const std::string& job_id,
                    const std::map<std::string, std::string>& files = {}) {
  std::optional<Plan> plan;
  const std::string planned = testing::plan_over_files(workflow, files, job_id, &plan);
  if (!plan) {
    return planned;
  }
  std::string out;
  for (const auto& p : plan->pins) {
    out += p.runtime + " " + p.version + (p.asked.empty() ? "" : " (asked " + p.asked + ")") +
           " @" + p.location.to_string() +
           (p.runner_default.empty() ? "" : " [" + p.runner_default + "]") + "\n";
  }
  return out;
}

TEST(RunnerDefault, TheTableNamesOneRunnerImage) {
  EXPECT_TRUE(is_runner_label("ubuntu-latest"));
  EXPECT_TRUE(is_runner_label("ubuntu-24.04"));
  EXPECT_FALSE(is_runner_label("ubuntu-22.04"));
  const auto pin = runner_default_node({"ci.yml", 4, 14});
  EXPECT_EQ(pin.runtime, "node");
  EXPECT_EQ(pin.version, "22");
  EXPECT_EQ(pin.runner_default, kDefault);
  EXPECT_EQ(pin.location.to_string(), "ci.yml:4:14");
}

TEST(RunnerDefault, AJobWithoutANodePinGetsTheRunnersAtItsRunsOn) {
  EXPECT_EQ(
      pins_of("on: pull_request\njobs:\n" + job("test", "      - run: node --version\n"), "test"),
      std::string("node 22 @.github/workflows/ci.yml:4:14 [") + kDefault + "]\n");
  // One label in a list: located at the label.
  EXPECT_EQ(pins_of("on: pull_request\njobs:\n  test:\n    runs-on: [ubuntu-24.04]\n    steps:\n"
                    "      - uses: " +
                        std::string(kCheckout) + "\n",
                    "test"),
            std::string("node 22 @.github/workflows/ci.yml:4:15 [") + kDefault + "]\n");
}

TEST(RunnerDefault, AJobWithSetupNodeGetsNone) {
  EXPECT_EQ(pins_of("on: pull_request\njobs:\n" + job("test", setup_node("24.x")), "test"),
            "node 24.x @.github/workflows/ci.yml:9:11\n");
}

// A setup-node step that asks for no version installs none on CI: the job runs the runner's
// preinstalled node, so it gets the runner's default pin, as a job without setup-node does.
TEST(RunnerDefault, ASetupNodeStepWithoutAVersionLeavesTheRunnersNode) {
  EXPECT_EQ(
      pins_of("on: pull_request\njobs:\n" +
                  job("test", std::string("      - uses: ") + kNode7 +
                                  "\n        with:\n          package-manager-cache: false\n"),
              "test"),
      std::string("node 22 @.github/workflows/ci.yml:4:14 [") + kDefault + "]\n");
}

// A setup-node step that never runs (its `if:` is false before the run) selects nothing on CI.
TEST(RunnerDefault, ASetupNodeStepThatNeverRunsPinsNothing) {
  EXPECT_EQ(pins_of("on: pull_request\njobs:\n" +
                        job("test", std::string("      - if: false\n        uses: ") + kNode7 +
                                        "\n        with:\n          node-version: 24\n"),
                    "test"),
            std::string("node 22 @.github/workflows/ci.yml:4:14 [") + kDefault + "]\n");
}

// setup-bun selects Bun, not Node: the job still runs the runner's Node.
TEST(RunnerDefault, SetupBunAloneLeavesTheRunnersNode) {
  EXPECT_EQ(pins_of("on: pull_request\njobs:\n" +
                        job("test", std::string("      - uses: ") + kBun22 +
                                        "\n        with:\n          bun-version: 1.3.10\n"),
                    "test"),
            std::string("bun 1.3.10 @.github/workflows/ci.yml:9:11\n") +
                "node 22 @.github/workflows/ci.yml:4:14 [" + kDefault + "]\n");
}

// Each job of the closure is judged alone: the needed job without setup-node gets the runner's
// Node, the named one its own pin (the resolver then refuses the pair: one image cannot be both).
TEST(RunnerDefault, EachJobOfTheClosureOnItsOwn) {
  EXPECT_EQ(pins_of("on: pull_request\njobs:\n" + job("lint", "      - run: true\n") +
                        job("test", setup_node("24"), "    needs: lint\n"),
                    "test"),
            std::string("node 22 @.github/workflows/ci.yml:4:14 [") + kDefault + "]\n" +
                "node 24 @.github/workflows/ci.yml:15:11\n");
}

// A setup-node inside a local composite action pins the job's node as a step of its own would.
TEST(RunnerDefault, ALocalActionsSetupNodeCounts) {
  const std::map<std::string, std::string> files = {
      {".github/actions/node/action.yml",
       std::string("runs:\n  using: composite\n  steps:\n    - uses: ") + kNode7 +
           "\n      with:\n        node-version: 24.x\n        package-manager-cache: false\n"}};
  EXPECT_EQ(
      pins_of("on: pull_request\njobs:\n" + job("test", "      - uses: ./.github/actions/node\n"),
              "test", files),
      "node 24.x @.github/actions/node/action.yml:6:9\n");
}

// The jobs of a called workflow run on runners of their own: each is judged like any job, located
// in the called file; the calling job has no runner and no pin.
TEST(RunnerDefault, ACalledWorkflowsJobs) {
  const std::map<std::string, std::string> files = {
      {".github/workflows/build.yml", "on: workflow_call\njobs:\n" +
                                          job("plain", "      - run: true\n") +
                                          job("pinned", setup_node("22.x"))}};
  EXPECT_EQ(pins_of("on: pull_request\njobs:\n  call:\n    uses: ./.github/workflows/build.yml\n",
                    "call", files),
            std::string("node 22 @.github/workflows/build.yml:4:14 [") + kDefault + "]\n" +
                "node 22.x @.github/workflows/build.yml:14:11\n");
}

}  // namespace
}  // namespace reviewer::plan
