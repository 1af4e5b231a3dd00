// The image description is the launcher's account of which matrix image it runs in; its runtime
// versions must be that matrix image's, or a repository asking for one Node would be built and
// passed with another.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "tests/e2e/e2e_support.h"
#include "tests/e2e/sandbox.h"

namespace reviewer::e2e {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// A copy of the staged image whose image.json has `from` replaced by `to`.
class DoctoredImage {
 public:
  DoctoredImage(const std::string& from, const std::string& to) {
    std::string tmpl = (std::filesystem::temp_directory_path() / "reviewer-image-XXXXXX").string();
    root_ = ::mkdtemp(tmpl.data());
    // cp -a keeps the owners and modes the plugin host checks.
    auto copied = run_command("cp -a " REVIEWER_E2E_STAGE " " + root_ + "/stage");
    if (copied.exit_code != 0) {
      throw std::runtime_error(copied.output);
    }
    const std::string file = prefix() + "/share/reviewer/image.json";
    std::stringstream ss;
    ss << std::ifstream(file).rdbuf();
    std::string text = ss.str();
    auto at = text.find(from);
    if (at == std::string::npos) {
      throw std::runtime_error("'" + from + "' is not in " + file + ":\n" + text);
    }
    text.replace(at, from.size(), to);
    std::filesystem::permissions(file, std::filesystem::perms::owner_write,
                                 std::filesystem::perm_options::add);
    std::ofstream(file, std::ios::trunc) << text;
  }
  ~DoctoredImage() { std::filesystem::remove_all(root_); }
  DoctoredImage(const DoctoredImage&) = delete;
  DoctoredImage& operator=(const DoctoredImage&) = delete;

  std::string prefix() const { return root_ + "/stage"; }

  // Replaces the file at `relative` (under the prefix) with an executable holding `text`.
  void replace_file(const std::string& relative, const std::string& text) const {
    const std::string file = prefix() + "/" + relative;
    std::filesystem::remove(file);
    std::ofstream(file) << text;
    std::filesystem::permissions(
        file, std::filesystem::perms::owner_all | std::filesystem::perms::group_read |
                  std::filesystem::perms::group_exec | std::filesystem::perms::others_read |
                  std::filesystem::perms::others_exec);
  }

 private:
  std::string root_;
};

SandboxRun in_image(const DoctoredImage& image, std::vector<std::string> args = {}) {
  SandboxRun run;
  run.prefix = image.prefix();
  run.launcher_args = std::move(args);
  return run;
}

// image.json names the Node 24 image but keeps declaring (and carrying) Node 22; the job selects
// Node 24, so only the contradiction is wrong.
TEST_F(LauncherE2E, AnImageDescriptionThatContradictsTheMatrixIsRefused) {
  DoctoredImage image(R"("name": "reviewer-node22-bun1310")",
                      R"("name": "reviewer-node24-bun1310")");
  ExampleRepo repo;
  repo.write("package.json",
             R"({"name": "x", "private": true, "type": "module", "engines": {"node": "24.x"},)"
             R"( "scripts": {"lint": "node scripts/lint.mjs", "test": "node --test",)"
             R"( "build": "node scripts/build.mjs"}})"
             "\n");
  repo.write(".nvmrc", "24\n");
  repo.write(
      ".github/workflows/ci.yml",
      workflow(job("test", std::string("      - uses: ") + kSetupNode +
                               "\n        with:\n          node-version: 24\n"
                               "      - name: Node version\n        run: node --version\n")));
  repo.clone();
  auto r = run_launcher(repo.workspace(), in_image(image));
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_THAT(r.last_line(), ::testing::MatchesRegex(
                                 "review-build-refused: runtime-mismatch: image.json declares "
                                 "node [0-9.]+, but matrix image reviewer-node24-bun1310 carries "
                                 "node 24\\.22\\.3"));
  EXPECT_THAT(r.output, Not(HasSubstr("Node version]")));

  auto self = run_launcher(repo.workspace(), in_image(image, {"--self-check"}));
  EXPECT_EQ(self.exit_code, 3) << self.output;
  EXPECT_THAT(self.last_line(), HasSubstr("runtime-mismatch: image.json declares node "));
}

TEST_F(LauncherE2E, AnImageDescriptionNamingNoMatrixImageIsRefused) {
  DoctoredImage image(R"("name": "reviewer-node22-bun1310")", R"("name": "reviewer-homemade")");
  ExampleRepo repo;
  repo.clone();
  auto r = run_launcher(repo.workspace(), in_image(image, {"--self-check"}));
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_THAT(r.last_line(), HasSubstr("image-info-invalid: "));
  EXPECT_THAT(r.last_line(), HasSubstr("'reviewer-homemade' is not an image of the matrix"));
}

// An impostor that prints the right version passes --version; the self-check holds its bytes to
// the trusted table's SHA-256.
TEST_F(LauncherE2E, ARuntimeWhoseBytesAreNotTheTablesFailsTheSelfCheck) {
  DoctoredImage image(R"("name": "reviewer-node22-bun1310")",
                      R"("name": "reviewer-node22-bun1310")");
  image.replace_file("runtimes/bun/bin/bun", "#!/bin/sh\necho 1.3.10\n");
  ExampleRepo repo;
  repo.clone();
  auto r = run_launcher(repo.workspace(), in_image(image, {"--self-check"}));
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_THAT(r.last_line(), ::testing::MatchesRegex(
                                 "review-build-refused: runtime-checksum: bun 1\\.3\\.10 at "
                                 "/opt/reviewer/runtimes/bun/bin/bun has SHA-256 [0-9a-f]{64}, "
                                 "the trusted table records 3632a4fa[0-9a-f]{56}"));
}

// A build holds every runtime it can reach to the version the image declares before any step
// runs, even though it asks them while it plans (core/launch/image_info.h). node is on every
// step's PATH; bun only after setup-bun, so a build without it never asks bun.
TEST_F(LauncherE2E, ARuntimePrintingAnotherVersionRefusesTheBuildsThatReachIt) {
  DoctoredImage image(R"("name": "reviewer-node22-bun1310")",
                      R"("name": "reviewer-node22-bun1310")");
  image.replace_file("runtimes/bun/bin/bun", "#!/bin/sh\necho 1.3.9\n");
  ExampleRepo repo;
  repo.write(
      ".github/workflows/bun.yml",
      workflow(job("test",
                   "      - uses: oven-sh/setup-bun@0c5077e51419868618aeaa5fe8019c62421857d6\n"
                   "        with:\n          bun-version: 1.3.10\n"
                   "      - run: bun --version\n")));
  repo.clone();
  SandboxRun with_bun = in_image(image);
  with_bun.workflow = ".github/workflows/bun.yml";
  auto r = run_launcher(repo.workspace(), with_bun);
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_EQ(r.last_line(),
            "review-build-refused: runtime-mismatch: bun at /opt/reviewer/runtimes/bun/bin/bun "
            "printed '1.3.9', the image declares 1.3.10");
  EXPECT_THAT(r.output, Not(HasSubstr("started")));

  // The example's workflow never puts bun on PATH, as on a runner, which carries none.
  auto without = run_launcher(repo.workspace(), in_image(image));
  EXPECT_EQ(without.exit_code, 0) << without.output;
  EXPECT_EQ(without.last_line(), "review-build-ok");
}

// An impostor node, with a workflow the planner refuses: the runtime is named, as it was when
// the runtimes were asked before the workflow was read, and the workflow's refusal is not printed.
TEST_F(LauncherE2E, ARuntimePrintingAnotherVersionIsNamedBeforeTheWorkflowsRefusal) {
  DoctoredImage image(R"("name": "reviewer-node22-bun1310")",
                      R"("name": "reviewer-node22-bun1310")");
  image.replace_file("runtimes/node/bin/node", "#!/bin/sh\necho v22.0.0\n");
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml",
             workflow(job("test", "      - uses: someone/unreviewed-action@v1\n")));
  repo.clone();
  auto r = run_launcher(repo.workspace(), in_image(image));
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_THAT(r.last_line(), HasSubstr("review-build-refused: runtime-mismatch: node at "));
  EXPECT_THAT(r.output, Not(HasSubstr("unsupported-action")));

  // With the image's own node back, the workflow's refusal is what is left.
  auto plain = run_launcher(repo.workspace(), SandboxRun{});
  EXPECT_EQ(plain.exit_code, 3) << plain.output;
  EXPECT_THAT(plain.last_line(), HasSubstr("unsupported-action"));
}

}  // namespace
}  // namespace reviewer::e2e
