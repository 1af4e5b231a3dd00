#pragma once

#include <cstddef>
#include <string_view>

#include "core/resolve/declaration.h"

// Readers for the single-purpose version files (.tool-versions: tool_versions.h). Each takes the
// file's text and returns the declarations it makes, or invalid-declaration refusals naming the
// file and quoting the value. docs/resolver.md lists exactly what each accepts.
namespace reviewer::resolve {

// The size bound for .nvmrc, .node-version, .bun-version and .tool-versions.
inline constexpr std::size_t kMaxVersionFileBytes = 64 * 1024;

// .nvmrc (nvm >= 0.40): `#` comments, blank lines and surrounding whitespace ignored;
// `key=value` lines ignored, but their keys must be distinct (compared as nvm does) and must
// not be `node`; exactly one version line, read as a semver range (so `v22`, `22.1`, `>=20 <23`
// work); nvm aliases (`lts/*`, `node`, ...) refused.
DeclarationSet parse_nvmrc(std::string_view text);

// .node-version: the whole trimmed file, one line, no comments; a semver range.
DeclarationSet parse_node_version(std::string_view text);

// .bun-version: the whole trimmed file, one line, no comments; a semver range for bun.
DeclarationSet parse_bun_version(std::string_view text);

}  // namespace reviewer::resolve
