#include "core/launch/version_file_check.h"

#include "core/plan/repository_file_reader.h"
#include "core/plan/repository_files.h"
#include "core/util/text.h"

namespace reviewer::launch {
namespace {

using Outcome = plugins::RepositoryFileRead::Outcome;

// An answer in a few words: "sha256 3f2a9c0d1e2b…", "missing", "unreadable: it is not a regular
// file". Twelve hex digits tell two versions of a file apart for a reader; the comparison itself
// takes all of them.
std::string described(Outcome outcome, const std::string& sha256, const std::string& why) {
  switch (outcome) {
    case Outcome::kRead:
      return "sha256 " + sha256.substr(0, 12) + "…";
    case Outcome::kMissing:
      return "missing";
    case Outcome::kUnreadable:
      break;
  }
  return why.empty() ? "unreadable" : "unreadable: it " + why;
}

}  // namespace

util::Status recheck_repository_files(const plan::PlannedStep& step, const std::string& workspace,
                                      std::vector<std::string>& said) {
  if (step.repository_files.empty()) {
    return util::ok_status();
  }
  const plan::WorktreeFiles files(workspace);
  const plan::RepositoryFilesReader reader(files);
  for (const auto& planned : step.repository_files) {
    const std::string name = util::quote(planned.path);
    const auto now = reader.read(planned.path, planned.max_bytes);
    const std::string then = described(planned.outcome, planned.sha256, "");
    if (now.outcome != planned.outcome || now.sha256 != planned.sha256) {
      const std::string why = now.outcome == Outcome::kUnreadable ? now.bytes : "";
      return report::Refusal{"version-file-changed",
                             name + " changed since the plan read it (" + then + " then, " +
                                 described(now.outcome, now.sha256, why) +
                                 " now); an earlier step wrote it, and the action reads it when "
                                 "it runs",
                             planned.input};
    }
    said.push_back(name + " is as the plan read it (" + then + ")");
  }
  return util::ok_status();
}

}  // namespace reviewer::launch
