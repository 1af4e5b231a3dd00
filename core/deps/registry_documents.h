#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/deps/downloader.h"
#include "core/deps/fetch.h"
#include "core/deps/store.h"
#include "core/util/result.h"

// The registry's metadata documents of the packages a lock pins, for package managers that read
// them before installing the lock: pnpm 11 and later check each locked version's publish time
// against their supply-chain settings (minimumReleaseAge) and fail when the registry lacks the
// document. Fetched by the host before the sandbox exists, kept in the store by their own
// SHA-512, and placed in the view's registry directory beside the tarballs
// (contract::kPackumentFile), where the loopback registry serves them
// (deps/provision/loopback_registry.h).
namespace reviewer::deps {

struct RegistryDocument {
  std::string name;    // "@types/node"
  std::string sha512;  // names it in the store
  bool hit = false;    // nothing was downloaded
  std::uint64_t bytes = 0;
};

struct DocumentsFetch {
  std::vector<RegistryDocument> documents;
  std::chrono::milliseconds elapsed{0};
};

// Puts the registry's document of each package of `packages` (FetchList::pnpm_packages) in
// `store`. One the store recorded
// for the package earlier is reused when it lists every version `packages` names (the record
// holds the list; a published version's entry, its publish time included, never changes); any other
// is downloaded whole
// (`<registry><name>`, Accept: application/json), checked to be a JSON object naming the package,
// and admitted by its own SHA-512, then recorded. Refusals: `dependency-metadata-invalid` (not
// JSON, or another package's), `dependency-fetch-failed`, `dependency-too-large`,
// `dependency-store`.
util::Result<DocumentsFetch> fetch_registry_documents(
    const std::map<std::string, std::set<std::string>>& packages, const Store& store,
    Downloader& downloader, const FetchOptions& options);

// "read the registry's metadata of 17 packages (4.2 MiB): 15 hits, 2 downloaded in 0.3 s"
std::string describe(const DocumentsFetch& fetched);

}  // namespace reviewer::deps
