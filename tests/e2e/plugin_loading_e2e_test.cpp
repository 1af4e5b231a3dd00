// The launcher verifies and loads only the plugins its plan uses (core/plugins/registry.h): a
// tampered plugin a step uses is refused by its rule before any step runs; one no step uses is
// never read by a build, and the self-check, which loads every plugin, refuses it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "tests/e2e/e2e_support.h"
#include "tests/e2e/sandbox.h"

namespace reviewer::e2e {
namespace {

using ::testing::HasSubstr;
using ::testing::MatchesRegex;
using ::testing::Not;

// A copy of the staged image with bytes appended to one plugin after the install wrote its
// manifest and index.
class TamperedPlugin {
 public:
  explicit TamperedPlugin(const std::string& plugin) {
    std::string tmpl = (std::filesystem::temp_directory_path() / "reviewer-image-XXXXXX").string();
    root_ = ::mkdtemp(tmpl.data());
    // cp -a keeps the owners and modes the plugin host checks.
    auto copied = run_command("cp -a " REVIEWER_E2E_STAGE " " + root_ + "/stage");
    if (copied.exit_code != 0) {
      throw std::runtime_error(copied.output);
    }
    std::ofstream(prefix() + "/plugins/" + plugin, std::ios::app) << "tampered";
  }
  ~TamperedPlugin() { std::filesystem::remove_all(root_); }
  TamperedPlugin(const TamperedPlugin&) = delete;
  TamperedPlugin& operator=(const TamperedPlugin&) = delete;

  std::string prefix() const { return root_ + "/stage"; }

 private:
  std::string root_;
};

SandboxRun in_image(const TamperedPlugin& image, std::vector<std::string> args = {}) {
  SandboxRun run;
  run.prefix = image.prefix();
  run.launcher_args = std::move(args);
  return run;
}

TEST_F(LauncherE2E, ATamperedPluginAStepUsesIsRefusedBeforeAnyStepRuns) {
  TamperedPlugin image("checkout.so");
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml", workflow(job("test", "      - run: echo step-ran\n")));
  repo.clone();
  auto r = run_launcher(repo.workspace(), in_image(image));
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_THAT(r.last_line(),
              MatchesRegex("review-build-refused: .*plugin-hash-mismatch: 'checkout.so' has "
                           "SHA-256 [0-9a-f]{64}, the manifest says [0-9a-f]{64}"));
  EXPECT_THAT(r.output, Not(HasSubstr("step-ran")));
}

TEST_F(LauncherE2E, ATamperedPluginNoStepUsesIsLeftToTheSelfCheck) {
  TamperedPlugin image("codecov.so");
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml", workflow(job("test", "      - run: echo step-ran\n")));
  repo.clone();
  auto r = run_launcher(repo.workspace(), in_image(image));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.last_line(), "review-build-ok");

  auto self = run_launcher(repo.workspace(), in_image(image, {"--self-check"}));
  EXPECT_EQ(self.exit_code, 3) << self.output;
  EXPECT_THAT(self.output, MatchesRegex("(.|\n)*plugin-hash-mismatch: 'codecov.so' has SHA-256 "
                                        "[0-9a-f]{64}, the manifest says [0-9a-f]{64}(.|\n)*"));
}

}  // namespace
}  // namespace reviewer::e2e
