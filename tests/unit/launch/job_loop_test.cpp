// CI's gating through the job loop with a fake runner: no process is spawned, so each rule is
// checked exactly (verdict, summary, every job's and step's status, what was run and logged).
#include "core/launch/job_loop.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>
#include <functional>
#include <optional>
#include <regex>

#include "core/plan/planner.h"
#include "core/plan/repository_files.h"
#include "core/report/render.h"
#include "tests/support/temp_dir.h"
#include "tests/unit/launch/fake_runner.h"

namespace reviewer::launch {
namespace {

using testing::CapturedLog;
using ::testing::ElementsAre;
using testing::FakeGuard;
using testing::FakeRunner;
using ::testing::IsEmpty;

const plugins::Registry& registry() {
  static const auto loaded = plugins::Registry::load(REVIEWER_BINARY_DIR "/plugins");
  if (!loaded) {
    ADD_FAILURE() << "plugins refused: " << report::to_text(loaded.error());
  }
  return *loaded;
}

// A job of the workflow: `head` holds its needs/if lines, then a checkout and `steps`.
std::string job(const std::string& id, const std::string& head, const std::string& steps) {
  return "  " + id + ":\n    runs-on: ubuntu-latest\n" + head +
         "    steps:\n"
         "      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683\n" +
         steps;
}

// A named run step whose script tells the fake runner how it ends.
std::string step(const std::string& name, const std::string& script,
                 const std::string& extra = "") {
  return "      - name: " + name + "\n        run: " + script + "\n" + extra;
}

std::string workflow(const std::string& jobs) { return "on: pull_request\njobs:\n" + jobs; }

class JobLoopTest : public ::testing::Test {
 protected:
  // Plans `text` (over the workspace's files when `over_files`), calls `between` (what an earlier
  // step would do to the worktree), then runs the plan.
  BuildOutcome run(const std::string& text, const std::string& job_id, bool over_files = false,
                   const std::function<void()>& between = {}) {
    const plan::WorktreeFiles files(workspace_.path());
    plan::PlanRequest request{".github/workflows/ci.yml", job_id, "main"};
    request.files = over_files ? &files : nullptr;
    auto planned = plan::plan_text(text, request, registry());
    if (between) {
      between();
    }
    if (!planned) {
      ADD_FAILURE() << report::to_text(planned.error());
      return {};
    }
    plan_ = std::move(*planned);
    auto scratch = JobScratch::create(tmp_.path(), {});
    if (!scratch) {
      ADD_FAILURE() << scratch.error().to_string();
      return {};
    }
    scratch_.emplace(std::move(*scratch));
    if (ahead_) {
      check_first_job_ahead(plan_, guard_, scratch_->build_dir());
    }
    return run_plan(plan_, runner_, guard_, *scratch_, log_,
                    LoopContext{workspace_.path(), scratch_->build_dir(), {}, {}, {}});
  }

  // "job #n status: message" for every step report, 1-based as in the logs.
  // The log with each step's duration written T, for exact comparisons.
  std::vector<std::string> timeless_log() const {
    static const std::regex kDuration("[0-9]+\\.[0-9]{3} s\\)$");
    std::vector<std::string> out;
    for (const auto& line : log_.lines) {
      out.push_back(std::regex_replace(line, kDuration, "T s)"));
    }
    return out;
  }
  static std::vector<std::string> steps(const BuildOutcome& o) {
    std::vector<std::string> out;
    for (const auto& s : o.steps) {
      out.push_back(s.job + " #" + std::to_string(s.index + 1) + " " +
                    std::string(to_string(s.status)) + (s.message.empty() ? "" : ": ") + s.message);
    }
    return out;
  }

  static std::vector<std::string> jobs(const BuildOutcome& o) {
    std::vector<std::string> out;
    for (const auto& j : o.jobs) {
      out.push_back(j.id + " " + std::string(to_string(j.status)));
    }
    return out;
  }

  test_support::TempDir workspace_;
  test_support::TempDir tmp_;
  plan::Plan plan_;
  std::optional<JobScratch> scratch_;
  FakeRunner runner_;
  FakeGuard guard_;
  CapturedLog log_;
  bool ahead_ = false;  // run() checks the first job ahead, as the launcher does
};

TEST_F(JobLoopTest, EveryJobAndStepSucceeds) {
  auto o = run(workflow(job("lint", "", step("lint", "true")) +
                        job("test", "    needs: lint\n", step("test", "true"))),
               "test");
  EXPECT_EQ(o.verdict, BuildOutcome::Verdict::kOk);
  EXPECT_EQ(o.summary, "");
  EXPECT_THAT(jobs(o), ElementsAre("lint ok", "test ok"));
  EXPECT_THAT(steps(o), ElementsAre("lint #1 ok", "lint #2 ok", "test #1 ok", "test #2 ok"));
  EXPECT_THAT(runner_.labels(), ElementsAre("[lint #2 lint] ", "[test #2 test] "));
  EXPECT_EQ(runner_.kill_calls, 2);
  EXPECT_THAT(timeless_log(),
              ElementsAre("reviewer: job 'lint' started",
                          "[lint #1 actions/checkout] actions/checkout skipped: the host clone "
                          "matches fetch-depth 1",
                          "[lint #1 actions/checkout] ok (no exit code, T s)",
                          "[lint #2 lint] ok (exit 0, T s)", "reviewer: job 'lint' succeeded",
                          "reviewer: job 'test' started",
                          "[test #1 actions/checkout] actions/checkout skipped: the host clone "
                          "matches fetch-depth 1",
                          "[test #1 actions/checkout] ok (no exit code, T s)",
                          "[test #2 test] ok (exit 0, T s)", "reviewer: job 'test' succeeded"));
}

// A failed step whose output shows a network access gets one more line, after its result, saying
// the sandbox has no network; the outcome is the step's own (tolerated here), and a step that
// passed despite such a line gets nothing.
TEST_F(JobLoopTest, AFailedStepThatTriedTheNetworkIsDiagnosedWithoutChangingItsOutcome) {
  auto o = run(workflow(job("test", "",
                            step("install", "offline 1", "        continue-on-error: true\n") +
                                step("retry", "offline 0"))),
               "test");
  EXPECT_EQ(o.verdict, BuildOutcome::Verdict::kOk);
  EXPECT_THAT(steps(o), ElementsAre("test #1 ok",
                                    "test #2 ok: exited 1 (continue-on-error: "
                                    "tolerated)",
                                    "test #3 ok"));
  EXPECT_THAT(
      timeless_log(),
      ElementsAre(
          "reviewer: job 'test' started",
          "[test #1 actions/checkout] actions/checkout skipped: the host clone matches "
          "fetch-depth 1",
          "[test #1 actions/checkout] ok (no exit code, T s)",
          "[test #2 install] failed: exited 1 (continue-on-error: tolerated) (exit 1, T s)",
          "reviewer: network: the sandbox has no network, and step [test #2 install] appears to "
          "have needed it: its output shows a network access (\"npm error request to "
          "https://registry.npmjs.org/left-pad failed, reason: getaddrinfo EAI_AGAIN "
          "registry.npmjs.org\"); CI has the network, the review does not (docs/dependencies.md)",
          "[test #3 retry] ok (exit 0, T s)", "reviewer: job 'test' succeeded"));
}

TEST_F(JobLoopTest, AFailedStepSkipsTheRestOfItsJobButAlwaysSteps) {
  auto o = run(
      workflow(job("test", "",
                   step("fails", "exit 3") + step("skipped", "true") +
                       step("cleanup", "true", "        if: always()\n") + step("after", "true"))),
      "test");
  EXPECT_EQ(o.verdict, BuildOutcome::Verdict::kFailed);
  EXPECT_EQ(o.summary, "job 'test' step 2 'fails' exited 3");
  EXPECT_THAT(jobs(o), ElementsAre("test failed"));
  EXPECT_THAT(steps(o), ElementsAre("test #1 ok", "test #2 failed: exited 3", "test #3 not-run",
                                    "test #4 ok", "test #5 not-run"));
  EXPECT_THAT(runner_.labels(), ElementsAre("[test #2 fails] ", "[test #4 cleanup] "));
  EXPECT_EQ(o.steps[1].exit_code, 3);
}

TEST_F(JobLoopTest, AnAlwaysStepThatFailsFailsTheJob) {
  auto o =
      run(workflow(job("test", "", step("cleanup", "exit 1", "        if: always()\n"))), "test");
  EXPECT_EQ(o.verdict, BuildOutcome::Verdict::kFailed);
  EXPECT_EQ(o.summary, "job 'test' step 2 'cleanup' exited 1");
  EXPECT_THAT(jobs(o), ElementsAre("test failed"));
}

TEST_F(JobLoopTest, ANeedsFailureChainStopsEveryJobAfterIt) {
  auto o = run(
      workflow(job("a", "", step("a", "exit 1")) + job("b", "    needs: a\n", step("b", "true")) +
               job("c", "    needs: b\n", step("c", "true"))),
      "c");
  EXPECT_EQ(o.verdict, BuildOutcome::Verdict::kFailed);
  EXPECT_EQ(o.summary, "job 'a' step 2 'a' exited 1");
  EXPECT_THAT(jobs(o), ElementsAre("a failed", "b not-run", "c not-run"));
  EXPECT_THAT(steps(o), ElementsAre("a #1 ok", "a #2 failed: exited 1"));
  EXPECT_THAT(runner_.labels(), ElementsAre("[a #2 a] "));
  EXPECT_THAT(
      timeless_log(),
      ElementsAre(
          "reviewer: job 'a' started",
          "[a #1 actions/checkout] actions/checkout skipped: the host clone matches fetch-depth 1",
          "[a #1 actions/checkout] ok (no exit code, T s)",
          "[a #2 a] failed: exited 1 (exit 1, T s)", "reviewer: job 'a' failed",
          "reviewer: job 'b' not run (a job it needs did not succeed)",
          "reviewer: job 'c' not run (a job it needs did not succeed)"));
}

TEST_F(JobLoopTest, AJobThatDidNotRunIsTheVerdictWhenNothingFailed) {
  // A job that is not run fails the build even if its need's failure was in an always job.
  auto o = run(workflow(job("a", "    if: always()\n", step("a", "exit 2")) +
                        job("b", "    needs: a\n", step("b", "true"))),
               "b");
  EXPECT_EQ(o.summary, "job 'a' step 2 'a' exited 2");
  EXPECT_THAT(jobs(o), ElementsAre("a failed", "b not-run"));
}

TEST_F(JobLoopTest, AnAlwaysJobRunsAfterItsNeedFailed) {
  auto o = run(workflow(job("a", "", step("a", "exit 1")) +
                        job("report", "    needs: a\n    if: always()\n", step("r", "true"))),
               "report");
  EXPECT_EQ(o.verdict, BuildOutcome::Verdict::kFailed);
  EXPECT_EQ(o.summary, "job 'a' step 2 'a' exited 1");
  EXPECT_THAT(jobs(o), ElementsAre("a failed", "report ok"));
  EXPECT_THAT(runner_.labels(), ElementsAre("[a #2 a] ", "[report #2 r] "));
}

TEST_F(JobLoopTest, ATimeoutIsReportedWithTheLimitThatStoppedIt) {
  auto o = run(workflow(job("test", "    timeout-minutes: 30\n",
                            step("slow", "timeout", "        timeout-minutes: 1\n") +
                                step("slower", "timeout", "        if: always()\n"))),
               "test");
  EXPECT_EQ(o.verdict, BuildOutcome::Verdict::kFailed);
  EXPECT_EQ(o.summary,
            "job 'test' step 2 'slow' was cancelled at its time limit (step timeout-minutes: 1)");
  EXPECT_THAT(steps(o), ElementsAre("test #1 ok",
                                    "test #2 failed: was cancelled at its time limit (step "
                                    "timeout-minutes: 1)",
                                    "test #3 failed: was cancelled at its time limit (job 'test' "
                                    "timeout-minutes: 30)"));
}

TEST_F(JobLoopTest, AStepTheHostRefusesFailsWithoutRunning) {
  auto o = run(workflow(job("test", "",
                            step("elsewhere", "true", "        working-directory: missing\n") +
                                step("next", "true"))),
               "test");
  EXPECT_EQ(o.verdict, BuildOutcome::Verdict::kFailed);
  EXPECT_EQ(o.summary,
            "job 'test' step 2 'elsewhere' working-directory-outside: working directory "
            "'missing' does not resolve to a directory inside the worktree");
  EXPECT_THAT(steps(o), ElementsAre("test #1 ok",
                                    "test #2 failed: working-directory-outside: working directory "
                                    "'missing' does not resolve to a directory inside the worktree",
                                    "test #3 not-run"));
  EXPECT_THAT(runner_.labels(), IsEmpty());
}

// setup-node reads node-version-file when its step runs; the plan read it before any step ran.
// A version file an earlier step rewrote fails the step that would read it (the attack: a step
// writes another version, so CI installs it while the review's image carries the planned one).
TEST_F(JobLoopTest, AVersionFileAnEarlierStepChangedFailsItsStep) {
  std::ofstream(workspace_.path() + "/.nvmrc") << "22\n";
  const std::string text =
      workflow(job("test", "",
                   step("rewrite", "true") +
                       "      - uses: actions/setup-node@820762786026740c76f36085b0efc47a31fe5020\n"
                       "        with:\n          node-version-file: .nvmrc\n"
                       "          package-manager-cache: false\n" +
                       step("after", "true")));
  auto o = run(text, "test", true,
               [&] { std::ofstream(workspace_.path() + "/.nvmrc", std::ios::trunc) << "20\n"; });
  EXPECT_EQ(o.verdict, BuildOutcome::Verdict::kFailed);
  const std::string changed =
      "version-file-changed: '.nvmrc' changed since the plan read it (sha256 f14b4987904b… then, "
      "sha256 537879630753… now); an earlier step wrote it, and the action reads it when it runs";
  EXPECT_EQ(o.summary, "job 'test' step 3 'actions/setup-node' " + changed);
  EXPECT_THAT(steps(o), ElementsAre("test #1 ok", "test #2 ok", "test #3 failed: " + changed,
                                    "test #4 not-run"));
}

// The same version written again is still another file: the plan recorded bytes, not what the
// plugin made of them, and the launcher compares bytes.
TEST_F(JobLoopTest, AVersionFileRewrittenToTheSameVersionFailsItsStep) {
  std::ofstream(workspace_.path() + "/.nvmrc") << "22\n";
  auto o =
      run(workflow(job("test", "",
                       "      - uses: actions/setup-node@820762786026740c76f36085b0efc47a31fe5020\n"
                       "        with:\n          node-version-file: .nvmrc\n"
                       "          package-manager-cache: false\n")),
          "test", true,
          [&] { std::ofstream(workspace_.path() + "/.nvmrc", std::ios::trunc) << "22\n\n"; });
  EXPECT_EQ(o.summary,
            "job 'test' step 2 'actions/setup-node' version-file-changed: '.nvmrc' changed since "
            "the plan read it (sha256 f14b4987904b… then, sha256 423ac7884967… now); an earlier "
            "step wrote it, and the action reads it when it runs");
}

TEST_F(JobLoopTest, AVersionFileThatNoLongerReadsFailsItsStep) {
  std::ofstream(workspace_.path() + "/.nvmrc") << "22\n";
  auto o =
      run(workflow(job("test", "",
                       "      - uses: actions/setup-node@820762786026740c76f36085b0efc47a31fe5020\n"
                       "        with:\n          node-version-file: .nvmrc\n"
                       "          package-manager-cache: false\n")),
          "test", true, [&] { std::remove((workspace_.path() + "/.nvmrc").c_str()); });
  EXPECT_EQ(o.summary,
            "job 'test' step 2 'actions/setup-node' version-file-changed: '.nvmrc' changed since "
            "the plan read it (sha256 f14b4987904b… then, missing now); an earlier step wrote it, "
            "and the action reads it when it runs");
}

// An earlier step that swaps the file for a link to another is caught, and nothing is read
// through the link.
TEST_F(JobLoopTest, AVersionFileReplacedByALinkFailsItsStep) {
  std::ofstream(workspace_.path() + "/.nvmrc") << "22\n";
  std::ofstream(workspace_.path() + "/other") << "22\n";
  auto o =
      run(workflow(job("test", "",
                       "      - uses: actions/setup-node@820762786026740c76f36085b0efc47a31fe5020\n"
                       "        with:\n          node-version-file: .nvmrc\n"
                       "          package-manager-cache: false\n")),
          "test", true, [&] {
            std::remove((workspace_.path() + "/.nvmrc").c_str());
            ASSERT_EQ(::symlink("other", (workspace_.path() + "/.nvmrc").c_str()), 0);
          });
  EXPECT_EQ(o.summary,
            "job 'test' step 2 'actions/setup-node' version-file-changed: '.nvmrc' changed since "
            "the plan read it (sha256 f14b4987904b… then, unreadable: it is reached through a "
            "symbolic link (Too many levels of symbolic links) now); an earlier step wrote it, "
            "and the action reads it when it runs");
}

TEST_F(JobLoopTest, AnUnchangedVersionFileIsSaidAndTheStepSkipped) {
  std::ofstream(workspace_.path() + "/.nvmrc") << "22\n";
  auto o =
      run(workflow(job("test", "",
                       "      - uses: actions/setup-node@820762786026740c76f36085b0efc47a31fe5020\n"
                       "        with:\n          node-version-file: .nvmrc\n"
                       "          package-manager-cache: false\n")),
          "test", true);
  EXPECT_EQ(o.verdict, BuildOutcome::Verdict::kOk);
  EXPECT_THAT(timeless_log(),
              ::testing::Contains("[test #2 actions/setup-node] '.nvmrc' is as the plan read it "
                                  "(sha256 f14b4987904b…)"));
  EXPECT_THAT(timeless_log(),
              ::testing::Contains("[test #2 actions/setup-node] actions/setup-node skipped: node "
                                  "from .nvmrc is the image's node, pinned at plan time and "
                                  "verified by the launcher"));
}

TEST_F(JobLoopTest, AStepThatCannotStartFails) {
  auto o = run(workflow(job("test", "", step("s", "no-spawn"))), "test");
  EXPECT_EQ(o.summary,
            "job 'test' step 2 's' spawn-failed: cannot spawn /bin/bash: No such file or "
            "directory");
}

TEST_F(JobLoopTest, AStepKilledByASignalFails) {
  auto o = run(workflow(job("test", "", step("s", "signal 9"))), "test");
  EXPECT_EQ(o.summary, "job 'test' step 2 's' was killed by signal 9");
}

TEST_F(JobLoopTest, LeftoversAreKilledAndReportedWhenTheJobEnds) {
  auto o = run(workflow(job("test", "", step("daemon", "leave sleep"))), "test");
  EXPECT_EQ(o.verdict, BuildOutcome::Verdict::kOk);
  ASSERT_EQ(o.jobs.size(), 1u);
  EXPECT_THAT(o.jobs[0].killed, ElementsAre("sleep (4242)"));
  EXPECT_THAT(timeless_log(),
              ElementsAre("reviewer: job 'test' started",
                          "[test #1 actions/checkout] actions/checkout skipped: the "
                          "host clone matches fetch-depth 1",
                          "[test #1 actions/checkout] ok (no exit code, T s)",
                          "[test #2 daemon] ok (exit 0, T s)",
                          "reviewer: job 'test' left processes running; killed: sleep "
                          "(4242)",
                          "reviewer: job 'test' succeeded"));
}

TEST_F(JobLoopTest, AGuardRefusalBeforeAJobRefusesTheBuildAndRunsNothingMore) {
  guard_.refuse_before[1] = {{"clean-clone", "the worktree changed", std::nullopt}};
  auto o =
      run(workflow(job("a", "", step("a", "true")) + job("b", "    needs: a\n", step("b", "true")) +
                   job("c", "    needs: [a, b]\n    if: always()\n", step("c", "true"))),
          "c");
  EXPECT_EQ(o.verdict, BuildOutcome::Verdict::kRefused);
  EXPECT_EQ(o.summary, "clean-clone the worktree changed");
  ASSERT_TRUE(o.refusal);
  EXPECT_EQ(o.refusal->rule, "clean-clone");
  EXPECT_THAT(jobs(o), ElementsAre("a ok", "b not-run", "c not-run"));
  EXPECT_THAT(runner_.labels(), ElementsAre("[a #2 a] "));
  ASSERT_GE(log_.lines.size(), 7u);
  EXPECT_EQ(log_.lines[5], "reviewer: refused before job 'b': clean-clone: the worktree changed");
  EXPECT_EQ(log_.lines[6], "reviewer: job 'c' not run (a job it needs did not succeed)");
}

TEST_F(JobLoopTest, AGuardRefusalAfterAJobFailsItAndRefusesTheBuild) {
  guard_.refuse_after[0] = {{"lockfile-changed", "package-lock.json changed", std::nullopt}};
  auto o = run(workflow(job("a", "", step("a", "true")) +
                        job("b", "    needs: a\n    if: always()\n", step("b", "true"))),
               "b");
  EXPECT_EQ(o.verdict, BuildOutcome::Verdict::kRefused);
  EXPECT_EQ(o.summary, "lockfile-changed package-lock.json changed");
  EXPECT_THAT(jobs(o), ElementsAre("a failed", "b not-run"));
}

// The launcher checks the first job's worktree while it waits for the runtimes; the guard answers
// the loop's first before_job from that check only if it was made with the same arguments.
TEST_F(JobLoopTest, TheCheckAheadHasTheFirstJobsHomeAndFetchDepth) {
  ahead_ = true;
  // A full history's fetch depth, not the default; the fake clone is shallow, so the checkout
  // then fails, which is not what this test is about.
  run(workflow("  a:\n    runs-on: ubuntu-latest\n    steps:\n"
               "      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683\n"
               "        with:\n          fetch-depth: 0\n" +
               step("a", "true")),
      "a");
  EXPECT_THAT(guard_.before, ElementsAre(std::make_pair(scratch_->build_dir() + "/job-0/home", 0)));
  EXPECT_EQ(guard_.ahead, guard_.before);
}

// A job that calls a reusable workflow has no steps: its first job is the one checked ahead.
TEST_F(JobLoopTest, TheCheckAheadIsOfTheFirstJobWithSteps) {
  auto called = std::make_shared<plan::CalledWorkflow>();
  called->jobs.push_back(plan::PlannedJob{});
  called->jobs.back().id = "inner";
  called->jobs.back().fetch_depth = 0;
  plan::Plan p;
  p.jobs.push_back(plan::PlannedJob{});
  p.jobs.back().id = "caller";
  p.jobs.back().called = called;
  check_first_job_ahead(p, guard_, tmp_.path());
  EXPECT_THAT(guard_.ahead, ElementsAre(std::make_pair(tmp_.path() + "/job-0/home", 0)));
}

TEST_F(JobLoopTest, APlanWithoutStepsIsNotCheckedAhead) {
  check_first_job_ahead(plan::Plan{}, guard_, tmp_.path());
  EXPECT_THAT(guard_.ahead, IsEmpty());
}

TEST_F(JobLoopTest, AnInterruptionStopsEverythingAndIsTheVerdict) {
  auto o =
      run(workflow(job("a", "",
                       step("a", "interrupt") + step("cleanup", "true", "        if: always()\n")) +
                   job("b", "    needs: a\n    if: always()\n", step("b", "true"))),
          "b");
  EXPECT_EQ(o.verdict, BuildOutcome::Verdict::kFailed);
  EXPECT_EQ(o.summary, "interrupted");
  EXPECT_THAT(jobs(o), ElementsAre("a failed", "b not-run"));
  EXPECT_THAT(steps(o), ElementsAre("a #1 ok", "a #2 failed: interrupted", "a #3 not-run"));
  EXPECT_THAT(runner_.labels(), ElementsAre("[a #2 a] "));
}

TEST_F(JobLoopTest, StepsRunWithTheCommandLineExecChooses) {
  run(workflow(
          job("test", "", step("plain", "true") + step("bash", "true", "        shell: bash\n"))),
      "test");
  ASSERT_EQ(runner_.specs.size(), 2u);
  EXPECT_EQ(runner_.specs[0].argv.size(), 3u);
  EXPECT_EQ(runner_.specs[0].argv[0], "/bin/bash");
  EXPECT_EQ(runner_.specs[0].argv[1], "-e");
  EXPECT_EQ(runner_.specs[1].argv[3], "-eo");
  EXPECT_EQ(runner_.specs[0].cwd, workspace_.path());
}

}  // namespace
}  // namespace reviewer::launch
