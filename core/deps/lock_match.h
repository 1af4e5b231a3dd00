#pragma once

#include "core/deps/npm_lock.h"
#include "core/util/result.h"

namespace reviewer::deps {

// Holds `lock` to `manifest` (package.json) the way `npm ci` does at the root: every dependency
// package.json declares (dependencies, devDependencies, optionalDependencies, required peers)
// must be in the lock at node_modules/NAME with a version its range admits (node-semver, loose,
// as arborist's edge check; an alias `npm:other@range` also needs the aliased name). A changed
// range the locked version still satisfies, or a dependency package.json dropped, is accepted,
// as npm ci accepts them. Refusal `dependency-lock-mismatch` per offending name, worded as npm's
// "Missing:" and "Invalid:" lines. Deeper inconsistencies are left to npm ci in the sandbox,
// which fails there as it fails on CI.
util::Status check_lock_matches(const LockedPackage& manifest, const NpmLock& lock);

}  // namespace reviewer::deps
