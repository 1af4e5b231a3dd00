#pragma once

#include <string>

#include "core/plan/repository_files.h"
#include "core/util/result.h"

namespace reviewer::host {

// The history a review's worktree gets, decided by the plan's checkout steps: depth 1 without
// tags (actions/checkout's default), or the full history with every branch and tag
// (`fetch-depth: 0`).
enum class HistoryShape { kShallow, kFull };

// Makes the fresh clone a reviewer host gives the sandbox: `source` (a local repository's path
// or a URL git can fetch) at `head` (a branch, tag or commit; empty for the source's HEAD),
// fetched into the new directory `dest` as actions/checkout does it (init, fetch, detached
// checkout), with the history `shape` asks for. Errors: `review-source` for a source or ref git
// could take as an option or that it cannot fetch; `host-command` when git itself fails.
util::Result<std::string> make_clone(const std::string& source, const std::string& head,
                                     HistoryShape shape, const std::string& dest);

// The text of `path` as HEAD of `clone` commits it, from git's objects (no link in the worktree
// is followed). Errors carry util's file codes: file-missing, file-symlink (the tree entry is a
// link), file-not-regular, file-read-failed (git failed, or more than `max_bytes`).
util::Result<std::string> committed_file(const std::string& clone, const std::string& path,
                                         std::size_t max_bytes);

// The repository files of HEAD of a clone, for the planner's local actions.
class CommittedFiles final : public plan::RepositoryFiles {
 public:
  explicit CommittedFiles(std::string clone) : clone_(std::move(clone)) {}
  util::Result<std::string> read(const std::string& path, std::size_t max_bytes) const override {
    return committed_file(clone_, path, max_bytes);
  }

 private:
  std::string clone_;
};

// The text of `workflow` as HEAD of `clone` commits it, read from git's objects so that no link
// in the worktree can point the host at one of its own files. Errors: workflow-symlink (the
// tree entry is a link), workflow-unreadable (absent, not a file, over `max_bytes`).
util::Result<std::string> committed_workflow(const std::string& clone, const std::string& workflow,
                                             std::size_t max_bytes);

// What `source` names for git: a local directory as a file:// URL (so a shallow fetch works as
// from a server), anything else as given. Errors: `review-source`.
util::Result<std::string> source_url(const std::string& source);

}  // namespace reviewer::host
