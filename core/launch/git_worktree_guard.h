#pragma once

#include <optional>
#include <string>

#include "core/git/guards.h"
#include "core/launch/worktree_guard.h"

namespace reviewer::launch {

// The launcher's guard: libgit2 checks from core/git. The baseline (HEAD, remotes, lockfile
// hashes) is pinned before the first job; later jobs must find the same.
class GitWorktreeGuard final : public WorktreeGuard {
 public:
  explicit GitWorktreeGuard(std::string worktree) : worktree_(std::move(worktree)) {}

  util::Status before_job(const std::string& home, int fetch_depth, bool first) override;
  void check_first_job_ahead(const std::string& home, int fetch_depth) override;
  util::Status after_job() override;
  std::optional<plugins::HistoryShape> history_shape() override;

 private:
  std::string worktree_;
  std::optional<git::Baseline> baseline_;
  // check_first_job_ahead's answer and the arguments it was made with.
  struct Ahead {
    std::string home;
    int fetch_depth = 0;
    util::Status status;
  };
  std::optional<Ahead> ahead_;
};

}  // namespace reviewer::launch
