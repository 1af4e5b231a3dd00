#pragma once

#include <cstddef>
#include <string_view>

#include "core/resolve/declaration.h"

// Readers for the single-purpose version files. Each takes the file's text and returns the
// declarations it makes, or invalid-declaration refusals naming the file and quoting the value.
// docs/resolver.md lists exactly what each accepts.
namespace reviewer::resolve {

// The size bound for .nvmrc, .node-version, .bun-version and .tool-versions.
inline constexpr std::size_t kMaxVersionFileBytes = 64 * 1024;

// .nvmrc (nvm >= 0.40): `#` comments, blank lines and surrounding whitespace ignored;
// `key=value` lines ignored (the key `node` refused); exactly one version line, read as a
// semver range (so `v22`, `22.1`, `>=20 <23` work); nvm aliases (`lts/*`, `node`, ...) refused.
DeclarationSet parse_nvmrc(std::string_view text);

// .node-version: the whole trimmed file, one line, no comments; a semver range.
DeclarationSet parse_node_version(std::string_view text);

// .bun-version: the whole trimmed file, one line, no comments; a semver range for bun.
DeclarationSet parse_bun_version(std::string_view text);

// .tool-versions (asdf/mise): `tool version [fallback...]` lines, `#` comments anywhere; fields
// split on spaces and tabs; the first line for `nodejs`/`node` and the first for `bun` count.
// Each version is a full or partial version (`22.1.0`, `v22`, `22.1`); several on one line
// mean any of them (asdf's fallbacks). `system`, `ref:`, `path:` and aliases are refused.
DeclarationSet parse_tool_versions(std::string_view text);

}  // namespace reviewer::resolve
