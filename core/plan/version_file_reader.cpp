#include "core/plan/version_file_reader.h"

#include <reviewer/sdk/abi.h>

#include "core/resolve/pnpm_action_version_file.h"
#include "core/resolve/setup_bun_version_file.h"
#include "core/resolve/setup_node_version_file.h"

namespace reviewer::plan {

util::Result<plugins::VersionFileRead> RepositoryVersionFiles::read(
    std::int32_t rules, const std::string& path, const util::SourceLocation& where) const {
  const resolve::RepositoryReader read = [this](const std::string& p, std::size_t max_bytes) {
    return files_.read(p, max_bytes);
  };
  util::Result<resolve::FileVersion> got =
      util::refusal("plugin-protocol",
                    "a plugin asked for version file rules " + std::to_string(rules) +
                        ", which this host does "
                        "not know (REVIEWER_VERSION_FILE_* of SDK 1.4)",
                    where);
  switch (rules) {
    case REVIEWER_VERSION_FILE_SETUP_NODE_V3:
    case REVIEWER_VERSION_FILE_SETUP_NODE:
    case REVIEWER_VERSION_FILE_SETUP_NODE_DEV_ENGINES:
      got = resolve::read_setup_node_version_file(
          {"node-version-file", path, where},
          rules == REVIEWER_VERSION_FILE_SETUP_NODE_V3 ? resolve::SetupNodeRules::kV3
          : rules == REVIEWER_VERSION_FILE_SETUP_NODE  ? resolve::SetupNodeRules::kV4
                                                       : resolve::SetupNodeRules::kDevEngines,
          read);
      break;
    case REVIEWER_VERSION_FILE_SETUP_BUN:
    case REVIEWER_VERSION_FILE_SETUP_BUN_ENGINES:
      got = resolve::read_setup_bun_version_file({"bun-version-file", path, where},
                                                 rules == REVIEWER_VERSION_FILE_SETUP_BUN_ENGINES,
                                                 read);
      break;
    case REVIEWER_VERSION_FILE_PNPM_ACTION_SETUP:
      got = resolve::read_pnpm_action_package_json({"package_json_file", path, where}, read);
      break;
    default:
      break;
  }
  if (!got) {
    return got.refusals();
  }
  return plugins::VersionFileRead{rules, path, where, std::move(got->version),
                                  std::move(got->location)};
}

}  // namespace reviewer::plan
