#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/fetch/downloader.h"
#include "core/fetch/npm_lock.h"
#include "core/fetch/package_source.h"
#include "core/fetch/store.h"
#include "core/util/result.h"

namespace reviewer::fetch {

struct FetchOptions {
  std::string registry = kDefaultRegistry;     // an https URL ending in '/'
  std::uint64_t max_total_bytes = 2ull << 30;  // every tarball the lock pins, together
  LockBounds bounds;
};

// One tarball the review needs, by the integrity that names it in the store.
struct Pinned {
  std::string what;  // "package-lock.json: node_modules/a"
  std::string url;
  std::string sha512;  // lower-case hex
};

// What a worktree's lock file pins for the review's platform, checked, before any download.
struct FetchList {
  std::string lock_file;           // npm-shrinkwrap.json or package-lock.json
  std::size_t entries = 0;         // package entries in the lock
  std::size_t other_platform = 0;  // optional entries npm skips on linux-x64
  std::size_t bundled = 0;         // entries that come inside another tarball
  std::vector<Pinned> tarballs;    // one per distinct URL and integrity
};

// Reads the worktree's npm lock file (npm-shrinkwrap.json before package-lock.json, as npm
// does) and package.json, without following links, and checks every entry: the lock's format
// and bounds, package.json against the lock as npm ci would, and for every entry npm would
// install here a registry tarball with a sha512 integrity. nullopt when the worktree has no
// npm lock file. Every refusal found is returned, not just the first.
util::Result<std::optional<FetchList>> plan_npm_fetch(const std::string& worktree,
                                                      const FetchOptions& options);

struct FetchReport {
  std::size_t tarballs = 0;
  std::size_t hits = 0;
  std::size_t misses = 0;
  std::uint64_t bytes = 0;          // of every tarball the lock pins
  std::uint64_t bytes_fetched = 0;  // downloaded this time
  std::chrono::milliseconds elapsed{0};
};

// Puts every tarball of `list` in `store`: hits cost a stat, misses are downloaded together and
// each verified against its integrity before it is stored. Refusals: `dependency-too-large`
// (the tarballs together exceed options.max_total_bytes), `dependency-integrity-mismatch`,
// `dependency-fetch-failed`, `dependency-store`.
util::Result<FetchReport> fetch_into_store(const FetchList& list, const Store& store,
                                           Downloader& downloader, const FetchOptions& options);

// "fetched 42 tarballs (5.3 MiB): 40 hits, 2 misses, 120 KiB downloaded in 0.4 s"
std::string describe(const FetchList& list, const FetchReport& report);

}  // namespace reviewer::fetch
