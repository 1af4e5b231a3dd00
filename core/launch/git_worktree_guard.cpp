#include "core/launch/git_worktree_guard.h"

namespace reviewer::launch {

report::Refusals GitWorktreeGuard::before_job(const std::string& home, int fetch_depth,
                                              bool first) {
  if (!first) {
    if (auto removed = git::remove_created_paths(worktree_); !removed) {
      const auto& e = removed.error();
      return {{e.code, e.message, e.location}};
    }
  }
  if (!baseline_) {
    auto pinned = git::pin_baseline(worktree_, home);
    if (!pinned) {
      const auto& e = pinned.error();
      return {{e.code, e.message, e.location}};
    }
    baseline_ = std::move(*pinned);
  }
  return git::check_before_job(worktree_, home, *baseline_, fetch_depth);
}

report::Refusals GitWorktreeGuard::after_job() {
  if (!baseline_) {
    return {};
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
