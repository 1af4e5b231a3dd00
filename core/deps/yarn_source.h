#pragma once

#include <string>

#include "core/deps/yarn_lock.h"
#include "core/util/result.h"

namespace reviewer::deps {

// yarn 1's default registry: the host yarn 1 writes into `resolved` when no other registry is
// configured. It serves npm's registry under the same paths (docs/dependencies.md, "Yarn").
inline constexpr const char* kYarnRegistry = "https://registry.yarnpkg.com/";

// `entry` as the fetch plan checks it: its package with `resolved` the URL the host may fetch
// (the `#sha1` fragment yarn appends dropped, since it never reaches the server; a
// registry.yarnpkg.com URL read as the same path of `registry` when `registry` is npm's public
// registry), for registry_tarball_url() to judge. Refusals, before any URL is looked at:
// `dependency-source-refused` for a pattern whose spec yarn resolves from a folder or a local
// file (`file:`, `link:`, `portal:`, `workspace:`); `dependency-resolved-missing` for a block
// without `resolved`.
util::Result<LockedPackage> yarn_package(const YarnEntry& entry, const std::string& file,
                                         const std::string& registry);

// The file name yarn 1 looks a registry tarball up by in its offline mirror (its TarballFetcher's
// getTarballMirrorPath): the URL's last segment, after the scope and a '-' for a scoped
// package: ".../ms/-/ms-2.1.3.tgz" -> "ms-2.1.3.tgz", ".../@types/node/-/node-22.1.0.tgz" ->
// "@types-node-22.1.0.tgz". `url` is a tarball URL registry_tarball_url() accepted.
std::string yarn_mirror_name(const std::string& url);

}  // namespace reviewer::deps
