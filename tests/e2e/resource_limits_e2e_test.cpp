// Issue 14 finding 10: a fork bomb or a memory hog in a step fails that build and nothing else.
// podman applies --pids-limit and --memory; the run model the same through cgroups of its own,
// where the machine lets root make them (it says so on stderr where it cannot, and the test then
// skips, naming why).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "tests/e2e/e2e_support.h"
#include "tests/e2e/sandbox.h"

namespace reviewer::e2e {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

// The run model's own line when the machine has no cgroup for `what` (pids, memory).
bool limit_missing(const RunResult& r, const std::string& what) {
  return r.output.find("run-model: no " + what + " limit here") != std::string::npos ||
         r.output.find("run-model: no cgroup limits here") != std::string::npos;
}

TEST_F(LauncherE2E, AForkBombFailsItsBuildAtThePidsLimit) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml",
             workflow(job("test",
                          "      - run: |\n          for i in $(seq 1 400); do sleep 60 & done\n"
                          "          echo forked-all\n",
                          "    timeout-minutes: 2\n")));
  repo.clone();
  SandboxRun run;
  run.pids_limit = "128";
  auto r = run_launcher(repo.workspace(), run);
  if (limit_missing(r, "pids")) {
    GTEST_SKIP() << "this machine gives the run model no pids cgroup:\n" << r.output;
  }
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_THAT(r.output, HasSubstr("fork: Resource temporarily unavailable"));
  EXPECT_THAT(r.output, Not(HasSubstr("forked-all")));
  EXPECT_THAT(r.last_line(), StartsWith("review-build-failed: job 'test' step 2"));
}

TEST_F(LauncherE2E, AMemoryHogFailsItsBuildAtTheMemoryLimit) {
  ExampleRepo repo;
  repo.write(".github/workflows/ci.yml",
             workflow(job("test",
                          "      - run: python3 -c \"b = bytearray(768 << 20); b[::4096] = b'x' * "
                          "len(b[::4096]); print('allocated' + '-all')\"\n")));
  repo.clone();
  SandboxRun run;
  run.memory = "256m";
  auto r = run_launcher(repo.workspace(), run);
  if (limit_missing(r, "memory")) {
    GTEST_SKIP() << "this machine gives the run model no memory cgroup:\n" << r.output;
  }
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_THAT(r.output, Not(HasSubstr("allocated-all")));
  // The kernel's OOM killer, within the sandbox's limit.
  EXPECT_EQ(r.last_line(), "review-build-failed: job 'test' step 2 'run' exited 137") << r.output;
}

}  // namespace
}  // namespace reviewer::e2e
