#pragma once

#include <cstddef>
#include <string_view>

#include "core/resolve/declaration.h"

namespace reviewer::resolve {

// The size bound for package.json.
inline constexpr std::size_t kMaxPackageJsonBytes = 1024 * 1024;

// Reads `engines.node`, `engines.bun` (semver ranges) and `packageManager` (`name@x.y.z[+hash]`:
// `bun@` pins the Bun runtime, `pnpm@`/`yarn@`/`npm@` require that tool in the image) from the
// text of package.json. Other fields (volta, devEngines) are not read. Malformed JSON, a
// non-object root or `engines`, non-string values, unknown package managers and non-exact
// versions are invalid-declaration refusals.
DeclarationSet parse_package_json(std::string_view text);

}  // namespace reviewer::resolve
