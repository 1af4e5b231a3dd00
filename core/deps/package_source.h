#pragma once

#include <string>
#include <string_view>

#include "core/deps/npm_lock.h"
#include "core/util/result.h"

namespace reviewer::deps {

// npm's public registry, the default source of every tarball.
inline constexpr const char* kDefaultRegistry = "https://registry.npmjs.org/";

// The tarball URL a registry serves `name`@`version` at, as pnpm and Bun derive it when their
// lock names only the integrity: `<registry><name>/-/<name without scope>-<version>.tgz`.
std::string registry_tarball_of(const std::string& registry, const std::string& name,
                                const std::string& version);

// A folder of a lock's own project: relative to the lock's directory, below it or the directory
// itself ("" or "."), every component a plain name (no `..`, `node_modules`, `.git` or control
// character). What a package manager links there (npm's workspaces and `file:` links, yarn 2+'s
// `workspace:` folders) comes from the pull request's commit, so nothing has to be fetched.
bool inside_project(std::string_view rel);

// `name` as a registry URL spells it after the registry, a scope's slash escaped:
// "@types/node" -> "@types%2fnode" (the package's metadata document is `<registry><this>`).
std::string registry_url_name(const std::string& name);

// The URL the review may fetch `p` from: its `resolved` tarball when that is a tarball of
// `registry` (an https URL ending in '/'). Refusal `dependency-resolved-missing` when the lock
// leaves `resolved` out; `dependency-source-refused`
// naming the kind of source otherwise: git, file, link (workspaces, `file:` folders), plain
// http, another host, or a URL of the registry that is not one of its tarballs. Only the
// characters registry tarball paths use are accepted, so the URL is safe to hand to a client.
util::Result<std::string> registry_tarball_url(const LockedPackage& p, const std::string& file,
                                               const std::string& registry);

}  // namespace reviewer::deps
