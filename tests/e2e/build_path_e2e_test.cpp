// The spec's build-path fixtures that were covered only by unit tests, end to end (issue 12): a
// declaration outside the trusted matrix and one that selects another image, impostor binaries
// on the caller's PATH, a clone that is not clean, and an auth header in the clone's git
// configuration. They run in the run model and, under label `image`, in the real image with the
// production podman flags.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/e2e/e2e_support.h"
#include "tests/e2e/sandbox.h"

namespace reviewer::e2e {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

// The job's setup-node takes its Node from the declaration (without a setup-node step the job
// would run the runner's default Node, and the declaration would conflict with that instead).
std::string node_from_nvmrc(const std::string& then) {
  return std::string("      - uses: ") + kSetupNode +
         "\n        with:\n          node-version-file: .nvmrc\n"
         "          package-manager-cache: false\n" +
         then;
}

TEST_F(LauncherE2E, ADeclarationOutsideTheMatrixIsRefusedBeforeAnyStep) {
  ExampleRepo repo;
  repo.write(".nvmrc", "18.20.4\n");
  repo.write("package.json", "{\"name\": \"x\", \"version\": \"1.0.0\"}\n");
  repo.write(".github/workflows/ci.yml",
             workflow(job("test", node_from_nvmrc("      - run: echo step-ran\n"))));
  repo.clone();
  auto r = run_launcher(repo.workspace());
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_THAT(r.last_line(), StartsWith("review-build-refused: ")) << r.output;
  EXPECT_THAT(r.last_line(), HasSubstr("out-of-matrix: missing image: node 18.20.4")) << r.output;
  EXPECT_THAT(r.output, Not(HasSubstr("step-ran")));
}

TEST_F(LauncherE2E, ADeclarationThatSelectsAnotherImageIsRefusedBeforeAnyStep) {
  ExampleRepo repo;
  repo.write(".nvmrc", "24\n");
  repo.write("package.json",
             "{\"name\": \"x\", \"version\": \"1.0.0\", \"engines\": {\"node\": \"24.x\"}}\n");
  repo.write(".github/workflows/ci.yml",
             workflow(job("test", node_from_nvmrc("      - run: echo step-ran\n"))));
  repo.clone();
  SandboxRun run;
  run.after = "cat /tmp/review/report.json";
  auto r = run_launcher(repo.workspace(), run);
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_THAT(r.last_line(), StartsWith("review-build-refused: other-image: ")) << r.output;
  EXPECT_THAT(r.last_line(),
              HasSubstr("select image reviewer-node24-bun1310, but this sandbox runs "
                        "reviewer-node22-bun1310"))
      << r.output;
  EXPECT_THAT(r.output, Not(HasSubstr("step-ran")));
  // The reports still say what was planned, and why none of it ran.
  EXPECT_THAT(r.after, HasSubstr("\"plan\": {"));
  EXPECT_THAT(r.after, HasSubstr("other-image"));
}

// The caller (whoever execs the launcher in the sandbox) puts its own node, bash, git and npm
// first on PATH; the launcher runs the image's runtimes at fixed paths and gives steps its own
// PATH, so none of them ever runs.
TEST_F(LauncherE2E, ImpostorBinariesOnTheCallersPathNeverRun) {
  ExampleRepo repo;
  const std::string impostor = "#!/bin/sh\necho IMPOSTOR-RAN \"$0\" >&2\necho 99.0.0\n";
  for (const char* tool : {"node", "bash", "git", "npm", "sh"}) {
    repo.write(std::string("impostor/") + tool, impostor);
  }
  run_command("chmod +x " + repo.source() + "/impostor/*");
  repo.clone();
  auto r = run_launcher(repo.workspace(), [] {
    SandboxRun run;
    run.caller_env = {"PATH=/workspace/impostor:/usr/bin:/bin"};
    return run;
  }());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.last_line(), "review-build-ok") << r.output;
  EXPECT_THAT(r.output, Not(HasSubstr("IMPOSTOR-RAN")));
}

TEST_F(LauncherE2E, AnUntrackedFileInTheCloneFailsTheCleanCloneCheck) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml", workflow(job("test", "      - run: echo step-ran\n")));
  repo.clone();
  run_command("echo planted > " + repo.workspace() + "/planted.txt");
  auto r = run_launcher(repo.workspace());
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_THAT(r.output, HasSubstr("planted.txt")) << r.output;
  EXPECT_THAT(r.output, Not(HasSubstr("step-ran")));
}

TEST_F(LauncherE2E, AnAuthHeaderInTheClonesConfigIsRefusedByKey) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml", workflow(job("test", "      - run: echo step-ran\n")));
  repo.clone();
  repo.git_in_clone("config http.https://github.com/.extraHeader 'AUTHORIZATION: basic eDp5'");
  auto r = run_launcher(repo.workspace());
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_THAT(r.output, HasSubstr("extraheader")) << r.output;
  EXPECT_THAT(r.output, Not(HasSubstr("eDp5"))) << "the header's value was printed";
  EXPECT_THAT(r.output, Not(HasSubstr("step-ran")));
}

// The host's --pinned-only reaches the sandbox in the assignment (REVIEWER_CI_PINNED_ONLY), so
// the launcher plans under the same rule as the host did: a release tag is refused inside too.
TEST_F(LauncherE2E, APinnedOnlyAssignmentRefusesAReleaseTagInTheSandbox) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml",
             workflow("  test:\n    runs-on: ubuntu-latest\n    steps:\n"
                      "      - uses: actions/checkout@v4\n      - run: echo step-ran\n"));
  repo.clone();
  auto tags = run_launcher(repo.workspace());
  EXPECT_EQ(tags.last_line(), "review-build-ok") << tags.output;
  SandboxRun pinned;
  pinned.pinned_only = true;
  auto r = run_launcher(repo.workspace(), pinned);
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_THAT(r.last_line(), HasSubstr("unreviewed-action-ref")) << r.output;
  EXPECT_THAT(r.output, Not(HasSubstr("step-ran")));
  // A caller cannot lift it.
  pinned.caller_env = {"REVIEWER_CI_PINNED_ONLY="};
  auto lifted = run_launcher(repo.workspace(), pinned);
  EXPECT_EQ(lifted.exit_code, 3) << lifted.output;
  EXPECT_THAT(lifted.last_line(), HasSubstr("assignment-mismatch")) << lifted.output;
}

}  // namespace
}  // namespace reviewer::e2e
