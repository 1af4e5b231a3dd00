#pragma once

#include <span>
#include <string_view>

namespace reviewer::git {

// File names (matched in any directory) of the package-manager lockfiles the build and the
// resolver read: package-lock.json, npm-shrinkwrap.json, yarn.lock, pnpm-lock.yaml, bun.lock,
// bun.lockb. Their bytes are pinned at the first job and compared after every job.
std::span<const std::string_view> lockfile_names();

// File names the runtime resolver reads to pick the image (package.json, .nvmrc, .node-version,
// .bun-version, .tool-versions). Like lockfiles they may never be symlinks; their content is
// covered by the clean-clone check, not pinned.
std::span<const std::string_view> declaration_names();

// True iff `name` (a bare file name) is a lockfile.
bool is_lockfile_name(std::string_view name);

// True iff `name` is a lockfile or a declaration file: a symlink by that name is refused.
bool is_pinned_input_name(std::string_view name);

}  // namespace reviewer::git
