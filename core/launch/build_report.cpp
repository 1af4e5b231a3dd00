#include "core/launch/build_report.h"

#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "core/report/junit.h"

namespace reviewer::launch {
namespace {

const char* verdict_name(BuildOutcome::Verdict v) {
  switch (v) {
    case BuildOutcome::Verdict::kOk:
      return "review-build-ok";
    case BuildOutcome::Verdict::kFailed:
      return "review-build-failed";
    case BuildOutcome::Verdict::kRefused:
      return "review-build-refused";
  }
  return "unknown";
}

void write(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::trunc);
  out << text;
  if (!out) {
    std::cerr << "reviewer: cannot write " << path << "\n";
  }
}

}  // namespace

void write_build_reports(const std::string& dir, const plan::Plan& plan,
                         const BuildOutcome& outcome) {
  nlohmann::json steps = nlohmann::json::array();
  std::vector<report::TestCase> cases;
  for (const auto& s : outcome.steps) {
    steps.push_back({{"job", s.job},
                     {"index", s.index},
                     {"name", s.name},
                     {"action", s.action},
                     {"decision", s.decision},
                     {"status", s.status},
                     {"exit_code", s.exit_code},
                     {"seconds", s.seconds},
                     {"message", s.message}});
    cases.push_back(
        {s.job, std::to_string(s.index + 1) + " " + s.name, s.status, s.message, s.seconds});
  }
  nlohmann::json jobs = nlohmann::json::array();
  for (const auto& j : outcome.jobs) {
    jobs.push_back({{"id", j.id}, {"status", j.status}, {"killed", j.killed}});
  }
  nlohmann::json doc{{"verdict", verdict_name(outcome.verdict)},
                     {"summary", outcome.summary},
                     {"plan", plan::to_json(plan)},
                     {"jobs", jobs},
                     {"steps", steps}};
  write(dir + "/report.json", doc.dump(2) + "\n");
  write(dir + "/report.xml", report::to_junit(cases));
}

}  // namespace reviewer::launch
