#pragma once

#include <optional>
#include <string>

namespace reviewer::git {

// Whether the directory symlink at `rel` (relative to the worktree whose descriptor is
// `root_fd`, reached through real directories only) stays inside the worktree: its target is
// relative, or absolute and naming the worktree's own path (as /proc/self/fd names `root_fd`:
// "/workspace" in the sandbox), the rest then resolved from the worktree's root; every hop of
// resolving it stays beneath the worktree on the same mount (openat2 with
// RESOLVE_BENEATH, RESOLVE_NO_MAGICLINKS and RESOLVE_NO_XDEV, so no later link, `..` or absolute
// path leads out either), and where it ends is neither `.git` nor inside it. pnpm's
// node_modules and npm's workspaces are made of such links. nullopt when it stays inside;
// otherwise why not, to end "'<rel>' is a symlink to a directory" in a refusal.
std::optional<std::string> directory_link_escape(int root_fd, const std::string& rel);

}  // namespace reviewer::git
