#pragma once

#include <string_view>

namespace reviewer::git {

// Rule ids of the git and worktree guards (catalogued in docs/git-guards.md).
inline constexpr std::string_view kRuleConfigKey = "git-config-key";
inline constexpr std::string_view kRuleHooks = "git-hooks";
inline constexpr std::string_view kRuleIndexFlags = "git-index-flags";
inline constexpr std::string_view kRuleRepository = "git-repository";
inline constexpr std::string_view kRuleRedirect = "git-redirect";
inline constexpr std::string_view kRuleCleanClone = "clean-clone";
inline constexpr std::string_view kRuleHeadMoved = "head-moved";
inline constexpr std::string_view kRuleRemoteChanged = "remote-changed";
inline constexpr std::string_view kRuleHistoryShape = "history-shape";
inline constexpr std::string_view kRuleSymlinkedLockfile = "symlinked-lockfile";
inline constexpr std::string_view kRuleSymlinkedDirectory = "symlinked-directory";
inline constexpr std::string_view kRuleLockfileChanged = "lockfile-changed";
inline constexpr std::string_view kRuleWorktreeUnreadable = "worktree-unreadable";
inline constexpr std::string_view kRuleCleanupFailed = "cleanup-failed";
inline constexpr std::string_view kRuleGitDirChanged = "git-dir-changed";
inline constexpr std::string_view kRuleTrackedXattr = "tracked-xattr";

}  // namespace reviewer::git
