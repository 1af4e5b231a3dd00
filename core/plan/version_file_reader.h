#pragma once

#include <cstdint>
#include <string>

#include "core/plan/repository_files.h"
#include "core/plugins/invoke.h"

namespace reviewer::plan {

// The version files steps name, read for plugins at plan time (SDK 1.4 read_version_file) from
// the repository under review by core/resolve's reader of each action's rules: the host plans
// over the committed files, the launcher over /workspace, and both read them here, the same way.
class RepositoryVersionFiles final : public plugins::VersionFileReader {
 public:
  explicit RepositoryVersionFiles(const RepositoryFiles& files) : files_(files) {}
  // Rules other than REVIEWER_VERSION_FILE_* are refused as plugin-protocol.
  util::Result<plugins::VersionFileRead> read(std::int32_t rules, const std::string& path,
                                              const util::SourceLocation& where) const override;

 private:
  const RepositoryFiles& files_;
};

}  // namespace reviewer::plan
