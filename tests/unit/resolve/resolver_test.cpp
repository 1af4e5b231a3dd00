// Resolution to one image, and every refusal kind with its exact rule and message.
#include <gtest/gtest.h>

#include <string>

#include "core/resolve/resolver.h"
#include "tests/support/temp_dir.h"

namespace reviewer::resolve {
namespace {

using test_support::TempDir;

RuntimeTable test_matrix() {
  RuntimeTable m;
  m.images = {
      {"reviewer-node20-bun13", {{"node", "20.20.2"}, {"bun", "1.3.10"}}},
      {"reviewer-node22-bun1310", {{"node", "22.22.1"}, {"bun", "1.3.10"}}},
      {"reviewer-node24-bun1310", {{"node", "24.11.1"}, {"bun", "1.3.10"}}},
      {"reviewer-node24-bun14-pnpm", {{"node", "24.11.1"}, {"bun", "1.4.0"}, {"pnpm", "9.1.0"}}},
  };
  return m;
}

const char* kHas =
    "the matrix has reviewer-node20-bun13 (node 20.20.2, bun 1.3.10); reviewer-node22-bun1310 "
    "(node 22.22.1, bun 1.3.10); reviewer-node24-bun1310 (node 24.11.1, bun 1.3.10); "
    "reviewer-node24-bun14-pnpm (node 24.11.1, bun 1.4.0, pnpm 9.1.0)";

class Resolver : public ::testing::Test {
 protected:
  util::Result<Resolution> run(const std::vector<Pin>& pins = {}) {
    return resolve(dir_.path(), matrix_, pins);
  }
  std::string image(const std::vector<Pin>& pins = {}) {
    auto r = run(pins);
    if (r) {
      return r->image;
    }
    std::string out;
    for (const auto& f : r.refusals()) {
      out += f.rule + ": " + f.message + "\n";
    }
    return out;
  }
  report::Refusals refusals(const std::vector<Pin>& pins = {}) {
    auto r = run(pins);
    if (!r) {
      return r.refusals();
    }
    ADD_FAILURE() << "resolved to " << r->image;
    return {};
  }
  TempDir dir_;
  RuntimeTable matrix_ = test_matrix();
};

TEST_F(Resolver, EnginesSelectsOneImage) {
  dir_.write("package.json", R"({"engines": {"node": "22.x"}})");
  EXPECT_EQ(image(), "reviewer-node22-bun1310");
  auto r = *run();
  EXPECT_EQ(r.runtimes.at("node"), "22.22.1");
  ASSERT_EQ(r.declarations.size(), 1U);
  EXPECT_EQ(r.declarations[0].source, "package.json engines.node");
}

TEST_F(Resolver, AllDeclarationsTogether) {
  dir_.write("package.json", R"({"engines": {"node": ">=20"}, "packageManager": "bun@1.3.10"})");
  dir_.write(".nvmrc", "v20.20.2\n");
  dir_.write(".tool-versions", "bun 1.3.10\n");
  EXPECT_EQ(image(), "reviewer-node20-bun13");
}

TEST_F(Resolver, PinsCount) {
  dir_.write(".nvmrc", ">=22\n");
  EXPECT_EQ(image({{"node", "22.22.1", {"ci.yml", 9, 7}}}), "reviewer-node22-bun1310");
}

// A range pin selects the image whose node satisfies it, as setup-node takes the newest release
// of the line; the worktree's declarations of node are then reported, not enforced.
TEST_F(Resolver, ARangePinSelectsItsLine) {
  dir_.write("package.json", R"({"engines": {"node": ">=20"}})");
  EXPECT_EQ(image({{"node", "22.x", {"ci.yml", 9, 7}}}), "reviewer-node22-bun1310");
  dir_.write("package.json", R"({"engines": {"node": ">=24"}})");
  EXPECT_EQ(image({{"node", "22.x", {"ci.yml", 9, 7}}}), "reviewer-node22-bun1310");
}

// CI installs the npm packageManager names only when a job enables corepack: reported, not
// required of the image.
TEST_F(Resolver, AnNpmPackageManagerIsReportedNotRequired) {
  dir_.write("package.json", R"({"packageManager": "npm@11.12.1"})");
  auto r = run({{"node", "22.x", {"ci.yml", 9, 7}}});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->image, "reviewer-node22-bun1310");
  ASSERT_EQ(r->notes.size(), 1U);
  EXPECT_EQ(
      r->notes[0],
      "package.json packageManager \"npm@11.12.1\" is not installed on CI unless a job enables "
      "corepack; the image's npm is used, as on CI");
}

// pnpm comes from the dependency store (the host fetches it for pnpm/action-setup), so its
// packageManager selects no image, even where an image carries a pnpm; it is reported.
TEST_F(Resolver, PnpmPackageManagerSelectsNoImage) {
  dir_.write("package.json",
             R"({"packageManager": "pnpm@10.33.0+sha512.abc", "engines": {"node": "22.x"}})");
  auto r = resolve(dir_.path(), matrix_, {});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->image, "reviewer-node22-bun1310");
  ASSERT_EQ(r->notes.size(), 1U);
  EXPECT_EQ(r->notes[0],
            "package.json packageManager \"pnpm@10.33.0+sha512.abc\" selects no image: pnpm is "
            "put on PATH only by a step of an action that installs it or by corepack, from the "
            "dependency store the host fetches it into");
  // A pnpm pin (pnpm/action-setup's) is reported the same way, never out-of-matrix.
  auto pinned =
      resolve(dir_.path(), matrix_, {{"pnpm", "9.15.9", {".github/workflows/ci.yml", 9, 18}}});
  ASSERT_TRUE(pinned) << pinned.error().message;
  EXPECT_EQ(pinned->image, "reviewer-node22-bun1310");
  EXPECT_EQ(pinned->notes.size(), 2U);
}

TEST_F(Resolver, PackageManagerNeedsTheToolInTheImage) {
  dir_.write("package.json", R"({"packageManager": "bun@0.1.0"})");
  const auto rs = refusals();
  ASSERT_EQ(rs.size(), 1U);
  EXPECT_EQ(rs[0].rule, "out-of-matrix");
  EXPECT_EQ(rs[0].message, std::string("missing image: bun 0.1.0 (declared by package.json "
                                       "packageManager); ") +
                               kHas);
}

// yarn comes from the dependency store too (the runner's 1.22.22, for a yarn.lock), so its
// packageManager selects no image; yarn 2 and later runs from the project's yarnPath.
TEST_F(Resolver, YarnPackageManagerSelectsNoImage) {
  dir_.write("package.json", R"({"packageManager": "yarn@1.22.19", "engines": {"node": "22.x"}})");
  auto r = resolve(dir_.path(), matrix_, {});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->image, "reviewer-node22-bun1310");
  ASSERT_EQ(r->notes.size(), 1U);
  EXPECT_EQ(r->notes[0],
            "package.json packageManager \"yarn@1.22.19\" selects no image: without corepack "
            "the runner runs its own yarn 1.22.22, which the host fetches into the dependency "
            "store for a yarn.lock, as it fetches this release for corepack");
  dir_.write("package.json", R"({"packageManager": "yarn@4.18.1", "engines": {"node": "22.x"}})");
  auto berry = resolve(dir_.path(), matrix_, {});
  ASSERT_TRUE(berry) << berry.error().message;
  ASSERT_EQ(berry->notes.size(), 1U);
  EXPECT_EQ(berry->notes[0],
            "package.json packageManager \"yarn@4.18.1\" selects no image: the runner's yarn "
            "1.22.22, which the host fetches into the dependency store for a yarn.lock, hands a "
            "project of yarn 2 and later over to the release its .yarnrc.yml `yarnPath` names; "
            "after `corepack enable`, corepack runs this release, which the host fetches for its "
            "cache");
}

TEST_F(Resolver, InvalidDeclaration) {
  dir_.write(".nvmrc", "system\n");
  dir_.write("package.json", R"({"engines": {"node": "22.x", "bun": "latest"}})");
  const auto rs = refusals();
  ASSERT_EQ(rs.size(), 2U);
  EXPECT_EQ(rs[0], (report::Refusal{"invalid-declaration",
                                    "package.json engines.bun declares bun \"latest\", an alias "
                                    "that cannot be resolved offline; write a version such as "
                                    "22.22.1 or a semver range such as 22.x",
                                    util::SourceLocation{"package.json"}}));
  EXPECT_EQ(rs[1], (report::Refusal{"invalid-declaration",
                                    ".nvmrc declares node \"system\", an alias that cannot be "
                                    "resolved offline; write a version such as 22.22.1 or a "
                                    "semver range such as 22.x",
                                    util::SourceLocation{".nvmrc", 1, 1}}));
}

TEST_F(Resolver, Conflicting) {
  dir_.write("package.json", R"({"engines": {"node": ">=24"}})");
  dir_.write(".nvmrc", "20\n");
  const auto rs = refusals();
  ASSERT_EQ(rs.size(), 1U);
  EXPECT_EQ(rs[0], (report::Refusal{"conflicting",
                                    "package.json engines.node \">=24\" and .nvmrc \"20\" "
                                    "conflict: no node version satisfies both; make them agree",
                                    util::SourceLocation{".nvmrc", 1, 1}}));
}

// CI installs what setup-node's node-version says and reads no .node-version: the file is
// reported, and the pin alone selects the image.
TEST_F(Resolver, ADeclarationAPinContradictsIsReportedNotEnforced) {
  dir_.write(".node-version", "22.22.1\n");
  auto r = run({{"node", "20.20.2", {"ci.yml", 9, 7}}});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->image, "reviewer-node20-bun13");
  ASSERT_EQ(r->notes.size(), 1U);
  EXPECT_EQ(r->notes[0],
            ".node-version \"22.22.1\" is reported, not enforced: CI runs the node that pin at "
            "ci.yml:9:7 \"20.20.2\" installs, and no step installs it from this declaration (a "
            "package manager that checks it does so in the review too)");
}

// The same for bun: hono's setup-bun reads .tool-versions, and packageManager's bun is read by
// nothing on CI.
TEST_F(Resolver, ABunDeclarationAPinContradictsIsReportedNotEnforced) {
  dir_.write("package.json", R"({"packageManager": "bun@1.4.0"})");
  auto r = run({{"bun", "1.3.10", {"ci.yml", 9, 7}}, {"node", "22", {"ci.yml", 8, 7}}});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->image, "reviewer-node22-bun1310");
  ASSERT_EQ(r->notes.size(), 1U);
  EXPECT_EQ(r->notes[0].rfind("package.json packageManager \"1.4.0\" is reported, not enforced", 0),
            0U);
}

// Where no job pins node, the worktree's declarations still select the image and must agree.
TEST_F(Resolver, WithoutAPinTwoDeclarationsStillConflict) {
  dir_.write(".node-version", "22.22.1\n");
  dir_.write(".nvmrc", "20\n");
  const auto rs = refusals();
  ASSERT_EQ(rs.size(), 1U);
  EXPECT_EQ(rs[0].rule, "conflicting");
}

// A job without actions/setup-node runs the runner's default Node on CI; the planner pins it.
// (A function, not a global aggregate: GCC 12 at -O3 warns that the global's strings may be
// used uninitialized in its static destructor, and the release preset builds with -Werror.)
Pin runner_default() {
  return Pin{"node",
             "22",
             {".github/workflows/ci.yml", 4, 14},
             "the runner's default Node 22 (ubuntu-24.04, actions/runner-images #14046)"};
}

TEST_F(Resolver, TheRunnersDefaultNodeSelectsItsLinesImage) {
  EXPECT_EQ(image({runner_default()}), "reviewer-node22-bun1310");
  dir_.write(".nvmrc", ">=20\n");
  dir_.write("package.json", R"({"engines": {"node": "22.x"}})");
  EXPECT_EQ(image({runner_default()}), "reviewer-node22-bun1310");
}

// A job without actions/setup-node runs the runner's Node whatever .nvmrc says: reported.
TEST_F(Resolver, ADeclarationTheRunnersDefaultNodeViolatesIsReported) {
  dir_.write(".nvmrc", "20\n");
  auto r = run({runner_default()});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->image, "reviewer-node22-bun1310");
  ASSERT_EQ(r->notes.size(), 1U);
  EXPECT_EQ(r->notes[0],
            ".nvmrc \"20\" is reported, not enforced: CI runs the node that the runner's default "
            "Node 22 (ubuntu-24.04, actions/runner-images #14046) at .github/workflows/ci.yml:4:14 "
            "installs, and no step installs it from this declaration (a package manager that "
            "checks it does so in the review too)");
  dir_.write(".nvmrc", ">=22.23\n");
  EXPECT_EQ(image({runner_default()}), "reviewer-node22-bun1310");
}

// A step's range pin the matrix has no image for is still a missing image.
TEST_F(Resolver, AStepPinTheMatrixLacksLeavesAnImageMissing) {
  const auto rs = refusals({{"node", "25", {".github/workflows/ci.yml", 9, 11}}});
  ASSERT_EQ(rs.size(), 1U);
  EXPECT_EQ(rs[0].rule, "out-of-matrix");
  EXPECT_EQ(rs[0].message.rfind("missing image: node 25 (declared by pin at "
                                ".github/workflows/ci.yml:9:11); ",
                                0),
            0U);
}

// One job pins Node 24, a job it needs runs the runner's Node 22: CI runs each on its own runner,
// the review runs both in one image, which cannot be both.
TEST_F(Resolver, ASetupNodeJobAndAJobWithoutOneConflict) {
  const auto rs =
      refusals({runner_default(), {"node", "24", {".github/workflows/ci.yml", 15, 11}}});
  ASSERT_EQ(rs.size(), 1U);
  EXPECT_EQ(rs[0], (report::Refusal{
                       "conflicting",
                       "pin at .github/workflows/ci.yml:15:11 \"24\" and the runner's default Node "
                       "22 (ubuntu-24.04, actions/runner-images #14046) at "
                       ".github/workflows/ci.yml:4:14 conflict: that job runs the matrix's node "
                       "22.22.1, which \"24\" does not admit; make them agree, or give the job a "
                       "step that installs the node they declare",
                       util::SourceLocation{".github/workflows/ci.yml", 4, 14}}));
}

// Two jobs without setup-node: the same Node, no conflict between them.
TEST_F(Resolver, TwoJobsOnTheRunnersNodeAgree) {
  Pin other = runner_default();
  other.location.line = 9;
  EXPECT_EQ(image({runner_default(), other}), "reviewer-node22-bun1310");
}

// A matrix without the runner's line: the image is missing, named by the runner's default.
TEST_F(Resolver, AMatrixWithoutTheRunnersLine) {
  matrix_.images.erase(matrix_.images.begin() + 1);
  const auto rs = refusals({runner_default()});
  ASSERT_EQ(rs.size(), 1U);
  EXPECT_EQ(rs[0].rule, "out-of-matrix");
  EXPECT_EQ(rs[0].message.rfind("missing image: node 22 (declared by the runner's default Node 22 "
                                "(ubuntu-24.04, actions/runner-images #14046) at "
                                ".github/workflows/ci.yml:4:14); ",
                                0),
            0U);
}

TEST_F(Resolver, OutOfMatrix) {
  dir_.write("package.json", R"({"engines": {"node": ">=25"}})");
  dir_.write(".bun-version", "1.3.10\n");
  const auto rs = refusals();
  ASSERT_EQ(rs.size(), 1U);
  EXPECT_EQ(rs[0], (report::Refusal{"out-of-matrix",
                                    std::string("missing image: node >=25 with bun 1.3.10 "
                                                "(declared by package.json engines.node, "
                                                ".bun-version); ") +
                                        kHas,
                                    std::nullopt}));
}

TEST_F(Resolver, OutOfMatrixWhenOnlyTheCombinationIsMissing) {
  dir_.write(".nvmrc", "22\n");
  dir_.write(".bun-version", "1.4.0\n");
  const auto rs = refusals();
  ASSERT_EQ(rs.size(), 1U);
  EXPECT_EQ(rs[0].rule, "out-of-matrix");
  EXPECT_EQ(rs[0].message.rfind("missing image: node 22 with bun 1.4.0 (declared by", 0), 0U);
}

TEST_F(Resolver, PrereleaseNotAdmitted) {
  matrix_.images = {{"rc", {{"node", "25.0.0-rc.1"}, {"bun", "1.3.10"}}}};
  dir_.write(".nvmrc", ">=24\n");
  EXPECT_EQ(refusals()[0].rule, "out-of-matrix");
}

TEST_F(Resolver, Ambiguous) {
  dir_.write("package.json", R"({"engines": {"node": ">=22"}})");
  const auto rs = refusals();
  ASSERT_EQ(rs.size(), 1U);
  EXPECT_EQ(rs[0], (report::Refusal{
                       "ambiguous",
                       "node >=22 (declared by package.json engines.node) matches 3 images: "
                       "reviewer-node22-bun1310 (node 22.22.1, bun 1.3.10); "
                       "reviewer-node24-bun1310 (node 24.11.1, bun 1.3.10); "
                       "reviewer-node24-bun14-pnpm (node 24.11.1, bun 1.4.0, pnpm 9.1.0); declare "
                       "an exact version (e.g. in .nvmrc or package.json engines) to select one",
                       std::nullopt}));
}

TEST_F(Resolver, NoDeclarationsIsAmbiguous) {
  const auto rs = refusals();
  ASSERT_EQ(rs.size(), 1U);
  EXPECT_EQ(rs[0].rule, "ambiguous");
  EXPECT_EQ(rs[0].message.rfind("no declaration names a version, and all 4 images: ", 0), 0U);
}

TEST_F(Resolver, SymlinkedDeclarationRefused) {
  TempDir outside;
  outside.write(".nvmrc", "22\n");
  ASSERT_EQ(::symlink((outside / ".nvmrc").c_str(), (dir_ / ".nvmrc").c_str()), 0);
  const auto rs = refusals();
  ASSERT_EQ(rs.size(), 1U);
  EXPECT_EQ(rs[0].rule, "invalid-declaration");
  EXPECT_EQ(rs[0].location, util::SourceLocation{".nvmrc"});
}

}  // namespace
}  // namespace reviewer::resolve
