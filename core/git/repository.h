#pragma once

// Internal to core/git (takes libgit2 types).

#include <string>

#include "core/git/git_handles.h"
#include "core/report/refusal.h"

namespace reviewer::git::detail {

// Opens the repository whose git directory is `worktree`/.git, never searching parents and never
// reading GIT_* environment variables. Configuration levels are confined: global is read from
// `home`/.gitconfig, XDG from `home`/.config/git/config (neither when `home` is empty), system
// and programdata from nowhere (an empty search path), so the host's own files never leak in.
// Fails (rule `git-repository`) when `.git` is not a real directory or cannot be opened.
util::Result<RepositoryPtr> open_worktree(const std::string& worktree, const std::string& home);

// "<worktree>/.git" without a trailing slash.
std::string git_dir_of(const std::string& worktree);

// `git-repository` refusals when `repo` is bare or its work directory is not `worktree` (a
// core.worktree or gitdir redirect).
util::Status check_repository_shape(git_repository* repo, const std::string& worktree);

}  // namespace reviewer::git::detail
