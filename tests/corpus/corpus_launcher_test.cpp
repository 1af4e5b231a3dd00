// Every job of the real-world corpus that the host's planner plans is planned identically by the
// launcher in the run model: same workflow bytes in a real git clone, the same assignment
// (job, base, matrix combination, event description), and report.json's plan compared with the
// host's. An untracked file in the clone stops each build at the clean-clone check before any
// step, so nothing of the corpus runs; runtime resolution refusals still report the plan.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/plan/planner.h"
#include "core/plan/repository_files.h"
#include "tests/corpus/corpus_dir.h"
#include "tests/corpus/corpus_jobs.h"
#include "tests/e2e/e2e_support.h"
#include "tests/support/temp_dir.h"
#include "tests/unit/plan/plan_test_support.h"

namespace reviewer::plan {
namespace {

std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  }
  return out + "'";
}

// A repository holding only the workflow, committed and cloned the way the host clones.
std::string clone_of(const test_support::TempDir& dir, const std::filesystem::path& workflow) {
  const std::string src = dir / "src";
  const std::string clone = dir / "clone";
  std::filesystem::create_directories(src + "/.github/workflows");
  std::filesystem::copy_file(workflow, src + "/.github/workflows/" + workflow.filename().string());
  const auto r = e2e::run_command(
      "cd " + quoted(src) +
      " && git init -q -b main && git add -A && git -c user.name=t -c user.email=t@example.com "
      "commit -qm corpus && git clone -q --depth 1 file://" +
      quoted(src) + " " + quoted(clone) + " && touch " + quoted(clone + "/untracked-marker"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  return clone;
}

struct Asked {
  std::string file;
  std::string job;
  std::vector<std::pair<std::string, std::string>> choice;
  bool with_event = false;
};

class CorpusInTheLauncher : public e2e::LauncherE2E {};

TEST_F(CorpusInTheLauncher, EveryPlannedJobIsPlannedIdenticallyInTheSandbox) {
  const std::filesystem::path dir = reviewer::testing::workflow_corpus_dir();
  REVIEWER_REQUIRE_CORPUS(dir);
  // What the host plans: every job, with the first combination and an event description when it
  // needs them (as the corpus table counts them).
  std::vector<Asked> planned;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    const auto ext = e.path().extension();
    if (ext != ".yml" && ext != ".yaml") {
      continue;
    }
    const std::string name = e.path().filename().string();
    const std::string text = testing::read_file(e.path());
    auto root = yaml::load(text, name);
    const yaml::Node* jobs = root && root->is_mapping() ? root->find("jobs") : nullptr;
    if (jobs == nullptr || !jobs->is_mapping()) {
      continue;
    }
    for (const auto& [key, value] : jobs->entries) {
      Asked a{name, key.scalar, {}};
      auto result = plan_workflow(*root, {name, a.job, "main"}, testing::registry());
      if (!result && result.error().rule == "matrix-combination-required") {
        a.choice = first_combination(result.error().message);
        result = plan_workflow(*root, {name, a.job, "main", a.choice}, testing::registry());
      }
      if (!result) {
        PlanRequest described{name, a.job, "main", a.choice};
        described.event = event_for(name);
        a.with_event = static_cast<bool>(plan_workflow(*root, described, testing::registry()));
        if (!a.with_event) {
          continue;
        }
      }
      planned.push_back(a);
    }
  }
  std::sort(planned.begin(), planned.end(),
            [](const Asked& x, const Asked& y) { return x.file + x.job < y.file + y.job; });
  ASSERT_GE(planned.size(), 9u);

  for (const Asked& a : planned) {
    SCOPED_TRACE(a.file + " " + a.job);
    test_support::TempDir tmp;
    const std::string clone = clone_of(tmp, dir / a.file);
    const std::string workflow = ".github/workflows/" + a.file;
    const WorktreeFiles files(clone);
    PlanRequest request{workflow, a.job, "main", a.choice, false, &files};
    if (a.with_event) {
      request.event = event_for(a.file);
    }
    auto host = plan_text(testing::read_file(clone + "/" + workflow), request, testing::registry());
    ASSERT_TRUE(host) << report::to_text(host.error());

    e2e::SandboxRun run;
    run.workflow = workflow;
    run.job = a.job;
    for (const auto& [k, v] : a.choice) {
      run.matrix += (run.matrix.empty() ? "" : "\n") + k + "=" + v;
    }
    if (a.with_event) {
      run.event = event_facts_json(request.event);
    }
    run.after = "cat /tmp/review/report.json";
    auto r = e2e::run_launcher(clone, run);
    // Refused before any step, as arranged (the untracked file, or the image).
    EXPECT_EQ(r.exit_code, 3) << r.output;
    EXPECT_EQ(r.last_line().rfind("review-build-refused: ", 0), 0U) << r.output;
    const auto report = nlohmann::json::parse(r.after, nullptr, false);
    ASSERT_FALSE(report.is_discarded()) << r.output << "\nafter:\n" << r.after;
    ASSERT_TRUE(report.contains("plan")) << r.after;
    EXPECT_EQ(report["plan"], to_json(*host)) << "the launcher planned:\n"
                                              << report["plan"].dump(2) << "\nthe host planned:\n"
                                              << to_json(*host).dump(2);
    std::cout << "  same plan: " << a.file << " " << a.job
              << (a.with_event ? " (with an event description)" : "") << " -> "
              << r.last_line().substr(0, 100) << "\n";
  }
}

}  // namespace
}  // namespace reviewer::plan
