#include "core/launch/git_worktree_guard.h"

#include <utility>

namespace reviewer::launch {

util::Status GitWorktreeGuard::before_job(const std::string& home, int fetch_depth, bool first) {
  std::optional<Ahead> ahead = std::exchange(ahead_, std::nullopt);
  if (first && ahead && ahead->home == home && ahead->fetch_depth == fetch_depth) {
    return std::move(ahead->status);
  }
  if (!first) {
    if (auto removed = git::remove_created_paths(worktree_); !removed) {
      return removed.refusals();
    }
  }
  if (!baseline_) {
    auto pinned = git::pin_baseline(worktree_, home);
    if (!pinned) {
      return pinned.refusals();
    }
    baseline_ = std::move(*pinned);
  }
  return git::check_before_job(worktree_, home, *baseline_, fetch_depth);
}

void GitWorktreeGuard::check_first_job_ahead(const std::string& home, int fetch_depth) {
  ahead_ = Ahead{home, fetch_depth, before_job(home, fetch_depth, true)};
}

util::Status GitWorktreeGuard::after_job() {
  if (!baseline_) {
    return util::ok_status();
  }
  return git::check_after_job(worktree_, *baseline_);
}

std::optional<plugins::HistoryShape> GitWorktreeGuard::history_shape() {
  auto shape = git::history_shape(worktree_);
  if (!shape) {
    return std::nullopt;
  }
  return plugins::HistoryShape{shape->shallow, shape->commit_count, shape->tag_count};
}

}  // namespace reviewer::launch
