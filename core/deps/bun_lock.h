#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/deps/npm_lock.h"
#include "core/deps/pnpm_lock.h"
#include "core/util/result.h"

namespace reviewer::deps {

// A text bun.lock (lockfileVersion 0 or 1, Bun 1.2 and later), as `bun install
// --frozen-lockfile` reads it.
struct BunLock {
  std::string file;
  Specifiers root;  // the workspace "" (the root project)
  // One entry per key of `packages`: `name` and `version` from the entry's "name@version";
  // `resolved` the URL Bun fetches it from (the registry's tarball when the entry is a
  // registry package, else the entry's source as written: `github:`, `git+`, `file:`, `link:`,
  // `workspace:`, a tarball URL); `path` the key, for messages. Entries with an `os`, `cpu` or
  // `libc` are `optional`: Bun skips them on another platform.
  std::vector<LockedPackage> packages;
};

// Parses `text` (the contents of `file`; JSON with trailing commas and comments, as Bun writes
// it) within `bounds`. Refusals: `dependency-lock-invalid`, `dependency-lock-version` (another
// lockfileVersion), `dependency-source-refused` (a workspace other than the root).
util::Result<BunLock> parse_bun_lock(std::string_view text, const std::string& file,
                                     const std::string& registry, const LockBounds& bounds = {});

// `text` with every comma that only precedes a closing '}' or ']' removed (outside strings), so
// a JSON reader takes Bun's lock. Everything else is kept byte for byte.
std::string without_trailing_commas(std::string_view text);

}  // namespace reviewer::deps
