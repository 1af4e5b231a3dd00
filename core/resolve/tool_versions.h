#pragma once

#include <string_view>

#include "core/resolve/declaration.h"

namespace reviewer::resolve {

// .tool-versions, read as asdf reads it (internal/toolversions): `#` cuts a line; fields are
// separated by single spaces only and each is trimmed of Go's white space; a line with fewer
// than two fields is ignored; the first line naming a tool wins. `nodejs` (asdf) and `node`
// (mise) each count, both binding; `bun` counts. Only the first version of a line is read
// (asdf installs every version and runs the first; the rest are fallbacks), as a full or
// partial version (`22.1.0`, `v22`, `22.1`). Refused (invalid-declaration): `system`, `ref:`,
// `path:`, aliases, ranges, and a Node/Bun line that asdf would misread because another white
// space character (a tab, U+00A0, ...) or a leading byte-order mark sits where a space belongs.
DeclarationSet parse_tool_versions(std::string_view text);

}  // namespace reviewer::resolve
