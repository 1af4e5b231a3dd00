#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/util/result.h"

namespace reviewer::deps {

// What npm may fetch while it resolves a package.json without a lock: registry packages only.
// Any other source makes npm run something of the pull request's during the resolution: a git
// dependency is cloned and, with `bundleDependencies`, installed inside its clone, where the
// clone's own .npmrc (`git=./pwn.sh`) runs whatever it names, --ignore-scripts or not. So every
// dependency (`dependencies`, `devDependencies`, `optionalDependencies`, `peerDependencies`, and
// every value of `overrides`) must be a registry package's name with a semver range or a dist-tag
// (an `npm:NAME@RANGE` alias included), checked before npm starts. Refuses
// `dependency-source-refused` naming the field, the package and the kind of source (git, a
// GitHub shorthand, file, link, a tarball URL, a path, another protocol) or the name npm would not
// take.
util::Status check_registry_specs(const nlohmann::json& manifest);

// The same for one `npm install -g NAME[@SPEC]` of a run step.
util::Status check_registry_spec(const std::string& name, const std::string& spec,
                                 const std::string& where);

}  // namespace reviewer::deps
