#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/deps/npm_lock.h"
#include "core/util/result.h"

// The yarn.lock of yarn 2 and later (Berry): YAML with a `__metadata:` block, one block per
// resolution. Its `checksum` is of the zip archive yarn makes of the package, not of the
// registry's tarball, so the lock cannot pin the download itself: the review takes each npm
// package's sha512 from the registry's version document (deps/registry_integrity.h) and yarn
// still checks its archive against the lock's checksum inside the sandbox, as on CI.
namespace reviewer::deps {

enum class BerrySource {
  kNpm,        // "name@npm:1.2.3": a tarball of the configured registry
  kWorkspace,  // "name@workspace:dir": a folder of the project itself
  kPatch,      // "name@patch:name@npm%3A1.2.3#...": a registry package yarn patches itself
};

struct BerryEntry {
  std::string key;         // the block's key as written (every descriptor it answers)
  std::string resolution;  // "@types/node@npm:22.7.5"
  std::string name;        // "@types/node"
  std::string version;     // "22.7.5" (npm), the `version` field otherwise
  BerrySource source = BerrySource::kNpm;
  std::string
      checksum;  // as written ("10c0/<hex>", or "<hex>" before lock version 8); "" when none
  std::string conditions;  // "os=linux & cpu=x64 & libc=glibc"; "" when none
};

struct BerryLock {
  std::string file;
  int version = 0;  // __metadata.version
  std::vector<BerryEntry> entries;
  // The root workspace's (`workspace:.`) dependencies as the lock writes them, every group in
  // one map: name -> descriptor range ("npm:^5.0.0"; "^5.0.0" before lock version 8).
  std::map<std::string, std::string> root;
  bool has_root = false;
};

// Parses `text` (the contents of `file`) with the bounded YAML loader within `bounds`.
// Refusals:
//   dependency-lock-version    __metadata.version below 4 (yarn 2's first) or above 10
//   dependency-lock-invalid    over a bound, not YAML, not the shape yarn writes (a block without
//                              `resolution`, an npm resolution without an exact version)
//   dependency-source-refused  a resolution of another protocol (git, http, file, link, portal,
//                              exec), an npm resolution naming its own archive URL, a patch of
//                              anything but a registry package, a workspace out of the project
// Every refusal of every block is returned.
util::Result<BerryLock> parse_berry_lock(std::string_view text, const std::string& file,
                                         const LockBounds& bounds = {});

// Whether the lock file `text` is Berry's (a `__metadata:` block at column 0) rather than yarn 1's.
bool is_berry_lock(std::string_view text);

// Holds the root workspace's dependencies to package.json's (dependencies, devDependencies,
// optionalDependencies) as `yarn install --immutable` would: the same names, each range equal to
// the lock's with or without its `npm:` protocol. Refusals `dependency-lock-mismatch` per
// difference; `dependency-lock-invalid` when the lock has no root workspace.
util::Status check_berry_manifest(std::string_view package_json, const BerryLock& lock);

}  // namespace reviewer::deps
