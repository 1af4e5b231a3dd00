// Every job of every file of the real-world corpus is planned or refused with catalogued,
// located rules: never a crash, a hang or an internal error. The summary table goes to the log
// (docs/planner.md quotes it).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <vector>

#include "tests/corpus/corpus_dir.h"
#include "tests/corpus/corpus_jobs.h"
#include "tests/unit/plan/plan_test_support.h"

namespace reviewer::plan {
namespace {

TEST(Corpus, EveryJobIsPlannedOrRefusedByName) {
  const std::filesystem::path dir = reviewer::testing::workflow_corpus_dir();
  REVIEWER_REQUIRE_CORPUS(dir);
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    auto ext = e.path().extension();
    if (ext == ".yml" || ext == ".yaml") {
      files.push_back(e.path());
    }
  }
  std::sort(files.begin(), files.end());
  ASSERT_GE(files.size(), 70u) << "the corpus is missing from " << dir;

  const auto known = testing::catalogued_rule_ids();
  std::map<std::string, int> jobs_per_rule;  // a rule counted once per refused job
  int planned = 0, refused = 0, unloadable = 0, planned_with_event = 0, unknown_with_event = 0;
  std::vector<std::string> planned_jobs;
  for (const auto& path : files) {
    const std::string name = path.filename().string();
    const std::string text = testing::read_file(path);
    auto root = yaml::load(text, name);
    if (!root) {
      ++unloadable;
      ++jobs_per_rule[root.error().rule];
      EXPECT_TRUE(known.count(root.error().rule)) << name << ": " << root.error().to_string();
      continue;
    }
    const yaml::Node* jobs = root->is_mapping() ? root->find("jobs") : nullptr;
    if (jobs == nullptr || !jobs->is_mapping()) {
      continue;
    }
    for (const auto& [key, value] : jobs->entries) {
      auto result = plan_workflow(*root, {name, key.scalar, "main"}, testing::registry());
      // A host reviews a matrix job one named combination at a time: take the first listed.
      std::vector<std::pair<std::string, std::string>> choice;
      if (!result && result.error().rule == "matrix-combination-required") {
        choice = first_combination(result.error().message);
        result = plan_workflow(*root, {name, key.scalar, "main", choice}, testing::registry());
      }
      if (result) {
        ++planned;
        planned_jobs.push_back(name + " " + key.scalar);
        continue;
      }
      // What a host that describes the pull request (--event) gets: counted apart, the table
      // below stays the refusals without one.
      PlanRequest described{name, key.scalar, "main", choice};
      described.event = event_for(name);
      auto with_event = plan_workflow(*root, described, testing::registry());
      if (with_event) {
        ++planned_with_event;
        planned_jobs.push_back(name + " " + key.scalar + " (with an event description)");
      } else if (std::any_of(
                     with_event.refusals().begin(), with_event.refusals().end(),
                     [](const util::Refusal& r) { return r.rule == "expression-value-unknown"; })) {
        ++unknown_with_event;
      }
      ++refused;
      std::set<std::string> rules;
      for (const auto& r : result.refusals()) {
        EXPECT_TRUE(known.count(r.rule))
            << name << " " << key.scalar << ": " << r.rule << " is not catalogued";
        EXPECT_EQ(r.rule.find("internal"), std::string::npos) << report::to_text(r);
        ASSERT_TRUE(r.location.has_value()) << report::to_text(r);
        EXPECT_TRUE(r.location->known()) << name << " " << key.scalar << ": " << report::to_text(r);
        rules.insert(r.rule);
      }
      for (const auto& rule : rules) {
        ++jobs_per_rule[rule];
      }
    }
  }
  std::vector<std::pair<int, std::string>> table;
  for (const auto& [rule, n] : jobs_per_rule) {
    table.emplace_back(-n, rule);
  }
  std::sort(table.begin(), table.end());
  std::cout << "corpus: " << files.size() << " files, " << planned + refused << " jobs: " << planned
            << " planned, " << refused << " refused; " << unloadable
            << " files refused at load; with an event description, " << planned_with_event
            << " more plan, and " << unknown_with_event
            << " jobs still read a value only the real run knows\n";
  for (const auto& j : planned_jobs) {
    std::cout << "  planned: " << j << "\n";
  }
  std::cout << "| rule | refused jobs |\n|---|---|\n";
  for (const auto& [n, rule] : table) {
    std::cout << "| `" << rule << "` | " << -n << " |\n";
  }
}

}  // namespace
}  // namespace reviewer::plan
