#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/util/result.h"

namespace reviewer::deps {

// How much of a lock file is read before anything is built from it: the file's bytes, every
// JSON value (objects, arrays and scalars), nesting, and the package entries.
struct LockBounds {
  std::size_t max_bytes = 64u << 20;
  std::size_t max_nodes = 4'000'000;
  std::size_t max_depth = 32;
  std::size_t max_packages = 100'000;
};

// One entry of the lock's `packages` map, as npm ci reads it.
struct LockedPackage {
  std::string path;  // the key: "node_modules/a/node_modules/@s/b"
  std::string name;  // `name` when the entry has one (an alias), else the path's last name
  std::string version;
  std::string resolved;    // empty when the lock omits it (omit-lockfile-registry-resolved)
  std::string integrity;   // the SRI string as written
  bool optional = false;   // optional or devOptional: npm skips it where it cannot install
  bool link = false;       // a symlink to a folder (workspaces, file: links)
  bool in_bundle = false;  // comes inside its bundling parent's tarball
  bool folder = false;     // a workspace folder of the project, not a package of a registry
  std::vector<std::string> os, cpu, libc;
  // dependencies, devDependencies, optionalDependencies, peerDependencies (peerDependenciesMeta
  // optional ones left out): name -> spec, as declared by the package or, for the root, by the
  // project.
  std::map<std::string, std::string> wants;
  std::map<std::string, std::string> wants_optional;
};

// A package-lock.json or npm-shrinkwrap.json of lockfileVersion 2 or 3.
struct NpmLock {
  std::string file;  // the name it was read from, for messages
  int version = 0;
  std::vector<LockedPackage> packages;  // every entry but the root, ordered by path
};

// Parses `text` (the contents of `file`) within `bounds`. Refusals: `dependency-lock-invalid`
// (over a bound, malformed JSON, not the shape npm writes), `dependency-lock-version`
// (lockfileVersion 1 or missing: npm 6's format has no `packages` map to verify).
util::Result<NpmLock> parse_npm_lock(std::string_view text, const std::string& file,
                                     const LockBounds& bounds = {});

// Checks JSON `text` (of `file`) against `bounds` in one pass before any tree exists, with
// comments allowed when `comments` (Bun's JSONC). Refusal `dependency-lock-invalid` naming the
// bound crossed or where the JSON is malformed.
util::Status check_json_bounds(std::string_view text, const std::string& file,
                               const LockBounds& bounds, bool comments = false);

// The root project's declared dependencies (package.json), as parse_npm_lock reads a package
// entry: `wants` holds dependencies, devDependencies and required peers, `wants_optional` the
// optionalDependencies and optional peers. Refusal `dependency-manifest-invalid` for package.json
// that is not a JSON object with string maps.
util::Result<LockedPackage> parse_manifest(std::string_view text);

}  // namespace reviewer::deps
