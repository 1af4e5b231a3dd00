#pragma once

#include <reviewer/sdk/json_depth.hpp>

#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "core/resolve/declaration.h"
#include "core/util/result.h"

namespace reviewer::resolve {

// The size bound for package.json.
inline constexpr std::size_t kMaxPackageJsonBytes = 1024 * 1024;

// The deepest nesting of arrays and objects a JSON file read here may have: the SDK's, which the
// plugins' readers of repository files use too.
using sdk::kMaxJsonDepth;

// Parses `text`, the JSON file `file`, as every reader here parses JSON: nesting bounded by
// kMaxJsonDepth, then nlohmann's strict RFC 8259 parse (a UTF-8 byte-order mark is skipped; the
// last of duplicate keys wins, as in JSON.parse). Errors (invalid-declaration, located at
// `file`): "FILE nests arrays or objects deeper than 64 levels", "FILE is not valid JSON: ...".
util::Result<nlohmann::json> parse_json(std::string_view text, const std::string& file);

// Reads `engines.node`, `engines.bun` (semver ranges) and `packageManager` (`name@x.y.z[+hash]`:
// `bun@` pins the Bun runtime, `pnpm@`/`yarn@`/`npm@` require that tool in the image) from the
// text of package.json. Other fields (volta, devEngines) are not read. Malformed JSON, a
// non-object root or `engines`, non-string values, unknown package managers and non-exact
// versions are invalid-declaration refusals.
DeclarationSet parse_package_json(std::string_view text);

}  // namespace reviewer::resolve
