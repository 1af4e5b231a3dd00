#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>

#include "core/deps/downloader.h"
#include "core/deps/fetch.h"
#include "core/deps/store.h"
#include "core/util/result.h"

// The sha512 of registry tarballs a lock names without it (FetchList::unpinned, from yarn 2+'s
// lock, whose checksums are of yarn's own archives): taken from the registry's version document
// of each `name@version` over HTTPS, as the package managers' own releases are
// (deps/package_manager.h), then recorded in the store, since a published version's tarball never
// changes on npm's registry. Every tarball is then downloaded and admitted by that integrity like
// any other (fetch_into_store).
namespace reviewer::deps {

// Why the registry's version document `text` of `name`@`version` does not pin the tarball at
// `tarball_url` ("is not JSON", "names another package or version", ...), or "" when it does and
// `sha512` (lower-case hex) holds its dist.integrity.
std::string read_version_document(std::string_view text, const std::string& name,
                                  const std::string& version, const std::string& tarball_url,
                                  std::string& sha512);

struct IntegrityReport {
  std::size_t packages = 0;
  std::size_t hits = 0;  // known from the store's records, nothing asked
  std::chrono::milliseconds elapsed{0};
};

// Moves every entry of `list.unpinned` into `list.tarballs`, pinned by the registry's
// integrity: a record of the store, or the version document (`<registry><name>/<version>`,
// downloaded together), which must name the package, the version, the registry's own tarball URL
// and a sha512. Each tarball's view path is its registry path (Pinned::registry_path), where the
// loopback registry serves it to yarn. Refusals: `dependency-metadata-invalid`,
// `dependency-fetch-failed` (a 404 included: CI's install fails the same way),
// `dependency-store`.
util::Result<IntegrityReport> pin_registry_integrity(FetchList& list, const Store& store,
                                                     Downloader& downloader,
                                                     const FetchOptions& options);

// "took the registry's integrity of 429 packages: 420 known, 9 version documents read in 1.2 s"
std::string describe(const IntegrityReport& report);

}  // namespace reviewer::deps
