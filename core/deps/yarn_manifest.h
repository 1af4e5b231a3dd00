#pragma once

#include <string>
#include <string_view>

#include "core/deps/yarn_lock.h"
#include "core/util/result.h"

namespace reviewer::deps {

// Holds package.json to `lock` as `yarn install --frozen-lockfile` does: each dependency of
// `dependencies`, `devDependencies` and `optionalDependencies`, normalized as yarn's manifest
// normalization does (one group per name, optionalDependencies first, then dependencies, then
// devDependencies; the first spec that is neither "" nor "*" wins), must be a key of the lock as
// `name@spec` (or the bare `name`). Refusals: `dependency-lock-mismatch` per missing pattern;
// `dependency-source-refused` for `workspaces` and for a spec yarn takes from a folder or a local
// file (`file:`, `link:`, `portal:`), which the lock does not pin; `dependency-manifest-invalid`
// for a package.json whose dependency groups are not maps of strings.
util::Status check_yarn_manifest(std::string_view package_json, const YarnLock& lock);

}  // namespace reviewer::deps
