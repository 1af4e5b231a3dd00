#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/deps/download_meter.h"
#include "core/deps/downloader.h"
#include "core/deps/npm_lock.h"
#include "core/deps/package_source.h"
#include "core/deps/store.h"
#include "core/util/result.h"

namespace reviewer::deps {

struct FetchOptions {
  std::string registry = kDefaultRegistry;     // an https URL ending in '/'
  std::uint64_t max_total_bytes = 2ull << 30;  // every tarball the lock pins, together
  LockBounds bounds;
  // What the review's downloads have written, against max_total_bytes: set once for a review
  // (deps/fetch_phase.h) and shared by every copy of these options, so all its batches count
  // together; null where the caller is no review, and the host makes one for the call.
  std::shared_ptr<DownloadMeter> meter = nullptr;
};

// One tarball the review needs, by the integrity that names it in the store.
struct Pinned {
  std::string what;  // "package-lock.json: node_modules/a"
  std::string url;
  std::string sha512;  // lower-case hex
  // Where else the review's view holds it, for package managers that do not read npm's cache:
  // pnpm fetches `<registry>/<registry_path>` (the view's file: registry), Bun reads the
  // extracted package from its cache folder `bun_dir` ("name@1.2.3@@@1"). Empty when unused.
  std::string registry_path;
  std::string bun_dir;
  // yarn 1 looks a tarball up in its offline mirror by this file name ("@types-node-22.1.0.tgz",
  // deps/yarn_source.h); empty when no yarn.lock pins it.
  std::string yarn_mirror = {};
};

// A registry package a lock names without its tarball's integrity: yarn 2+ records the checksum
// of its own archive of the package instead (deps/berry_lock.h). The host takes the sha512 from
// the registry (deps/registry_integrity.h) before anything is downloaded.
struct UnpinnedPackage {
  std::string what;  // "yarn.lock: \"ms@npm:^2.1.3\""
  std::string name;
  std::string version;
};

// What a worktree's lock file pins for the review's platform, checked, before any download.
struct FetchList {
  std::string lock_file;           // npm-shrinkwrap.json, package-lock.json, pnpm-lock.yaml,
                                   // bun.lock, or several of them joined by ", "
  std::size_t entries = 0;         // package entries in the lock
  std::size_t other_platform = 0;  // optional entries npm skips on linux-x64
  std::size_t bundled = 0;         // entries that come inside another tarball
  std::size_t project_links = 0;   // npm links to folders of the project itself (no download)
  std::vector<Pinned> tarballs;    // one per distinct URL and integrity
  bool yarn = false;  // a yarn lock is among them: the job runs the runner's yarn 1, which hands
                      // a project of yarn 2+ over to the release its `yarnPath` names
  // yarn 2+'s registry packages, until pin_registry_integrity makes tarballs of them.
  std::vector<UnpinnedPackage> unpinned = {};
  // Every registry package of a pnpm lock by name, with the versions it pins, those for other
  // platforms included: what pnpm 11 checks against its supply-chain settings before installing
  // (deps/registry_documents.h).
  std::map<std::string, std::set<std::string>> pnpm_packages = {};
};

// The tarball of `list` with this integrity and URL, or nullptr. One download per distinct pair:
// two entries that share an integrity but name different URLs are each verified, so one cannot
// borrow the other's bytes.
Pinned* find_tarball(FetchList& list, const std::string& sha512, const std::string& url);

// Reads the worktree's npm lock file (npm-shrinkwrap.json before package-lock.json, as npm
// does) and package.json, without following links, and checks every entry: the lock's format
// and bounds, package.json against the lock as npm ci would, and for every entry npm would
// install here a registry tarball with a sha512 integrity. nullopt when the worktree has no
// npm lock file. Every refusal found is returned, not just the first.
util::Result<std::optional<FetchList>> plan_npm_fetch(const std::string& worktree,
                                                      const FetchOptions& options);
// The same in the directory `dir_fd`, naming its files `prefix` + name ("website/").
util::Result<std::optional<FetchList>> plan_npm_fetch_at(int dir_fd, const std::string& prefix,
                                                         const FetchOptions& options);

// plan_npm_fetch, then the same for pnpm-lock.yaml (v6, v9; package.json's specifiers as
// `pnpm install --frozen-lockfile` compares them), bun.lock (text; as `bun install
// --frozen-lockfile`) and yarn.lock (yarn 1: package.json's patterns as `yarn install
// --frozen-lockfile` looks them up; yarn 2+: the root workspace as `yarn install --immutable`
// compares it, its registry packages left `unpinned`), every lock the worktree has, merged into
// one list: one tarball per distinct URL and integrity, each knowing every place the view must
// hold it. nullopt when the worktree has none of them. Every refusal of every lock is returned.
// `project_dirs` (worktree-relative, from the plan: the directories run steps work in) add their
// npm lock files; one that is missing, a link or leaves the worktree is passed over.
util::Result<std::optional<FetchList>> plan_fetch(
    const std::string& worktree, const FetchOptions& options,
    const std::vector<std::string>& project_dirs = {});

struct FetchReport {
  std::size_t tarballs = 0;
  std::size_t hits = 0;
  std::size_t misses = 0;
  std::uint64_t bytes = 0;          // of every tarball the lock pins
  std::uint64_t bytes_fetched = 0;  // downloaded this time
  std::chrono::milliseconds elapsed{0};
};

// Puts every tarball of `list` in `store`: hits cost a stat, misses are downloaded together, each
// URL once, and each verified against its integrity before it is stored. Refusals:
// `dependency-integrity-conflict` (one URL named with two integrities, before anything is
// downloaded), `dependency-too-large` (the tarballs together exceed options.max_total_bytes),
// `dependency-integrity-mismatch`, `dependency-fetch-failed`, `dependency-store`.
util::Result<FetchReport> fetch_into_store(const FetchList& list, const Store& store,
                                           Downloader& downloader, const FetchOptions& options);

// "1.5 MiB", "20.0 KiB", "nothing": a size for the review's log.
std::string size_text(std::uint64_t bytes);

// "fetched 42 tarballs (5.3 MiB): 40 hits, 2 misses, 120 KiB downloaded in 0.4 s"
std::string describe(const FetchList& list, const FetchReport& report);

}  // namespace reviewer::deps
