#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/deps/fetch.h"
#include "core/deps/package_manager.h"
#include "core/deps/packument_cache.h"
#include "core/deps/registry_documents.h"
#include "core/util/result.h"

namespace reviewer::deps {

// Where reviews on this host share their dependency store when no --store is given:
// $XDG_CACHE_HOME/reviewer/deps, else $HOME/.cache/reviewer/deps.
std::string default_store_dir();

// What the fetch phase did for one worktree.
struct Dependencies {
  deps::FetchList list;
  deps::FetchReport report;
  // The registry metadata a resolution at review time read (a project without a lock file);
  // the view's npm cache indexes it by URL so `npm install --offline` resolves the same.
  std::vector<deps::Packument> packuments;
  // The package managers jobs install themselves (pnpm/action-setup), fetched and verified.
  std::vector<deps::FetchedPackageManager> package_managers;
  // The registry's metadata of the pnpm lock's packages, for pnpm 11 and later
  // (deps/registry_documents.h); empty for any other job.
  std::vector<deps::RegistryDocument> documents = {};
};

// The fetch phase of a review: plans the worktree's lock files (npm, pnpm, Bun, yarn; nullopt
// without any), and the npm locks of `project_dirs` (deps::plan_fetch), takes the registry's
// integrity of what yarn 2+ locks without it (deps/registry_integrity.h), and puts every tarball
// in the store at `store_dir`, downloading misses with the host's curl. Nothing of the worktree
// but package.json, .yarnrc.yml and the lock files is read.
util::Result<std::optional<Dependencies>> fetch_dependencies(
    const std::string& worktree, const std::string& store_dir, const deps::FetchOptions& options,
    const std::vector<std::string>& project_dirs = {});

// The fetch phase of a project without a lock file, after deps/npm_resolution.h resolved it: the
// tarballs of the lock npm wrote, and the metadata npm read, into the store.
util::Result<Dependencies> fetch_resolved(deps::FetchList list,
                                          std::vector<deps::Packument> packuments,
                                          const std::string& store_dir,
                                          const deps::FetchOptions& options);

// Fetches every package manager of `pins` into the store at `store_dir` (deps/package_manager.h),
// downloading with the host's curl, and adds it to `deps`. Prints one line for each.
util::Status fetch_package_managers(const std::vector<deps::PackageManagerPin>& pins,
                                    const std::string& store_dir, const deps::FetchOptions& options,
                                    Dependencies& deps);

// The registry's metadata of every package `deps`' pnpm lock pins, into the store at `store_dir`
// and `deps`, downloading misses with the host's curl; prints one line. For pnpm 11 and later,
// which read it before installing the lock.
util::Status fetch_registry_metadata(const std::string& store_dir,
                                     const deps::FetchOptions& options, Dependencies& deps);

// Makes `dir` the review's view of the store: exactly the tarballs of `deps`, for the sandbox:
// npm's cache, pnpm's file: registry (contract::kRegistryDir) with the packages' metadata, the list
// of Bun's cache folders (contract::kBunList), yarn's offline mirror (contract::kYarnMirrorDir)
// when the locks need them, and the package managers' tarballs (contract::kPackageManagerDir).
util::Status make_dependency_view(const std::string& store_dir, const Dependencies& deps,
                                  const std::string& dir);

// A registry the fetch may use: an https URL of a host, ending in '/'.
bool valid_registry(const std::string& registry);

// The lock files of package managers the fetch does not read yet (bun.lockb) in
// `worktree`, named in the review's log, so a project that needed them is not mistaken for one
// without dependencies.
std::vector<std::string> unread_lock_files(const std::string& worktree);

// Whether a fetch refusal is the host's (the registry unreachable, the store unwritable) rather
// than the pull request's.
bool is_host_side(const util::Refusal& r);

}  // namespace reviewer::deps
