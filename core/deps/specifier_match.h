#pragma once

#include <string>
#include <string_view>

#include "core/deps/pnpm_lock.h"
#include "core/util/result.h"

namespace reviewer::deps {

// package.json's direct dependencies by group, as pnpm and Bun compare them with their lock;
// with `peers_as_dependencies` (pnpm's auto-install-peers), peerDependencies not declared in
// another group count as dependencies. Refusal `dependency-manifest-invalid`.
util::Result<Specifiers> manifest_specifiers(std::string_view package_json,
                                             bool peers_as_dependencies);

// Holds the lock's root specifiers to package.json's as `--frozen-lockfile` does: every group
// must name the same dependencies with the same specifier strings. Refusal
// `dependency-lock-mismatch` per difference, naming the group, the name and both specifiers;
// `tool` is the package manager's command for the fix ("pnpm install", "bun install").
util::Status check_specifiers_match(const Specifiers& manifest, const Specifiers& lock,
                                    const std::string& file, const std::string& tool);

}  // namespace reviewer::deps
