// Version files a step names (setup-node's node-version-file, setup-bun's bun-version-file): read
// by the host at plan time for the plugin, with the action's rules, from the repository under
// review as hostile input; what they give becomes the pin, located in the file; each refusal is
// given in full, and each hostile file is refused by its rule.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>

#include "core/plan/repository_files.h"
#include "core/util/sha256.h"
#include "tests/unit/plan/plan_test_support.h"

namespace reviewer::plan {
namespace {

using testing::kCheckout;

constexpr const char* kNode7 = "actions/setup-node@820762786026740c76f36085b0efc47a31fe5020";
constexpr const char* kBun22 = "oven-sh/setup-bun@0c5077e51419868618aeaa5fe8019c62421857d6";

// Job `build`: checkout, then the step `uses` with the `with:` lines given (at input depth).
std::string workflow(const std::string& uses, const std::string& with) {
  return "on: pull_request\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n"
         "      - uses: " +
         std::string(kCheckout) + "\n      - uses: " + uses + "\n        with:\n" + with;
}

std::string plan_with(const std::string& text, const std::map<std::string, std::string>& files,
                      std::optional<Plan>* out = nullptr) {
  return testing::plan_over_files(text, files, "build", out);
}

std::string pins(const Plan& plan) {
  std::string out;
  for (const auto& p : plan.pins) {
    out += p.runtime + " " + p.version + " @" + p.location.to_string() + "\n";
  }
  return out;
}

TEST(VersionFile, NvmrcBecomesThePinLocatedInTheFile) {
  std::optional<Plan> plan;
  ASSERT_EQ(plan_with(workflow(kNode7,
                               "          node-version-file: .nvmrc\n"
                               "          package-manager-cache: false\n"),
                      {{".nvmrc", "# LTS line\nv22.23.5\n"}}, &plan),
            "(planned)\n");
  EXPECT_EQ(pins(*plan), "node 22.23.5 @.nvmrc:2:2\n");
  const PlannedStep& step = plan->jobs.at(0).steps.at(1);
  EXPECT_EQ(step.assertion,
            "node 22.23.5 (.nvmrc:2:2) is the image's node (pinned; the launcher verifies it); no "
            "registry, cache or mirror is configured");
  // The plan records what was read, not what the plugin made of it: the launcher compares bytes.
  ASSERT_EQ(step.repository_files.size(), 1U);
  EXPECT_EQ(step.repository_files[0].path, ".nvmrc");
  EXPECT_EQ(step.repository_files[0].outcome, plugins::RepositoryFileRead::Outcome::kRead);
  EXPECT_EQ(step.repository_files[0].sha256, util::sha256_hex("# LTS line\nv22.23.5\n"));
  EXPECT_EQ(step.repository_files[0].max_bytes, 65536U);
  EXPECT_EQ(step.repository_files[0].input.to_string(), ".github/workflows/ci.yml:9:11");
}

// Every file the reader asked for is recorded once, as found: each of a volta.extends chain, and a
// package.json pnpm/action-setup reads and finds missing (v4.0.0 goes on without it).
TEST(VersionFile, EveryFileReadIsRecordedAsFound) {
  std::optional<Plan> plan;
  ASSERT_EQ(plan_with(workflow(kNode7,
                               "          node-version-file: apps/package.json\n"
                               "          package-manager-cache: false\n"),
                      {{"apps/package.json", R"({"volta": {"extends": "../base.json"}})"},
                       {"base.json", R"({"volta": {"node": "22.23.5"}})"}},
                      &plan),
            "(planned)\n");
  const auto& reads = plan->jobs.at(0).steps.at(1).repository_files;
  ASSERT_EQ(reads.size(), 2U);
  EXPECT_EQ(reads[0].path, "apps/package.json");
  EXPECT_EQ(reads[0].max_bytes, 1048576U);
  EXPECT_EQ(reads[1].path, "base.json");
  EXPECT_EQ(reads[1].sha256, util::sha256_hex(R"({"volta": {"node": "22.23.5"}})"));
  EXPECT_EQ(reads[1].max_bytes, 65536U);
  EXPECT_EQ(reads[1].input.to_string(), ".github/workflows/ci.yml:9:11");

  ASSERT_EQ(plan_with(workflow("pnpm/action-setup@fe02b34f77f8bc703788d5817da081398fad5dd2",
                               "          version: 10.33.0\n"),
                      {}, &plan),
            "(planned)\n");
  const auto& pnpm = plan->jobs.at(0).steps.at(1).repository_files;
  ASSERT_EQ(pnpm.size(), 1U);
  EXPECT_EQ(pnpm[0].path, "package.json");
  EXPECT_EQ(pnpm[0].outcome, plugins::RepositoryFileRead::Outcome::kMissing);
  EXPECT_EQ(pnpm[0].sha256, "");
}

TEST(VersionFile, NodeVersionWinsAndTheFileIsNotRead) {
  std::optional<Plan> plan;
  ASSERT_EQ(plan_with(workflow(kNode7,
                               "          node-version: 24.x\n"
                               "          node-version-file: missing/.nvmrc\n"
                               "          package-manager-cache: false\n"),
                      {}, &plan),
            "(planned)\n");
  EXPECT_EQ(pins(*plan), "node 24.x @.github/workflows/ci.yml:9:11\n");
  const PlannedStep& step = plan->jobs.at(0).steps.at(1);
  EXPECT_TRUE(step.repository_files.empty());
  EXPECT_EQ(step.assertion,
            "node 24.x is the image's node (pinned; the launcher verifies it); "
            "'node-version-file' is ignored, as the action ignores it (with a warning); no "
            "registry, cache or mirror is configured");
}

TEST(VersionFile, BunRangeFromPackageJson) {
  std::optional<Plan> plan;
  ASSERT_EQ(plan_with(workflow(kBun22, "          bun-version-file: package.json\n"),
                      {{"package.json",
                        R"({"packageManager": "pnpm@9.1.0", "engines": {"bun": "1.3.x"}})"}},
                      &plan),
            "(planned)\n");
  // The job has no setup-node: its Node is the runner's default, pinned at its runs-on.
  EXPECT_EQ(pins(*plan), "bun 1.3.x @package.json\nnode 22 @.github/workflows/ci.yml:4:14\n");
}

// Every refusal, in full: where the action fails the step, falls back to a version the workflow
// did not ask for, or reads something the review cannot tell.
TEST(VersionFile, RefusalsInFull) {
  const std::string node = "          package-manager-cache: false\n";
  EXPECT_EQ(plan_with(workflow(kNode7, "          node-version-file: .nvmrc\n" + node), {}),
            ".github/workflows/ci.yml:9:11: version-file-missing: 'node-version-file' names "
            "\".nvmrc\", which is not in the repository; actions/setup-node fails the step there "
            "(\"The specified node version file at: ... does not exist\")\n");
  EXPECT_EQ(plan_with(workflow(kNode7, "          node-version-file: .nvmrc\n" + node),
                      {{".nvmrc", MemoryFiles::kSymlinkForTest}}),
            ".github/workflows/ci.yml:9:11: invalid-declaration: 'node-version-file' names "
            "\".nvmrc\", which is reached through a symbolic link (Too many levels of symbolic "
            "links); a version file must be a regular file of the worktree of at most 65536 "
            "bytes, read without following links\n");
  EXPECT_EQ(plan_with(workflow(kNode7, "          node-version-file: ../.nvmrc\n" + node), {}),
            ".github/workflows/ci.yml:9:11: version-file-outside: 'node-version-file' "
            "\"../.nvmrc\" leaves the workspace; the review reads version files of the repository "
            "under review only, so name a file inside it\n");
  EXPECT_EQ(plan_with(workflow(kNode7, "          node-version-file: .nvmrc\n" + node),
                      {{".nvmrc", "v25.0.0-rc.1\n"}}),
            ".nvmrc:1:2: runtime-version-not-exact: actions/setup-node 'node-version-file' "
            "'.nvmrc' gives '25.0.0-rc.1'; nightly, rc and canary builds come from other "
            "distributions than the matrix's; write a version, a range such as 22.x or lts/*\n");
  EXPECT_EQ(plan_with(workflow(kNode7, "          node-version-file: package.json\n" + node),
                      {{"package.json", R"({"name": "app"})"}}),
            ".github/workflows/ci.yml:9:11: runtime-version-not-exact: actions/setup-node "
            "'node-version-file' 'package.json' gives no version (the action warns \"Could not "
            "determine node version\" and uses the runner's preinstalled node); write a version "
            "or a range such as 22.x in it\n");
  EXPECT_EQ(plan_with(workflow(kNode7, "          node-version-file: .nvmrc\n" + node),
                      {{".nvmrc", "#pinned\n22\n"}}),
            ".nvmrc:1:1: invalid-declaration: pin at .nvmrc:1:1 declares node \"#pinned\", which "
            "is not a version or semver range (\"#pinned\" is not a valid semver range: "
            "\"#pinned\" is not a comparator (expected an operator <, <=, >, >=, = or none, then "
            "a version))\n");
  EXPECT_EQ(plan_with(workflow(kBun22, "          bun-version-file: bun.txt\n"), {}),
            ".github/workflows/ci.yml:9:11: version-file-unsupported: 'bun-version-file' "
            "\"bun.txt\" is not a file oven-sh/setup-bun reads a version from (package.json, "
            ".tool-versions, .bumrc or .bun-version); it would ignore it, warn, and install "
            "another bun (package.json's, or the latest)\n");
  EXPECT_EQ(plan_with(workflow(kBun22, "          bun-version-file: .bun-version\n"),
                      {{".bun-version", "~ 1.3.0\n"}}),
            ".bun-version:1:1: runtime-version-not-exact: oven-sh/setup-bun 'bun-version-file' "
            "'.bun-version' gives '~ 1.3.0'; write an exact X.Y.Z or a range npm semver and the "
            "action's compare-versions read alike (1.3.x, ^1.3.0, >=1.2.0 <1.4.0); latest, "
            "canary, prereleases and v prefixes are resolved online\n");
  EXPECT_EQ(plan_with(workflow("oven-sh/setup-bun@b7a1c7ccf290d58743029c4f6903da283811b979",
                               "          bun-version: 1.3.x\n"),
                      {}),
            ".github/workflows/ci.yml:9:11: runtime-version-not-exact: oven-sh/setup-bun "
            "'bun-version' is '1.3.x'; this release resolves anything but an exact X.Y.Z online "
            "(bun.sh/download); write an exact X.Y.Z\n");
}

// A release tag is accepted only when every release it may name reads the file alike.
TEST(VersionFile, ReleasesThatReadTheFileDifferentlyAreAmbiguous) {
  const std::map<std::string, std::string> files = {
      {"package.json",
       R"({"devEngines": {"runtime": {"name": "node", "version": "24"}}, "engines": {"node": "22"}})"}};
  EXPECT_EQ(plan_with(workflow("actions/setup-node@v6",
                               "          node-version-file: package.json\n"
                               "          package-manager-cache: false\n"),
                      files),
            ".github/workflows/ci.yml:7:15: release-tag-ambiguous: actions/setup-node@v6 may name "
            "v6.5.0 or v6.2.0, which treat this step differently; pin one of them\n");
  std::optional<Plan> plan;
  ASSERT_EQ(plan_with(workflow("actions/setup-node@v6",
                               "          node-version-file: .nvmrc\n"
                               "          package-manager-cache: false\n"),
                      {{".nvmrc", "22\n"}}, &plan),
            "(planned)\n");
  EXPECT_EQ(pins(*plan), "node 22 @.nvmrc:1:1\n");
}

// The host reads nothing outside the repository's files: each hostile file is refused by its
// rule, and a file the action would read through a link is never opened through it.
TEST(VersionFile, HostileFilesAreRefusedByRule) {
  struct Hostile {
    std::string uses;
    std::string input;
    std::map<std::string, std::string> files;
    std::string rule;
  };
  const std::string big(70000, '2');
  for (const Hostile& h : std::vector<Hostile>{
           {kNode7,
            "node-version-file: .nvmrc",
            {{".nvmrc", MemoryFiles::kSymlinkForTest}},
            "invalid-declaration"},
           {kNode7, "node-version-file: ../../etc/passwd", {}, "version-file-outside"},
           {kNode7, "node-version-file: .nvmrc", {{".nvmrc", big}}, "invalid-declaration"},
           {kNode7, "node-version-file: .nvmrc", {}, "version-file-missing"},
           // A NUL would end a C path early and name .nvmrc; Node finds no such file.
           {kNode7,
            "node-version-file: \".nvmrc\\0x\"",
            {{".nvmrc", "22\n"}},
            "version-file-missing"},
           {kNode7,
            "node-version-file: package.json",
            {{"package.json", R"({"volta": {"extends": "../../../etc/package.json"}})"}},
            "version-file-outside"},
           {kNode7,
            "node-version-file: package.json",
            {{"package.json", R"({"volta": {"extends": "base.json"}})"},
             {"base.json", MemoryFiles::kSymlinkForTest}},
            "invalid-declaration"},
           {kNode7,
            "node-version-file: .nvmrc",
            {{".nvmrc", "24-nightly\n"}},
            "runtime-version-not-exact"},
           {kBun22, "bun-version-file: /etc/.bun-version", {}, "version-file-outside"},
           {kBun22,
            "bun-version-file: .bun-version",
            {{".bun-version", MemoryFiles::kSymlinkForTest}},
            "invalid-declaration"},
           {kBun22,
            "bun-version-file: secrets.env",
            {{"secrets.env", "1.3.10"}},
            "version-file-unsupported"},
           {kBun22,
            "bun-version-file: .bun-version",
            {{".bun-version", "latest"}},
            "runtime-version-not-exact"},
       }) {
    const std::string got = plan_with(
        workflow(h.uses, "          " + h.input + "\n" +
                             (h.uses == kNode7 ? "          package-manager-cache: false\n" : "")),
        h.files);
    EXPECT_NE(got.find(": " + h.rule + ": "), std::string::npos) << h.input << "\n" << got;
    EXPECT_EQ(std::count(got.begin(), got.end(), '\n'), 1) << h.input << "\n" << got;
  }
}

}  // namespace
}  // namespace reviewer::plan
