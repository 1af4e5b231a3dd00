#pragma once

// Internal to core/git (takes libgit2 types).

#include <string>

#include "core/git/repository.h"
#include "core/report/refusal.h"
#include "core/util/result.h"

namespace reviewer::git::detail {

// Every key of every configuration level libgit2 sees for `repo` (system, XDG, global, repository
// and whatever those include), plus `$GIT_DIR/config.worktree`, checked against the clone
// allowlist. One `git-config-key` refusal per offending key, naming the key and the level/file;
// values are never quoted. `home` is only used to name the global and XDG files.
util::Status check_config(git_repository* repo, const std::string& worktree,
                          const std::string& home);

}  // namespace reviewer::git::detail
