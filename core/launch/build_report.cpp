#include "core/launch/build_report.h"

#include <fmt/format.h>
#include <algorithm>
#include <array>
#include <nlohmann/json.hpp>

#include "core/exec/line_writer.h"
#include "core/launch/replace_file.h"
#include "core/report/junit.h"
#include "core/report/source_excerpt.h"

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

std::string cell(const std::string& text, std::size_t width) {
  return text + std::string(width > text.size() ? width - text.size() : 0, ' ');
}

}  // namespace

namespace {

// "3", or "3.2" for a step of the local action the third step calls.
std::string number(const StepReport& s) {
  return s.number.empty() ? std::to_string(s.index + 1) : s.number;
}

}  // namespace

std::vector<std::string> summary_table(const BuildOutcome& outcome) {
  std::vector<std::array<std::string, 5>> rows{{"job", "step", "outcome", "time", "killed"}};
  for (const auto& job : outcome.jobs) {
    const std::size_t first = rows.size();
    for (const auto& s : outcome.steps) {
      if (s.job != job.id) {
        continue;
      }
      const bool ran = s.status != RunStatus::kNotRun;
      rows.push_back(
          {report::printable(s.job), fmt::format("#{} {}", number(s), report::printable(s.name)),
           std::string(to_string(s.status)), ran ? fmt::format("{:.3f} s", s.seconds) : "-", ""});
    }
    if (rows.size() == first) {
      rows.push_back({report::printable(job.id), "-", std::string(to_string(job.status)), "-", ""});
    }
    rows.back()[4] = job.killed.empty() ? "" : fmt::format("{}", fmt::join(job.killed, ", "));
  }
  std::array<std::size_t, 5> width{};
  for (const auto& row : rows) {
    for (std::size_t i = 0; i < row.size(); ++i) {
      width[i] = std::max(width[i], row[i].size());
    }
  }
  std::vector<std::string> out;
  for (const auto& row : rows) {
    std::size_t n = row.size();
    while (n > 1 && row[n - 1].empty()) {
      --n;  // no trailing empty cells
    }
    std::string line = "reviewer: ";
    for (std::size_t i = 0; i < n; ++i) {
      line += i + 1 < n ? cell(row[i], width[i]) + " | " : row[i];
    }
    out.push_back(std::move(line));
  }
  return out;
}

util::Status write_build_reports(int dir_fd, const std::string& dir, const plan::Plan& plan,
                                 const BuildOutcome& outcome, ReportAttestation* attestation) {
  nlohmann::json steps = nlohmann::json::array();
  std::vector<report::TestCase> cases;
  for (const auto& s : outcome.steps) {
    steps.push_back({{"job", s.job},
                     {"index", s.index},
                     {"number", number(s)},
                     {"name", s.name},
                     {"action", s.action},
                     {"decision", s.decision},
                     {"status", to_string(s.status)},
                     {"exit_code", s.exit_code},
                     {"seconds", s.seconds},
                     {"message", s.message},
                     {"condition", s.condition}});
    cases.push_back(
        {s.job, number(s) + " " + s.name, std::string(to_string(s.status)), s.message, s.seconds});
  }
  const bool a_step_failed =
      std::any_of(cases.begin(), cases.end(), [](const auto& c) { return c.status == "failed"; });
  if (outcome.verdict != BuildOutcome::Verdict::kOk && !a_step_failed) {
    // A refused or interrupted build has no failed step to show; a CI tool reading an empty
    // document would show nothing wrong.
    report::TestCase verdict;
    verdict.suite = "review-build";
    verdict.name = "verdict";
    verdict.status = "failed";
    verdict.message = std::string(verdict_name(outcome.verdict)) + ": " + outcome.summary;
    cases.push_back(std::move(verdict));
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
  std::string xml_text = report::to_junit(cases);
  if (attestation != nullptr) {
    const std::string mac = contract::attest_report(doc, attestation->facts, attestation->nonce);
    xml_text +=
        mac.empty() ? "<!-- unattested -->\n" : "<!-- attestation hmac-sha256=" + mac + " -->\n";
  }
  auto json = replace_file_at(dir_fd, "report.json", doc.dump(2) + "\n", dir + "/report.json");
  auto xml = replace_file_at(dir_fd, "report.xml", xml_text, dir + "/report.xml");
  return json ? xml : json;
}

void publish_build_reports(JobScratch& scratch, const plan::Plan& plan, BuildOutcome& outcome,
                           exec::LogSink& log, ReportAttestation* attestation) {
  auto written = scratch.reclaim_review_root();
  if (written) {
    written = write_build_reports(scratch.review_root_fd(), scratch.review_root(), plan, outcome,
                                  attestation);
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
  (void)write_build_reports(scratch.review_root_fd(), scratch.review_root(), plan, outcome,
                            attestation);
}

}  // namespace reviewer::launch
