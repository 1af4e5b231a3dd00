#include "core/launch/version_file_check.h"

#include "core/plan/repository_files.h"
#include "core/plan/version_file_reader.h"
#include "core/util/text.h"

namespace reviewer::launch {

util::Status recheck_version_files(const plan::PlannedStep& step, const std::string& workspace,
                                   std::vector<std::string>& said) {
  if (step.version_files.empty()) {
    return util::ok_status();
  }
  const plan::WorktreeFiles files(workspace);
  const plan::RepositoryVersionFiles reader(files);
  for (const auto& planned : step.version_files) {
    const std::string name = util::quote(planned.path);
    auto now = reader.read(planned.rules, planned.path, planned.input);
    if (!now) {
      return report::Refusal{"version-file-changed",
                             name + " no longer reads as it did when the build was planned (" +
                                 now.error().message +
                                 "); an earlier step changed it, and the action reads it when "
                                 "it runs",
                             planned.input};
    }
    if (now->version != planned.version) {
      return report::Refusal{
          "version-file-changed",
          name + " now gives " + util::quote(now->version, '"') + ", where the plan pinned " +
              util::quote(planned.version, '"') +
              " from it before the build: an earlier step changed it, and the action would "
              "install what it gives now, not the image's version",
          planned.input};
    }
    said.push_back(name + " still gives " + util::quote(now->version, '"') + ", as planned");
  }
  return util::ok_status();
}

}  // namespace reviewer::launch
