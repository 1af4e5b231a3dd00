#pragma once

#include <cstdint>
#include <string>

#include "core/deps/downloader.h"
#include "core/deps/fetch.h"
#include "core/deps/store.h"
#include "core/util/result.h"

// The package managers a job installs itself (pnpm/action-setup puts `pnpm@X.Y.Z` from the
// registry on PATH): fetched by the host from the configured registry before the sandbox exists,
// verified against the registry's `dist.integrity` and, when package.json's packageManager carries
// one, corepack's hash of the tarball, and kept in the store like any tarball. docs/fidelity.md,
// "Package managers".
namespace reviewer::deps {

// One package manager a review needs.
struct PackageManagerPin {
  std::string name;     // "pnpm"
  std::string version;  // "10.33.0": the plan's pin
  // package.json's packageManager as written when it names this version ("pnpm@10.33.0+sha512.
  // <hex>"); "" when it names none or another one. Its `+ALGO.HEX`, if any, must match.
  std::string declared;
  std::string what;  // for messages: "pnpm/action-setup at .github/workflows/ci.yml:12:9"
  // package.json's packageManager names it: a step may run it through corepack (`corepack
  // enable`, `corepack pnpm`), which finds it in corepack's cache
  // (deps/provision/corepack_cache_seed.h).
  bool corepack = false;
  // Only corepack may need it: when it cannot be fetched, the review says so and goes on, since
  // no step may run corepack; corepack then fails offline where CI would have downloaded it.
  bool corepack_only = false;
};

struct FetchedPackageManager {
  std::string name;       // "pnpm"
  std::string spec;       // the pin's version as asked: "10.33.0", or a range such as "11"
  std::string version;    // the release fetched: the pin's, or the one the range picked
  std::string sha512;     // names it in the store
  std::string view_path;  // "package-managers/pnpm-10.33.0.tgz", relative to the view
  bool hit = false;       // nothing was downloaded
  std::uint64_t bytes = 0;
  // For corepack's cache, when the pin is for corepack (else both ""): the reference as
  // packageManager writes it ("10.33.0+sha512.<hex>") and the hash corepack records for the
  // tarball it downloaded ("sha512.<hex>", in packageManager's algorithm when it names one); for
  // a single-file release without packageManager's hash, the algorithm alone ("sha512"): the
  // launcher takes the digest of the file it unpacks.
  std::string corepack_reference = {};
  std::string corepack_hash = {};
};

// yarn 2 and later: published on the registry as @yarnpkg/cli-dist, whose bin/yarn.js corepack
// keeps as the one file it runs (deps/provision/corepack_cache_seed.h); packageManager's
// `+ALGO.HEX` is of that file, not of the tarball, so the launcher checks it where it unpacks the
// release.
bool single_file_release(const PackageManagerPin& pin);

// Where the view holds `name`@`version`'s tarball, relative to the view.
std::string package_manager_view_path(const std::string& name, const std::string& version);

// Puts `pin`'s registry tarball in `store`. A range (pnpm/setup's `version: 11`) is first
// resolved against the registry's metadata document of the package (`<registry><name>`), at
// review time as CI resolves it at its own (release_pick.h); the release it picks is then fetched
// as an exact one. For an exact version, the first time: the registry's version document
// (`<registry><name>/<version>`) for its tarball URL and sha512 integrity, then the tarball,
// admitted only with that integrity; the store then records `name@version` -> integrity for this
// registry (a published version's bytes never change on npm's registry), so a later review costs
// two stats and downloads nothing. Refusals:
//   package-manager-version-not-exact  the version is neither X.Y.Z[-pre] nor a semver range
//   package-manager-hash-unsupported   packageManager's `+ALGO.HEX` is malformed or not a sha
//   package-manager-version-missing    the registry has no such version (404)
//   package-manager-metadata-invalid   the document names another package or version, another
//                                      tarball URL than the registry's own, or no sha512
//   package-manager-integrity-mismatch packageManager's hash is not the tarball's
//   dependency-integrity-mismatch, dependency-fetch-failed, dependency-store (as for tarballs)
util::Result<FetchedPackageManager> fetch_package_manager(const PackageManagerPin& pin,
                                                          const Store& store,
                                                          Downloader& downloader,
                                                          const FetchOptions& options);

}  // namespace reviewer::deps
