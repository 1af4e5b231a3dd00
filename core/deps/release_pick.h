#pragma once

#include <string>

#include "core/semver/range.h"
#include "core/util/result.h"

// Which release of a package a range names, as pnpm's npm resolver picks it when it installs
// itself (`pnpm self-update 11`, pnpm/setup's `version: 11`): the registry's `latest` tag when it
// satisfies the range (loose) and is not deprecated, else the highest satisfying release that is
// not deprecated, else the highest satisfying one. docs/dependencies.md, "Package managers".
namespace reviewer::deps {

// `packument` is the registry's metadata document of `name` (hostile: any JSON); `wanted` is
// `range` parsed loosely, by the caller before it downloads anything. Refusals:
//   package-manager-metadata-invalid  not JSON, another package's document, no versions object
//   package-manager-version-missing   no release satisfies `range` (CI's install fails the same
//                                     way); `what` says which step asked
util::Result<std::string> pick_release(const std::string& packument, const std::string& name,
                                       const semver::Range& wanted, const std::string& range,
                                       const std::string& what);

}  // namespace reviewer::deps
