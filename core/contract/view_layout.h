#pragma once

// Where the host mounts what a sandbox reads of the review (contract::kPristineMount, the
// dependency view), and the view's layout and list formats: what the host writes and the launcher
// reads.
//
// Where the host mounts a review's dependency view (a read-only npm cache holding exactly the
// tarballs the lock pins) in every sandbox, and where the launcher looks for it. Outside /tmp,
// /var/tmp and /run, which the launcher clears between jobs, and under a read-only root, so a
// pull request can neither make nor replace it.
namespace reviewer::contract {

inline constexpr const char* kDependencyMount = "/var/cache/reviewer-deps";

// Where the host mounts the review's pristine clone, read-only, beside an empty /workspace
// (launch/fresh_worktree.h). Outside /tmp, /var/tmp and /run and under a read-only root, so no
// step can make or replace it.
inline constexpr const char* kPristineMount = "/var/lib/reviewer-pristine";

// In the view, beside npm's `_cacache`: the tarballs of a pnpm lock at their registry paths
// (`registry/<name>/-/<base>-<version>.tgz`), which pnpm reads as a file: registry; and, for a
// bun.lock, the list of Bun cache folders to unpack, one "<name>@<version>@@@1<TAB><tarball
// path in the view>" a line.
inline constexpr const char* kRegistryDir = "registry";

// In the registry directory, beside a package's `-/` tarballs (`registry/<name>/.packument`):
// the registry's metadata document of the package, for package managers that ask for it before
// installing a lock (pnpm 11 and later, served by deps/provision/loopback_registry.h). No package
// name starts with '.', so it names no package.
inline constexpr const char* kPackumentFile = ".packument";
inline constexpr const char* kBunList = "bun-cache.list";

// In the view: the package managers a job installs itself (pnpm/action-setup), each its registry
// tarball verified by the host, at `package-managers/<name>-<version>.tgz`.
inline constexpr const char* kPackageManagerDir = "package-managers";

// In the view: the package managers package.json's packageManager names, for corepack's cache,
// one "<name>\t<version>\t<reference>\t<tarball path in the view>\t<algo>.<hex>" a line
// (deps/provision/corepack_cache_seed.h).
inline constexpr const char* kCorepackList = "corepack.list";

// In the view, for a yarn.lock: yarn 1's offline mirror, each tarball of the lock under the file
// name yarn looks it up by (deps/yarn_source.h), which the launcher names in
// YARN_YARN_OFFLINE_MIRROR.
inline constexpr const char* kYarnMirrorDir = "yarn-mirror";

// The yarn GitHub's ubuntu runners have on PATH (/usr/local/bin/yarn; "Yarn 1.22.22" in
// actions/runner-images' Ubuntu 24.04 and 22.04 software lists). For a worktree with a yarn.lock
// the host fetches this release from the registry into the view's kPackageManagerDir, and the
// launcher unpacks it onto every job's PATH, as the runner has it from the first step.
inline constexpr const char* kRunnerYarnVersion = "1.22.22";

}  // namespace reviewer::contract
