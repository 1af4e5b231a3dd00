#pragma once

#include <cstddef>
#include <map>
#include <string>

#include "core/util/result.h"

namespace reviewer::plan {

// The files of the repository under review that a workflow names by path (local composite
// actions, called workflows), read as hostile input: `path` is relative to the repository root,
// already checked to be plain (no empty, '.' or '..' component, not absolute). Errors carry the
// util::kFile* codes of core/util/file_read.h (file-missing, file-symlink, file-not-regular,
// file-read-failed, ...); a directory on the way that is a link is file-symlink.
class RepositoryFiles {
 public:
  virtual ~RepositoryFiles() = default;
  // At most `max_bytes` bytes of the regular file at `path` (a larger file is truncated to them,
  // so the YAML loader still names where its bound was crossed).
  virtual util::Result<std::string> read(const std::string& path, std::size_t max_bytes) const = 0;
};

// A worktree on disk: every directory on the way is opened relative to the last without following
// a link, and the file itself with O_NOFOLLOW, so no link in the worktree leads a read out of it.
class WorktreeFiles final : public RepositoryFiles {
 public:
  explicit WorktreeFiles(std::string root) : root_(std::move(root)) {}
  util::Result<std::string> read(const std::string& path, std::size_t max_bytes) const override;

 private:
  std::string root_;
};

// Files held in memory (path -> text), for tests and plugin fixtures. A path whose text is
// kSymlinkForTest reads as a symbolic link.
class MemoryFiles final : public RepositoryFiles {
 public:
  static constexpr const char* kSymlinkForTest = "\x01symlink";
  explicit MemoryFiles(std::map<std::string, std::string> files) : files_(std::move(files)) {}
  util::Result<std::string> read(const std::string& path, std::size_t max_bytes) const override;

 private:
  std::map<std::string, std::string> files_;
};

}  // namespace reviewer::plan
