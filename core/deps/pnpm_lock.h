#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/deps/npm_lock.h"
#include "core/util/result.h"

namespace reviewer::deps {

// The root project's direct dependencies by group ("dependencies", "devDependencies",
// "optionalDependencies"): name -> specifier exactly as written. pnpm and Bun compare these
// strings with package.json's, not the ranges they mean.
using Specifiers = std::map<std::string, std::map<std::string, std::string>>;

// A pnpm-lock.yaml of lockfileVersion 6.x or 9.x, as `pnpm install --frozen-lockfile` reads it.
struct PnpmLock {
  std::string file;
  std::string version;  // "6.0", "9.0"
  bool auto_install_peers = true;
  Specifiers root;  // the importer "." (v9, v6 with importers) or the top-level groups (v6)
  // One entry per package of the `packages` map, keyed by its name and version: `resolved` is
  // the URL pnpm fetches it from (the tarball of `registry` when the lock names only its
  // integrity; `git+REPO#COMMIT` for git resolutions; `file:DIR` with `link` for directories);
  // `path` the key as written, for messages.
  std::vector<LockedPackage> packages;
};

// Parses `text` (the contents of `file`) with the bounded YAML loader within `bounds`.
// Refusals: `dependency-lock-invalid` (over a bound, malformed YAML, not the shape pnpm
// writes), `dependency-lock-version` (a lockfileVersion other than 6.x or 9.x),
// `dependency-source-refused` (a workspace importer other than ".", or a root dependency
// pnpm links from a folder: `link:` and `file:` versions).
util::Result<PnpmLock> parse_pnpm_lock(std::string_view text, const std::string& file,
                                       const std::string& registry, const LockBounds& bounds = {});

}  // namespace reviewer::deps
