#pragma once

#include <cstddef>
#include <string>

#include "core/plan/repository_files.h"
#include "core/plugins/invoke.h"

namespace reviewer::plan {

// The repository's files as plugins read them at plan time (SDK 1.11 read_repository_file): the
// host plans over the committed files, the launcher over /workspace, and both read them here, the
// same way, so the launcher's second read before a step answers as the plan's did. It knows no
// action: a plugin makes of the bytes what its action makes of them.
class RepositoryFilesReader final : public plugins::RepositoryFileReader {
 public:
  explicit RepositoryFilesReader(const RepositoryFiles& files) : files_(files) {}
  // plugins::RepositoryFileReader::read, the bound lowered to REVIEWER_REPOSITORY_FILE_MAX_BYTES;
  // kUnreadable's words: "is not a plain path in the repository (...)", "is reached through a
  // symbolic link (...)", "is not a regular file", "is over the N-byte bound", "cannot be read
  // (...)".
  Answer read(const std::string& path, std::size_t max_bytes) const override;

 private:
  const RepositoryFiles& files_;
};

}  // namespace reviewer::plan
