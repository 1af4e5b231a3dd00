#include "core/launch/build_report.h"

#include <nlohmann/json.hpp>

#include "core/exec/line_writer.h"
#include "core/launch/replace_file.h"
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

}  // namespace

util::Status write_build_reports(int dir_fd, const std::string& dir, const plan::Plan& plan,
                                 const BuildOutcome& outcome) {
  nlohmann::json steps = nlohmann::json::array();
  std::vector<report::TestCase> cases;
  for (const auto& s : outcome.steps) {
    steps.push_back({{"job", s.job},
                     {"index", s.index},
                     {"name", s.name},
                     {"action", s.action},
                     {"decision", s.decision},
                     {"status", to_string(s.status)},
                     {"exit_code", s.exit_code},
                     {"seconds", s.seconds},
                     {"message", s.message},
                     {"condition", s.condition}});
    cases.push_back({s.job, std::to_string(s.index + 1) + " " + s.name,
                     std::string(to_string(s.status)), s.message, s.seconds});
  }
  nlohmann::json jobs = nlohmann::json::array();
  for (const auto& j : outcome.jobs) {
    std::string matrix;
    for (const auto& pj : plan.jobs) {
      matrix = pj.id == j.id ? pj.matrix_label : matrix;
    }
    jobs.push_back(
        {{"id", j.id}, {"matrix", matrix}, {"status", to_string(j.status)}, {"killed", j.killed}});
  }
  nlohmann::json doc{{"verdict", verdict_name(outcome.verdict)},
                     {"summary", outcome.summary},
                     {"plan", plan::to_json(plan)},
                     {"jobs", jobs},
                     {"steps", steps}};
  auto json = replace_file_at(dir_fd, "report.json", doc.dump(2) + "\n", dir + "/report.json");
  auto xml = replace_file_at(dir_fd, "report.xml", report::to_junit(cases), dir + "/report.xml");
  return json ? xml : json;
}

void publish_build_reports(JobScratch& scratch, const plan::Plan& plan, BuildOutcome& outcome,
                           exec::LogSink& log) {
  auto written = scratch.reclaim_review_root();
  if (written) {
    written = write_build_reports(scratch.review_root_fd(), scratch.review_root(), plan, outcome);
  }
  if (written) {
    return;
  }
  const util::Refusal& e = written.error();
  log.line("reviewer: " + e.rule + ": " + e.message);
  if (outcome.verdict != BuildOutcome::Verdict::kOk) {
    return;
  }
  outcome.verdict = BuildOutcome::Verdict::kFailed;
  outcome.summary = "report-unwritable: " + e.message;
  // report.json may have landed saying ok before report.xml failed.
  (void)write_build_reports(scratch.review_root_fd(), scratch.review_root(), plan, outcome);
}

}  // namespace reviewer::launch
